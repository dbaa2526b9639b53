import type { Row } from "@meterline/api-client";
import { resources } from "@meterline/contracts";
import { Button, Descriptions, type TableColumnsType, Typography } from "antd";
import { useCallback, useState } from "react";
import { useFeedback } from "../../app/feedback.ts";
import { ResourcePage } from "../../crud/ResourcePage.tsx";
import { useT } from "../../i18n/index.tsx";
import { useConsole } from "../../store/useConsole.ts";
import { TenantSettingDialog } from "./TenantSettingDialog.tsx";

/**
 * The tenant screen: the generic table, 授权配置 (account limit and expiry) for the ticked tenants
 * (`tenant_setting`), and the one moment the new tenant's administrator password is ever shown (the
 * server keeps only its hash), so it is shown in a dialog to copy.
 */
export default function TenantPage() {
  const t = useT();
  const { message, modal } = useFeedback();
  const canSet = useConsole((state) => state.permission.tenant_setting === true);
  const [setting, setSetting] = useState<{ ids: readonly string[]; reload: () => Promise<void> } | null>(
    null,
  );
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
  // The code operators sign in with and quote on the phone comes first, whole (never cut off).
  const tenantIdTitle = t("tenant.tenantId");
  const withTenantId = useCallback(
    (generated: TableColumnsType<Row>): TableColumnsType<Row> => [
      {
        key: "tenantId",
        dataIndex: "tenantId",
        title: tenantIdTitle,
        onCell: () => ({ style: { whiteSpace: "nowrap" } }),
        render: (value: unknown) => <span data-testid="tenant-id">{String(value ?? "")}</span>,
      },
      ...generated,
    ],
    [tenantIdTitle],
  );
  return (
    <>
      <ResourcePage
        def={resources.tenant}
        columns={withTenantId}
        onCreated={showAdmin}
        toolbar={(reload, selected) =>
          canSet && (
            <Button
              onClick={() =>
                selected.length === 0
                  ? message.warning(t("crud.selectOne"))
                  : setSetting({ ids: selected, reload })
              }
              data-testid="tenant-setting"
            >
              {t("tenant.setting")}
            </Button>
          )
        }
      />
      {setting && (
        <TenantSettingDialog
          tenantIds={setting.ids}
          onClose={() => setSetting(null)}
          onSaved={() => {
            setSetting(null);
            void setting.reload();
          }}
        />
      )}
    </>
  );
}
