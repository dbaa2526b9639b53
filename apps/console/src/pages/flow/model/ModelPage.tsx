import { ROLE_ADMINISTRATOR, website } from "@meterline/contracts";
import type { TableColumnsType } from "antd";
import { Button, Card, Empty, Input, Pagination, Space, Table } from "antd";
import { useCallback, useEffect, useState } from "react";
import { useNavigate } from "react-router";
import { reportNetworkError } from "../../../app/api.ts";
import { useFeedback } from "../../../app/feedback.ts";
import { LoadFailed } from "../../../components/LoadFailed.tsx";
import { usePaged } from "../../../components/usePaged.ts";
import { dictionaryOptions, loadDictionary, type Option } from "../../../crud/dictionary.ts";
import { useI18n } from "../../../i18n/index.tsx";
import { useConsole } from "../../../store/useConsole.ts";
import { designerPath, loadModel, loadModels, type ModelItem, removeModels } from "../flow-calls.ts";
import { DeployDialog } from "./DeployDialog.tsx";
import { ModelDiagramDialog } from "./ModelDiagramDialog.tsx";
import { saveXmlFile } from "./save-xml.ts";

/**
 * 模型管理 (流程管理): the process models, searched by name or key and paged on the server; each
 * opens in the designer, deploys, shows its diagram, downloads as .bpmn20.xml or is removed, as
 * the user's buttons allow. Identifiers (key, tenant) are shown whole.
 */
export default function ModelPage() {
  const { t, language } = useI18n();
  const { message, modal } = useFeedback();
  const navigate = useNavigate();
  const permission = useConsole((state) => state.permission);
  const platform = useConsole((state) => state.roles.includes(ROLE_ADMINISTRATOR));
  const [search, setSearch] = useState("");
  const loader = useCallback(
    (current: number, size: number) => loadModels({ current, size, ...(search ? { name: search } : {}) }),
    [search],
  );
  const state = usePaged(loader);
  const load = () => state.load();
  const [categories, setCategories] = useState<Option[]>([]);
  const [deploying, setDeploying] = useState<ModelItem | null>(null);
  const [showing, setShowing] = useState<ModelItem | null>(null);

  useEffect(() => {
    loadDictionary("flow", false)
      .then((items) =>
        setCategories(
          dictionaryOptions(items, language).map((o) => ({ value: `flow_${o.value}`, label: o.label })),
        ),
      )
      .catch(reportNetworkError);
  }, [language]);

  const remove = (row: ModelItem) =>
    modal.confirm({
      title: t("flow.model.removeConfirm", { name: row.name }),
      okButtonProps: { danger: true, "data-testid": "flow-model-remove-ok" },
      onOk: async () => {
        try {
          await removeModels(row.id);
        } catch (failure) {
          reportNetworkError(failure);
          return;
        }
        message.success(t("flow.model.removed"));
        void load();
      },
    });

  const download = async (row: ModelItem) => {
    try {
      saveXmlFile(row.modelKey, (await loadModel(row.id)).bpmnXml);
    } catch (failure) {
      reportNetworkError(failure);
    }
  };

  const text = (key: keyof ModelItem, title: string) => ({
    key,
    dataIndex: key,
    title,
    className: "ml-nowrap",
  });
  const columns: TableColumnsType<ModelItem> = [
    text("name", t("flow.model.name")),
    text("modelKey", t("flow.model.key")),
    {
      ...text("category", t("flow.model.category")),
      render: (value: string) => categories.find((c) => c.value === value)?.label ?? value,
    },
    { ...text("version", t("flow.model.version")), width: 80 },
    ...(platform ? [text("tenantId", t("flow.model.tenant"))] : []),
    text("lastUpdated", t("flow.model.updated")),
    text("lastUpdatedBy", t("flow.model.updatedBy")),
    {
      key: "actions",
      title: t("crud.actions"),
      fixed: "right" as const,
      className: "ml-nowrap",
      render: (_: unknown, row: ModelItem) => (
        <Space size={0} wrap={false}>
          {permission.flow_model_update ? (
            <Button
              type="link"
              onClick={() => navigate(designerPath(row.id))}
              data-testid="flow-model-design"
            >
              {t("flow.model.design")}
            </Button>
          ) : null}
          {permission.flow_model_deploy ? (
            <Button type="link" onClick={() => setDeploying(row)} data-testid="flow-model-deploy">
              {t("flow.model.deploy")}
            </Button>
          ) : null}
          <Button type="link" onClick={() => setShowing(row)} data-testid="flow-model-diagram">
            {t("flow.model.diagram")}
          </Button>
          {permission.flow_model_download ? (
            <Button type="link" onClick={() => void download(row)} data-testid="flow-model-download">
              {t("flow.model.download")}
            </Button>
          ) : null}
          {permission.flow_model_delete ? (
            <Button type="link" danger onClick={() => remove(row)} data-testid="flow-model-remove">
              {t("flow.model.remove")}
            </Button>
          ) : null}
        </Space>
      ),
    },
  ];

  return (
    <Card data-testid="flow-models">
      <Space orientation="vertical" size="middle" style={{ width: "100%" }}>
        <Space wrap>
          <Input.Search
            allowClear
            placeholder={t("flow.model.search")}
            aria-label={t("flow.model.search")}
            onSearch={(value) => {
              setSearch(value.trim());
            }}
            style={{ width: 280 }}
            data-testid="flow-model-search"
          />
          {permission.flow_model_create ? (
            <Button type="primary" onClick={() => navigate(designerPath())} data-testid="flow-model-create">
              {t("flow.model.create")}
            </Button>
          ) : null}
        </Space>
        {state.error ? (
          <LoadFailed error={state.error} onRetry={() => void load()} testId="flow-model-error" />
        ) : (
          <>
            <Table<ModelItem>
              rowKey="id"
              size="middle"
              loading={state.loading}
              dataSource={state.rows}
              columns={columns}
              scroll={{ x: "max-content" }}
              locale={{ emptyText: <Empty description={t("flow.model.empty")} /> }}
              pagination={false}
            />
            <Pagination
              align="end"
              current={state.current}
              pageSize={state.size}
              total={state.total}
              pageSizeOptions={website.pageSizes.map(String)}
              showSizeChanger
              showTotal={(count) => t("crud.total", { total: count })}
              onChange={(current, size) => void state.load(size === state.size ? current : 1, size)}
            />
          </>
        )}
      </Space>
      <DeployDialog model={deploying} onClose={() => setDeploying(null)} />
      <ModelDiagramDialog model={showing} onClose={() => setShowing(null)} />
    </Card>
  );
}
