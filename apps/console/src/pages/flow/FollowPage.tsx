import type { Row } from "@meterline/api-client";
import { Button, Card, Form, Input, Modal, Table, type TableColumnsType } from "antd";
import { useState } from "react";
import { reportNetworkError } from "../../app/api.ts";
import { useFeedback } from "../../app/feedback.ts";
import { useT } from "../../i18n/index.tsx";
import { useConsole } from "../../store/useConsole.ts";
import { deleteInstance, loadRunning } from "./flow-calls.ts";
import { flowColumns } from "./flow-columns.tsx";
import { ListEmpty } from "./ListEmpty.tsx";
import { usePagedRows } from "./usePagedRows.ts";

const TEXT_COLUMNS = [
  "processInstanceId",
  "name",
  "categoryName",
  "startUser",
  "startTime",
  "taskName",
] as const;

/** 流程跟踪: the running instances, each deletable with a reason. */
export default function FollowPage() {
  const t = useT();
  const { message } = useFeedback();
  const mayDelete = useConsole((state) => state.permission.flow_follow_delete === true);
  const { rows, loading, failed, reload, pagination } = usePagedRows(loadRunning);
  const [deleting, setDeleting] = useState<Row | null>(null);
  const [saving, setSaving] = useState(false);
  const [form] = Form.useForm<{ reason: string }>();

  const confirmDelete = async () => {
    if (!deleting) return;
    const { reason } = await form.validateFields();
    setSaving(true);
    try {
      await deleteInstance(String(deleting.processInstanceId), reason.trim());
      message.success(t("flow.instanceDeleted"));
      setDeleting(null);
      await reload();
    } catch (error) {
      reportNetworkError(error);
    } finally {
      setSaving(false);
    }
  };

  const columns: TableColumnsType<Row> = [
    ...flowColumns(t, TEXT_COLUMNS, "running"),
    {
      key: "actions",
      title: t("work.col.actions"),
      render: (_: unknown, row: Row) =>
        mayDelete && (
          <Button
            type="link"
            size="small"
            danger
            data-testid="follow-delete"
            onClick={() => {
              form.resetFields();
              setDeleting(row);
            }}
          >
            {t("flow.remove")}
          </Button>
        ),
    },
  ];

  return (
    <Card title={t("menu.flow_follow")} data-testid="flow-follow">
      <Table<Row>
        rowKey={(row) => String(row.processInstanceId)}
        columns={columns}
        dataSource={rows}
        loading={loading}
        size="middle"
        pagination={pagination}
        locale={{
          emptyText: (
            <ListEmpty failed={failed} description={t("flow.emptyFollow")} retry={() => void reload()} />
          ),
        }}
      />
      <Modal
        open={deleting !== null}
        title={t("flow.deleteInstanceTitle", { id: String(deleting?.processInstanceId ?? "") })}
        onCancel={() => setDeleting(null)}
        onOk={() => void confirmDelete().catch(() => undefined)}
        confirmLoading={saving}
        okButtonProps={{ danger: true }}
        destroyOnHidden
      >
        <Form form={form} layout="vertical">
          <Form.Item
            name="reason"
            label={t("flow.deleteReason")}
            rules={[{ required: true, whitespace: true, message: t("flow.deleteReasonRequired") }]}
          >
            <Input.TextArea rows={3} maxLength={500} data-testid="follow-reason" />
          </Form.Item>
        </Form>
      </Modal>
    </Card>
  );
}
