import { Card, Tabs } from "antd";
import { useT } from "../../i18n/index.tsx";
import { PasswordForm } from "./PasswordForm.tsx";
import { ProfileForm } from "./ProfileForm.tsx";

/** /info/index: one's own profile (avatar, names, phone, e-mail) and password. */
export default function InfoPage() {
  const t = useT();
  return (
    <Card title={t("info.title")} data-testid="info-page">
      <Tabs
        items={[
          { key: "profile", label: t("info.profileTab"), children: <ProfileForm /> },
          { key: "password", label: t("info.passwordTab"), children: <PasswordForm /> },
        ]}
      />
    </Card>
  );
}
