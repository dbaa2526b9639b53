import { resources } from "@meterline/contracts";
import { Descriptions, Typography } from "antd";
import { useFeedback } from "../../app/feedback.ts";
import { ResourcePage } from "../../crud/ResourcePage.tsx";
import { useT } from "../../i18n/index.tsx";

/**
 * The tenant screen: the generic table, plus the one moment the new tenant's administrator
 * password is ever shown (the server keeps only its hash), so it is shown in a dialog to copy.
 */
export default function TenantPage() {
  const t = useT();
  const { modal } = useFeedback();
  const showAdmin = (answer: Record<string, unknown>) => {
    modal.info({
      title: t("tenant.createdTitle"),
      width: 520,
      content: (
        <div data-testid="tenant-created">
          <Typography.Paragraph>{t("tenant.createdHint")}</Typography.Paragraph>
          <Descriptions
            bordered
            size="small"
            column={1}
            items={[
              { key: "tenantId", label: t("tenant.tenantId"), children: String(answer.tenantId ?? "") },
              { key: "account", label: t("tenant.account"), children: String(answer.account ?? "") },
              {
                key: "password",
                label: t("tenant.password"),
                children: <Typography.Text copyable>{String(answer.password ?? "")}</Typography.Text>,
              },
            ]}
          />
        </div>
      ),
    });
  };
  return <ResourcePage def={resources.tenant} onCreated={showAdmin} />;
}
