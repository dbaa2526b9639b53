import type { LocalLogEntry } from "@meterline/contracts";
import { Button, Empty, Modal, Space, Table, Tag } from "antd";
import { api, reportNetworkError } from "../../app/api.ts";
import { useFeedback } from "../../app/feedback.ts";
import { useT } from "../../i18n/index.tsx";
import { clearLogs } from "../../store/logs.ts";
import { useConsole } from "../../store/useConsole.ts";

/** Full-screen local error log (spec §2): type, url, message, time; the stack expands per row. */
export default function LogDialog({ onClose }: { onClose: () => void }) {
  const logs = useConsole((state) => state.logs);
  const t = useT();
  const { modal, message } = useFeedback();

  const confirm = (content: string, action: () => Promise<void> | void) =>
    modal.confirm({
      title: t("common.tip"),
      content,
      okText: t("common.ok"),
      cancelText: t("common.cancel"),
      onOk: action,
    });

  const upload = () =>
    confirm(t("logs.uploadConfirm"), async () => {
      try {
        await api.uploadLogs(logs);
        message.success(t("logs.uploaded"));
        clearLogs();
      } catch (error) {
        reportNetworkError(error);
      }
    });

  const clear = () =>
    confirm(t("logs.clearConfirm"), () => {
      clearLogs();
      message.success(t("logs.cleared"));
    });

  return (
    <Modal
      open
      title={t("logs.title")}
      onCancel={onClose}
      footer={null}
      width="100%"
      className="ml-fullscreen-modal"
      styles={{ container: { minHeight: "100vh", borderRadius: 0 } }}
    >
      <div data-testid="log-dialog">
        <Space style={{ marginBottom: 12 }}>
          <Button type="primary" disabled={!logs.length} onClick={upload} data-testid="log-upload">
            {t("logs.upload")}
          </Button>
          <Button danger disabled={!logs.length} onClick={clear} data-testid="log-clear">
            {t("logs.clear")}
          </Button>
        </Space>
        <Table<LocalLogEntry>
          size="small"
          rowKey={(row) => `${row.time}|${row.message}|${row.url}`}
          dataSource={logs}
          pagination={{ pageSize: 20, hideOnSinglePage: true }}
          locale={{ emptyText: <Empty description={t("logs.empty")} /> }}
          columns={[
            {
              title: t("logs.type"),
              dataIndex: "type",
              width: 90,
              render: (type: string) => <Tag color="red">{type}</Tag>,
            },
            { title: t("logs.url"), dataIndex: "url", ellipsis: true },
            { title: t("logs.message"), dataIndex: "message", ellipsis: true },
            { title: t("logs.time"), dataIndex: "time", width: 180 },
          ]}
          expandable={{
            expandedRowRender: (row) => (
              <div className="ml-log-detail">
                <strong>{t("logs.stack")}</strong>
                <pre>{row.stack || t("common.none")}</pre>
                {row.info ? (
                  <>
                    <strong>{t("logs.info")}</strong>
                    <pre>{row.info}</pre>
                  </>
                ) : null}
              </div>
            ),
          }}
        />
      </div>
    </Modal>
  );
}
