import { Card, Tabs } from "antd";
import { useT } from "../../i18n/index.tsx";
import { isLinkReturn, LinkedAccounts } from "./LinkedAccounts.tsx";
import { PasswordForm } from "./PasswordForm.tsx";
import { ProfileForm } from "./ProfileForm.tsx";

/** /info/index: one's own profile (avatar, names, phone, e-mail), password and linked sign-in accounts. */
export default function InfoPage() {
  const t = useT();
  return (
    <Card title={t("info.title")} data-testid="info-page">
      <Tabs
        defaultActiveKey={isLinkReturn() ? "linked" : "profile"}
        items={[
          { key: "profile", label: t("info.profileTab"), children: <ProfileForm /> },
          { key: "password", label: t("info.passwordTab"), children: <PasswordForm /> },
          { key: "linked", label: t("linked.tab"), children: <LinkedAccounts /> },
        ]}
      />
    </Card>
  );
}
