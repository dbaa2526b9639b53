import { InboxOutlined } from "@ant-design/icons";
import { isApiError } from "@meterline/api-client";
import { ROLE_ADMINISTRATOR } from "@meterline/contracts";
import { Button, Card, Form, Select, Upload, type UploadFile } from "antd";
import { useEffect, useState } from "react";
import { describeError, reportNetworkError } from "../../app/api.ts";
import { useFeedback } from "../../app/feedback.ts";
import { dictionaryOptions, loadDictionary, type Option } from "../../crud/dictionary.ts";
import { useI18n } from "../../i18n/index.tsx";
import { useConsole } from "../../store/useConsole.ts";
import { deployFiles, loadTenants } from "./flow-calls.ts";

interface DeployForm {
  category: string;
  tenantIds?: string[];
  files: UploadFile[];
}

const FIELDS = ["category", "tenantIds", "files"] as const;

/** The field a server message names (`files: …`), else the files: a parser's reason is about them. */
function fieldOf(message: string): (typeof FIELDS)[number] {
  const named = message.split(":", 1)[0]?.trim();
  return FIELDS.find((field) => field === named) ?? "files";
}

/** Options of the `flow` dictionary as process categories (`flow_<key>`, contract §13.1). */
function useCategories(): Option[] {
  const { language } = useI18n();
  const [options, setOptions] = useState<Option[]>([]);
  useEffect(() => {
    let live = true;
    loadDictionary("flow", false)
      .then(
        (items) =>
          live &&
          setOptions(
            dictionaryOptions(items, language).map((o) => ({ value: `flow_${o.value}`, label: o.label })),
          ),
      )
      .catch(reportNetworkError);
    return () => {
      live = false;
    };
  }, [language]);
  return options;
}

/**
 * 流程部署: a category, the tenants (platform administrator only; a tenant deploys for itself) and
 * .bpmn / .bpmn20.xml files. A refused file shows the parser's reason under the files.
 */
export default function DeployPage() {
  const { t } = useI18n();
  const { message } = useFeedback();
  const platform = useConsole((state) => state.roles.includes(ROLE_ADMINISTRATOR));
  const categories = useCategories();
  const [tenants, setTenants] = useState<Option[]>([]);
  const [form] = Form.useForm<DeployForm>();
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (!platform) return;
    loadTenants()
      .then((rows) =>
        setTenants(
          rows.map((r) => ({
            value: String(r.tenantId),
            label: `${String(r.tenantName ?? "")} (${String(r.tenantId)})`,
          })),
        ),
      )
      .catch(reportNetworkError);
  }, [platform]);

  const submit = async (values: DeployForm) => {
    setSaving(true);
    try {
      const files = values.files
        .map((f) => f.originFileObj)
        .filter((f): f is NonNullable<typeof f> => Boolean(f));
      await deployFiles(values.category, values.tenantIds ?? [], files);
      message.success(t("flow.deployed"));
      form.resetFields();
    } catch (error) {
      if (isApiError(error) && error.kind !== "network" && error.kind !== "timeout") {
        form.setFields([{ name: fieldOf(error.message), errors: [error.message] }]);
      } else {
        message.error(describeError(error));
      }
    } finally {
      setSaving(false);
    }
  };

  return (
    <Card title={t("menu.flow_deploy")} data-testid="flow-deploy">
      <Form<DeployForm>
        form={form}
        labelCol={{ span: 4 }}
        wrapperCol={{ span: 14 }}
        onFinish={(values) => void submit(values)}
      >
        <Form.Item
          name="category"
          label={t("flow.category")}
          rules={[{ required: true, message: t("flow.categoryRequired") }]}
        >
          <Select options={categories} data-testid="deploy-category" />
        </Form.Item>
        {platform && (
          <Form.Item name="tenantIds" label={t("flow.tenants")} extra={t("flow.tenantsHint")}>
            <Select
              mode="multiple"
              options={tenants}
              showSearch={{ optionFilterProp: "label" }}
              data-testid="deploy-tenants"
            />
          </Form.Item>
        )}
        <Form.Item
          name="files"
          label={t("flow.files")}
          valuePropName="fileList"
          getValueFromEvent={(event: { fileList: UploadFile[] }) => event.fileList}
          rules={[{ required: true, type: "array", min: 1, message: t("flow.filesRequired") }]}
        >
          <Upload.Dragger multiple accept=".bpmn,.xml" beforeUpload={() => false} data-testid="deploy-files">
            <p className="ant-upload-drag-icon">
              <InboxOutlined />
            </p>
            <p>{t("flow.filesHint")}</p>
          </Upload.Dragger>
        </Form.Item>
        <Form.Item wrapperCol={{ offset: 4 }}>
          <Button type="primary" htmlType="submit" loading={saving} data-testid="deploy-submit">
            {t("flow.deploy")}
          </Button>
        </Form.Item>
      </Form>
    </Card>
  );
}
