import { LockOutlined, UnlockOutlined } from "@ant-design/icons";
import { website } from "@meterline/contracts";
import { Button, Form, Input, Typography } from "antd";
import { useState } from "react";
import { Navigate, useNavigate } from "react-router";
import { unlock } from "../../app/lock.ts";
import { logout } from "../../app/session.ts";
import { useDocumentTitle } from "../../app/useDocumentTitle.ts";
import { LightSurface } from "../../components/LightSurface.tsx";
import { UserAvatar, useUserName } from "../../components/UserAvatar.tsx";
import { useT } from "../../i18n/index.tsx";
import { useConsole } from "../../store/useConsole.ts";

/** Where to return after unlocking: the page the user locked from, else home. */
function returnPath(from: string): string {
  return from.startsWith("/") && !from.startsWith(website.lockPage) ? from : website.homePath;
}

/** /lock: the user's avatar and name, the unlock password, and a way out (log out). */
export default function LockPage() {
  const t = useT();
  useDocumentTitle(t("route.lock"));
  const isLock = useConsole((state) => state.isLock);
  const name = useUserName();
  const navigate = useNavigate();
  const lockReturn = useConsole((state) => state.lockReturn);
  const [error, setError] = useState("");

  if (!isLock) return <Navigate to={returnPath(lockReturn)} replace />;

  const onFinish = async ({ password }: { password: string }) => {
    if (await unlock(password ?? "")) navigate(returnPath(lockReturn), { replace: true });
    else setError(t("lock.wrongPassword"));
  };

  return (
    <LightSurface>
      <div className="ml-lock" data-testid="lock-page">
        <div className="ml-lock-card">
          <UserAvatar size={80} />
          <Typography.Title level={4} style={{ margin: "8px 0 0" }}>
            {name}
          </Typography.Title>
          <Typography.Text type="secondary">
            <LockOutlined /> {t("lock.title")}
          </Typography.Text>
          <Form onFinish={onFinish} className="ml-lock-form">
            <Form.Item name="password" validateStatus={error ? "error" : undefined} help={error || undefined}>
              <Input.Password
                autoFocus
                placeholder={t("lock.placeholder")}
                aria-label={t("lock.password")}
                onChange={() => setError("")}
                data-testid="unlock-password"
              />
            </Form.Item>
            <Button
              type="primary"
              htmlType="submit"
              block
              icon={<UnlockOutlined />}
              data-testid="unlock-submit"
            >
              {t("lock.unlock")}
            </Button>
          </Form>
          <Button type="link" onClick={() => void logout()} data-testid="lock-logout">
            {t("lock.logout")}
          </Button>
        </div>
      </div>
    </LightSurface>
  );
}
