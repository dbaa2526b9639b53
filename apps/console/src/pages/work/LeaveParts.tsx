import { Descriptions, Empty, Table, type TableColumnsType, Typography } from "antd";
import { useEffect, useState } from "react";
import { reportNetworkError } from "../../app/api.ts";
import { dictionaryOptions, loadDictionary, type Option } from "../../crud/dictionary.ts";
import { useI18n } from "../../i18n/index.tsx";
import { type FlowStep, type LeaveRequest, loadLeave, loadSteps } from "./work-calls.ts";

/** The leave types of the `leave_type` dictionary in the console's language. */
export function useLeaveTypes(): Option[] {
  const { language } = useI18n();
  const [items, setItems] = useState<Awaited<ReturnType<typeof loadDictionary>>>([]);
  useEffect(() => {
    let live = true;
    loadDictionary("leave_type", false)
      .then((loaded) => live && setItems(loaded))
      .catch(reportNetworkError);
    return () => {
      live = false;
    };
  }, []);
  return dictionaryOptions(items, language);
}

/** A leave request by its business id; `failed` once the call failed (its message was toasted). */
export function useLeave(businessId: string) {
  const [leave, setLeave] = useState<LeaveRequest | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    loadLeave(businessId)
      .then((row) => live && setLeave(row))
      .catch((error: unknown) => {
        if (live) setFailed(true);
        reportNetworkError(error);
      });
    return () => {
      live = false;
    };
  }, [businessId]);
  return { leave, failed };
}

/** The request itself, read-only: who asked, the type, the period, the days and the reason. */
export function LeaveSummary({ leave }: { leave: LeaveRequest }) {
  const { t } = useI18n();
  const types = useLeaveTypes();
  const type = types.find((option) => option.value === String(leave.type))?.label ?? String(leave.type);
  return (
    <Descriptions bordered size="small" column={2} data-testid="leave-summary">
      <Descriptions.Item label={t("leave.applicant")}>{leave.flow.assigneeName}</Descriptions.Item>
      <Descriptions.Item label={t("leave.applyTime")}>{leave.applyTime}</Descriptions.Item>
      <Descriptions.Item label={t("leave.type")}>{type}</Descriptions.Item>
      <Descriptions.Item label={t("leave.days")}>
        <span data-testid="leave-days">{leave.days}</span>
      </Descriptions.Item>
      <Descriptions.Item label={t("leave.startTime")}>{leave.startTime}</Descriptions.Item>
      <Descriptions.Item label={t("leave.endTime")}>{leave.endTime}</Descriptions.Item>
      <Descriptions.Item label={t("leave.reason")} span={2}>
        <Typography.Paragraph style={{ whiteSpace: "pre-wrap", marginBottom: 0 }}>
          {leave.reason}
        </Typography.Paragraph>
      </Descriptions.Item>
    </Descriptions>
  );
}

/** The steps of an instance so far (history-flow-list): the step, who, when and the comment. */
export function FlowSteps({ processInstanceId }: { processInstanceId: string }) {
  const { t } = useI18n();
  const [steps, setSteps] = useState<FlowStep[] | null>(null);
  useEffect(() => {
    let live = true;
    loadSteps(processInstanceId)
      .then((rows) => live && setSteps(rows))
      .catch((error: unknown) => {
        if (live) setSteps([]);
        reportNetworkError(error);
      });
    return () => {
      live = false;
    };
  }, [processInstanceId]);
  const columns: TableColumnsType<FlowStep> = [
    { key: "name", title: t("leave.step"), dataIndex: "historyActivityName" },
    { key: "who", title: t("leave.who"), dataIndex: "assigneeName" },
    { key: "start", title: t("leave.stepStart"), dataIndex: "createTime" },
    { key: "end", title: t("leave.stepEnd"), dataIndex: "endTime" },
    { key: "duration", title: t("leave.duration"), dataIndex: "historyActivityDurationTime" },
    { key: "comment", title: t("leave.comment"), dataIndex: "comment" },
  ];
  return (
    <Table<FlowStep>
      data-testid="flow-steps"
      rowKey={(step, index) => `${step.historyActivityId}-${step.createTime}-${index ?? 0}`}
      columns={columns}
      dataSource={steps ?? []}
      loading={steps === null}
      pagination={false}
      size="small"
      locale={{ emptyText: <Empty description={t("leave.noSteps")} /> }}
    />
  );
}
