import type { Row } from "@meterline/api-client";
import { LOCAL_STORAGE_CATEGORY, resources } from "@meterline/contracts";
import { Button, Tag } from "antd";
import { reportNetworkError } from "../../app/api.ts";
import { useFeedback } from "../../app/feedback.ts";
import type { FormCustomization } from "../../crud/form-customization.ts";
import { ResourcePage } from "../../crud/ResourcePage.tsx";
import { useT } from "../../i18n/index.tsx";
import { useConsole } from "../../store/useConsole.ts";
import { enableOss } from "./storage-calls.ts";

/** Status of a configuration (contract §12.2): 2 is the tenant's enabled one, 1 is off. */
const ENABLED = 2;
/** What only an S3-compatible service needs; local disk has none of it. */
const S3_FIELDS = new Set([
  "endpoint",
  "bucketName",
  "region",
  "accessKey",
  "secretKey",
  "pathStyle",
  "appId",
]);

const form: FormCustomization = {
  visible: (name, values) => !(S3_FIELDS.has(name) && Number(values.category) === LOCAL_STORAGE_CATEGORY),
  dependencies: Object.fromEntries([...S3_FIELDS].map((name) => [name, ["category"]])),
  rules: (name, t, label) =>
    ["endpoint", "bucketName", "accessKey"].includes(name)
      ? [
          ({ getFieldValue }) => ({
            required: Number(getFieldValue("category")) !== LOCAL_STORAGE_CATEGORY,
            whitespace: true,
            message: t("crud.required", { label }),
          }),
        ]
      : [],
  extra: (name, t) => (name === "category" ? t("oss.localHint") : null),
};

/**
 * 对象存储: the generic table and form of the storage settings, with the fields of the chosen kind,
 * and enabling one (`oss_enable`); the server tests the connection before it switches.
 */
export default function OssPage() {
  const t = useT();
  const { message } = useFeedback();
  const canEnable = useConsole((state) => state.permission.oss_enable === true);

  const enable = async (row: Row, reload: () => Promise<void>) => {
    try {
      await enableOss(String(row.id));
      message.success(t("oss.enabled"));
      await reload();
    } catch (error) {
      reportNetworkError(error);
    }
  };

  return (
    <ResourcePage
      def={resources.oss}
      form={form}
      // Which configuration takes new uploads is seen at a glance, not behind a row menu.
      columns={(generated) => [
        ...generated,
        {
          key: "enabled",
          title: t("oss.status"),
          width: 100,
          render: (_value: unknown, row: Row) =>
            Number(row.status) === ENABLED ? (
              <Tag color="green" data-testid="row-oss-enabled">
                {t("oss.isEnabled")}
              </Tag>
            ) : (
              t("oss.notEnabled")
            ),
        },
      ]}
      rowActions={(row, reload) =>
        Number(row.status) !== ENABLED &&
        canEnable && (
          <Button
            type="link"
            size="small"
            onClick={() => void enable(row, reload)}
            data-testid="row-oss-enable"
          >
            {t("oss.enable")}
          </Button>
        )
      }
    />
  );
}
