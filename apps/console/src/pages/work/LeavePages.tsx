import { Button, Card, DatePicker, Form, Input, Select, Space, Typography } from "antd";
import type { Dayjs } from "dayjs";
import { useState } from "react";
import { useNavigate, useParams } from "react-router";
import { reportNetworkError } from "../../app/api.ts";
import { useFeedback } from "../../app/feedback.ts";
import { PageLoading } from "../../components/PageLoading.tsx";
import { useT } from "../../i18n/index.tsx";
import { ProcessDiagram } from "../flow/diagram/ProcessDiagram.tsx";
import { FlowSteps, LeaveSummary, useLeave, useLeaveTypes } from "./LeaveParts.tsx";
import { leaveDays } from "./leave-days.ts";
import { parseLeavePath } from "./leave-paths.ts";
import { announceTodoChange } from "./todo-signal.ts";
import { completeTask, startLeave } from "./work-calls.ts";

const WIRE_TIME = "YYYY-MM-DD HH:mm:ss";

/** The parameters of the leave page at the current address (its path is the route's splat). */
function useLeaveParams(): string[] {
  const splat = useParams()["*"] ?? "";
  return parseLeavePath(`/${splat}`.replace(/\/+$/, ""))?.params ?? [];
}

interface LeaveForm {
  type: string;
  startTime: Dayjs;
  endTime: Dayjs;
  reason: string;
}

/** 请假申请: type, start, end (the days follow), reason; sent, it opens 已发事务. */
export function LeaveFormPage() {
  const t = useT();
  const { message } = useFeedback();
  const navigate = useNavigate();
  const [processDefinitionId = ""] = useLeaveParams();
  const types = useLeaveTypes();
  const [form] = Form.useForm<LeaveForm>();
  const start = Form.useWatch("startTime", form);
  const end = Form.useWatch("endTime", form);
  const days = leaveDays(start?.toDate(), end?.toDate());
  const [saving, setSaving] = useState(false);

  const submit = async (values: LeaveForm) => {
    setSaving(true);
    try {
      await startLeave({
        processDefinitionId,
        type: values.type,
        startTime: values.startTime.format(WIRE_TIME),
        endTime: values.endTime.format(WIRE_TIME),
        reason: values.reason.trim(),
      });
      message.success(t("leave.sent"));
      announceTodoChange();
      navigate("/work/send");
    } catch (error) {
      reportNetworkError(error);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Card title={t("leave.formTitle")} data-testid="leave-form">
      <Form<LeaveForm>
        form={form}
        layout="horizontal"
        labelCol={{ span: 4 }}
        wrapperCol={{ span: 12 }}
        onFinish={(values) => void submit(values)}
        initialValues={{ type: "1" }}
      >
        <Form.Item
          name="type"
          label={t("leave.type")}
          rules={[{ required: true, message: t("leave.typeRequired") }]}
        >
          <Select options={types} data-testid="leave-type" />
        </Form.Item>
        <Form.Item
          name="startTime"
          label={t("leave.startTime")}
          rules={[{ required: true, message: t("leave.startRequired") }]}
        >
          <DatePicker showTime format={WIRE_TIME} data-testid="leave-start" />
        </Form.Item>
        <Form.Item
          name="endTime"
          label={t("leave.endTime")}
          dependencies={["startTime"]}
          rules={[
            { required: true, message: t("leave.endRequired") },
            ({ getFieldValue }) => ({
              validator: (_, value: Dayjs | undefined) => {
                const from = getFieldValue("startTime") as Dayjs | undefined;
                return !value || !from || value.isAfter(from)
                  ? Promise.resolve()
                  : Promise.reject(new Error(t("leave.endAfterStart")));
              },
            }),
          ]}
        >
          <DatePicker showTime format={WIRE_TIME} data-testid="leave-end" />
        </Form.Item>
        <Form.Item label={t("leave.days")}>
          <Typography.Text data-testid="leave-days">{days ?? "—"}</Typography.Text>
        </Form.Item>
        <Form.Item
          name="reason"
          label={t("leave.reason")}
          rules={[{ required: true, whitespace: true, message: t("leave.reasonRequired") }]}
        >
          <Input.TextArea rows={4} maxLength={500} showCount data-testid="leave-reason" />
        </Form.Item>
        <Form.Item wrapperCol={{ offset: 4 }}>
          <Space>
            <Button type="primary" htmlType="submit" loading={saving} data-testid="leave-submit">
              {t("leave.submit")}
            </Button>
            <Button onClick={() => navigate("/work/start")}>{t("common.cancel")}</Button>
          </Space>
        </Form.Item>
      </Form>
    </Card>
  );
}

/** 办理: the request read-only, the steps so far, a comment and 同意 / 驳回 (both need the comment). */
export function LeaveHandlePage() {
  const t = useT();
  const { message } = useFeedback();
  const navigate = useNavigate();
  const [taskId = "", processInstanceId = "", businessId = ""] = useLeaveParams();
  const { leave, failed } = useLeave(businessId);
  const [form] = Form.useForm<{ comment: string }>();
  const [saving, setSaving] = useState<"pass" | "reject" | null>(null);

  const decide = async (pass: boolean) => {
    const { comment } = await form.validateFields();
    setSaving(pass ? "pass" : "reject");
    try {
      await completeTask({ taskId, processInstanceId }, pass, comment.trim());
      message.success(pass ? t("leave.passed") : t("leave.rejected"));
      announceTodoChange();
      navigate("/work/todo");
    } catch (error) {
      reportNetworkError(error);
    } finally {
      setSaving(null);
    }
  };

  if (failed) return <Card>{t("leave.loadFailed")}</Card>;
  if (!leave) return <PageLoading />;
  return (
    <Card title={t("leave.handleTitle")} data-testid="leave-handle">
      <Space orientation="vertical" size="large" style={{ width: "100%" }}>
        <LeaveSummary leave={leave} />
        <FlowSteps processInstanceId={processInstanceId} />
        <Form form={form} layout="vertical">
          <Form.Item
            name="comment"
            label={t("leave.comment")}
            rules={[{ required: true, whitespace: true, message: t("leave.commentRequired") }]}
          >
            <Input.TextArea rows={3} maxLength={1000} data-testid="leave-comment" />
          </Form.Item>
          <Space>
            <Button
              type="primary"
              loading={saving === "pass"}
              disabled={saving !== null}
              onClick={() => void decide(true).catch(() => undefined)}
              data-testid="leave-pass"
            >
              {t("leave.pass")}
            </Button>
            <Button
              danger
              loading={saving === "reject"}
              disabled={saving !== null}
              onClick={() => void decide(false).catch(() => undefined)}
              data-testid="leave-reject"
            >
              {t("leave.reject")}
            </Button>
          </Space>
        </Form>
      </Space>
    </Card>
  );
}

/** 详情: the request and every step so far (who, when, comment). */
export function LeaveDetailPage() {
  const t = useT();
  const [processInstanceId = "", businessId = ""] = useLeaveParams();
  const { leave, failed } = useLeave(businessId);
  if (failed) return <Card>{t("leave.loadFailed")}</Card>;
  if (!leave) return <PageLoading />;
  return (
    <Card title={t("leave.detailTitle")} data-testid="leave-detail">
      <Space orientation="vertical" size="large" style={{ width: "100%" }}>
        <LeaveSummary leave={leave} />
        <FlowSteps processInstanceId={processInstanceId} />
        <Card size="small" title={t("flow.diagram.title")} data-testid="leave-diagram">
          <ProcessDiagram processInstanceId={processInstanceId} height={320} />
        </Card>
      </Space>
    </Card>
  );
}
