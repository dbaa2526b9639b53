import type { Row } from "@meterline/api-client";
import { Button, Card, Checkbox, Space, Table, type TableColumnsType } from "antd";
import { useCallback, useRef, useState } from "react";
import { reportNetworkError } from "../../app/api.ts";
import { useFeedback } from "../../app/feedback.ts";
import { useT } from "../../i18n/index.tsx";
import { useConsole } from "../../store/useConsole.ts";
import { changeState, deleteDeployment, loadDefinitions, loadDefinitionXml } from "./flow-calls.ts";
import { flowColumns } from "./flow-columns.tsx";
import { ListEmpty } from "./ListEmpty.tsx";
import { ModelDiagramDialog } from "./model/ModelDiagramDialog.tsx";
import { usePagedRows } from "./usePagedRows.ts";

const TEXT_COLUMNS = ["tenantId", "name", "key", "categoryName", "version", "deploymentTime"] as const;

/** 流程管理: every deployed definition, suspend / activate, delete (cascading only when confirmed). */
export default function ManagerPage() {
  const t = useT();
  const { message, modal } = useFeedback();
  const permission = useConsole((state) => state.permission);
  const { rows, loading, failed, reload, pagination } = usePagedRows(loadDefinitions);
  const cascade = useRef(false);
  const [diagramOf, setDiagramOf] = useState<{ id: string; name: string } | null>(null);

  const toggle = useCallback(
    async (row: Row) => {
      try {
        await changeState(String(row.id), Number(row.suspensionState) === 2 ? "active" : "suspend");
        message.success(Number(row.suspensionState) === 2 ? t("flow.activated") : t("flow.suspendedDone"));
        await reload();
      } catch (error) {
        reportNetworkError(error);
      }
    },
    [message, t, reload],
  );

  const remove = (row: Row) => {
    cascade.current = false;
    modal.confirm({
      title: t("flow.removeTitle", { name: String(row.name) }),
      content: (
        <Checkbox data-testid="remove-cascade" onChange={(event) => (cascade.current = event.target.checked)}>
          {t("flow.cascade")}
        </Checkbox>
      ),
      okButtonProps: { danger: true, "data-testid": "remove-ok" },
      onOk: async () => {
        try {
          await deleteDeployment(String(row.deploymentId), cascade.current);
          message.success(t("flow.removed"));
          await reload();
        } catch (error) {
          reportNetworkError(error);
        }
      },
    });
  };

  const columns: TableColumnsType<Row> = [
    ...flowColumns(t, TEXT_COLUMNS, "active"),
    {
      key: "actions",
      title: t("work.col.actions"),
      render: (_: unknown, row: Row) => (
        <Space size={0}>
          {permission.flow_manager_image && (
            <Button
              type="link"
              size="small"
              data-testid="manager-image"
              onClick={() => setDiagramOf({ id: String(row.id), name: String(row.name) })}
            >
              {t("flow.model.diagram")}
            </Button>
          )}
          {permission.flow_manager_state && (
            <Button type="link" size="small" data-testid="manager-state" onClick={() => void toggle(row)}>
              {Number(row.suspensionState) === 2 ? t("flow.activate") : t("flow.suspend")}
            </Button>
          )}
          {permission.flow_manager_remove && (
            <Button type="link" size="small" danger data-testid="manager-remove" onClick={() => remove(row)}>
              {t("flow.remove")}
            </Button>
          )}
        </Space>
      ),
    },
  ];

  return (
    <Card title={t("menu.flow_manager")} data-testid="flow-manager">
      <Table<Row>
        rowKey={(row) => String(row.id)}
        columns={columns}
        dataSource={rows}
        loading={loading}
        size="middle"
        pagination={pagination}
        locale={{
          emptyText: (
            <ListEmpty failed={failed} description={t("flow.emptyManager")} retry={() => void reload()} />
          ),
        }}
      />
      <ModelDiagramDialog model={diagramOf} onClose={() => setDiagramOf(null)} loadXml={loadDefinitionXml} />
    </Card>
  );
}
