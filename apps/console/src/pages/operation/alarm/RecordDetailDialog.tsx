import type { Row } from "@meterline/api-client";
import { Descriptions, Modal, Table } from "antd";
import { useEffect, useState } from "react";
import { reportNetworkError } from "../../../app/api.ts";
import { type MessageKey, useT } from "../../../i18n/index.tsx";
import { loadRecordDetail, type RecordHistory } from "./alarm-calls.ts";
import { StateCell } from "./StateCell.tsx";

/** One check record: what it says, and each change of its state with the cause (checkRecord/detail). */
export function RecordDetailDialog({ id, onClose }: { id: string | null; onClose: () => void }) {
  const t = useT();
  const [record, setRecord] = useState<(Row & { history?: RecordHistory[] }) | null>(null);
  useEffect(() => {
    setRecord(null);
    if (!id) return;
    let live = true;
    loadRecordDetail(id)
      .then((answer) => {
        if (live) setRecord(answer);
      })
      .catch(reportNetworkError);
    return () => {
      live = false;
    };
  }, [id]);
  const state = (value: number) => t(`alarm.state.${value}` as MessageKey);
  return (
    <Modal open={id !== null} title={t("alarm.detail")} footer={null} onCancel={onClose} width={720}>
      {record ? (
        <div data-testid="alarm-detail-dialog">
          <Descriptions size="small" column={2} bordered>
            <Descriptions.Item label={t("alarm.productCode")}>
              {String(record.productCode ?? "")}
            </Descriptions.Item>
            <Descriptions.Item label={t("alarm.ruleName")}>
              {String(record.checkRuleName ?? "")}
            </Descriptions.Item>
            <Descriptions.Item label={t("alarm.state")}>
              <StateCell row={record} />
            </Descriptions.Item>
            <Descriptions.Item label={t("alarm.createTime")}>
              {String(record.createTime ?? "")}
            </Descriptions.Item>
            <Descriptions.Item label={t("alarm.content")} span={2}>
              {String(record.content ?? "")}
            </Descriptions.Item>
          </Descriptions>
          <Table<RecordHistory>
            rowKey={(h) => `${h.createTime}-${h.toStatus}`}
            size="small"
            title={() => t("alarm.history")}
            pagination={false}
            dataSource={record.history ?? []}
            columns={[
              { key: "time", title: t("alarm.time"), dataIndex: "createTime" },
              { key: "from", title: t("alarm.from"), render: (_, h) => state(h.fromStatus) },
              { key: "to", title: t("alarm.to"), render: (_, h) => state(h.toStatus) },
              { key: "cause", title: t("alarm.cause"), dataIndex: "cause" },
            ]}
          />
        </div>
      ) : null}
    </Modal>
  );
}
