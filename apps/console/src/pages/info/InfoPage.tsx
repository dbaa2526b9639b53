import { Alert, Card, Descriptions, Space } from "antd";
import { UserAvatar } from "../../components/UserAvatar.tsx";
import { useT } from "../../i18n/index.tsx";
import { useConsole } from "../../store/useConsole.ts";

/** /info/index: the signed-in user's profile, read-only until the profile module arrives. */
export default function InfoPage() {
  const t = useT();
  const userInfo = useConsole((state) => state.userInfo);
  const profile = useConsole((state) => state.profile);
  return (
    <Card title={t("info.title")} data-testid="info-page">
      <Space orientation="vertical" size="large" style={{ width: "100%" }}>
        <UserAvatar size={72} />
        <Descriptions
          bordered
          column={{ xs: 1, md: 2 }}
          items={[
            { key: "account", label: t("info.account"), children: userInfo?.account },
            { key: "name", label: t("info.name"), children: profile?.nickName || userInfo?.nick_name },
            {
              key: "realName",
              label: t("info.realName"),
              children: profile?.realName || userInfo?.real_name,
            },
            { key: "phone", label: t("info.phone"), children: profile?.phone },
            { key: "email", label: t("info.email"), children: profile?.email },
            { key: "tenant", label: t("info.tenant"), children: profile?.tenantName || userInfo?.tenant_id },
            { key: "roles", label: t("info.roles"), children: profile?.roleName || userInfo?.role_name },
          ]}
        />
        <Alert type="info" showIcon title={t("info.editLater")} />
      </Space>
    </Card>
  );
}
