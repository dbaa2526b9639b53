import type { Row } from "@meterline/api-client";
import { ROLE_ADMINISTRATOR } from "@meterline/contracts";
import { Form, Modal, Select, Typography } from "antd";
import { useEffect, useState } from "react";
import { reportNetworkError } from "../../../app/api.ts";
import { useFeedback } from "../../../app/feedback.ts";
import { dictionaryOptions, loadDictionary, type Option } from "../../../crud/dictionary.ts";
import { useI18n } from "../../../i18n/index.tsx";
import { useConsole } from "../../../store/useConsole.ts";
import { deployModel, loadTenants } from "../flow-calls.ts";

interface DeployForm {
  category: string;
  tenantIds: string[];
}

/**
 * Deploys a saved model: the category (dictionary `flow`, sent as `flow_<key>`) and, for the
 * platform administrator, the tenants (none: a common process). A tenant's administrator deploys
 * for the own tenant, which the server decides; the dialog just says so.
 */
export function DeployDialog({
  model,
  onClose,
  onDeployed,
}: {
  model: { id: string; name: string; category: string } | null;
  onClose: () => void;
  onDeployed?: (definitionIds: string[]) => void;
}) {
  const { t, language } = useI18n();
  const { message } = useFeedback();
  const platform = useConsole((state) => state.roles.includes(ROLE_ADMINISTRATOR));
  const [form] = Form.useForm<DeployForm>();
  const [categories, setCategories] = useState<Option[]>([]);
  const [tenants, setTenants] = useState<Option[]>([]);
  const [busy, setBusy] = useState(false);
  const open = model !== null;

  useEffect(() => {
    if (!open) return;
    let live = true;
    loadDictionary("flow", false)
      .then((items) => {
        if (live)
          setCategories(
            dictionaryOptions(items, language).map((o) => ({ value: `flow_${o.value}`, label: o.label })),
          );
      })
      .catch(reportNetworkError);
    if (platform)
      loadTenants()
        .then((rows: Row[]) => {
          if (live)
            setTenants(
              rows.map((r) => ({ value: String(r.tenantId), label: `${r.tenantName} (${r.tenantId})` })),
            );
        })
        .catch(reportNetworkError);
    return () => {
      live = false;
    };
  }, [open, platform, language]);

  const submit = async () => {
    if (!model) return;
    const values = await form.validateFields();
    setBusy(true);
    try {
      const ids = await deployModel(model.id, values.category, values.tenantIds ?? []);
      message.success(t("flow.deploy.done", { ids: ids.join(", ") }));
      onDeployed?.(ids);
      onClose();
    } catch (failure) {
      // Server refusals were toasted by the API bridge.
      reportNetworkError(failure);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open={open}
      title={t("flow.deploy.title", { name: model?.name ?? "" })}
      onCancel={onClose}
      onOk={() => void submit()}
      confirmLoading={busy}
      okText={t("flow.model.deploy")}
      okButtonProps={{ "data-testid": "flow-deploy-ok" }}
      destroyOnHidden
    >
      <Form
        form={form}
        layout="vertical"
        data-testid="flow-deploy-form"
        // The dialog is rebuilt at each opening, so these are the model's values every time.
        initialValues={{ category: model?.category || undefined, tenantIds: [] }}
      >
        <Form.Item
          name="category"
          label={t("flow.deploy.category")}
          rules={[{ required: true, message: t("flow.deploy.categoryRequired") }]}
        >
          <Select options={categories} data-testid="flow-deploy-category" />
        </Form.Item>
        {platform ? (
          <Form.Item name="tenantIds" label={t("flow.deploy.tenants")} extra={t("flow.deploy.tenantsHint")}>
            <Select
              mode="multiple"
              options={tenants}
              optionFilterProp="label"
              data-testid="flow-deploy-tenants"
            />
          </Form.Item>
        ) : (
          <Typography.Text type="secondary">{t("flow.deploy.ownTenant")}</Typography.Text>
        )}
      </Form>
    </Modal>
  );
}
