import { isApiError, serverMessageOf } from "@meterline/api-client";
import type { TokenResponse } from "@meterline/contracts";
import { Form, Input, Modal, Typography } from "antd";
import { useState } from "react";
import { api } from "../app/api.ts";
import { useFeedback } from "../app/feedback.ts";
import { logout } from "../app/session.ts";
import { useDomainTenant } from "../app/useDomainTenant.ts";
import { useT } from "../i18n/index.tsx";
import { useConsole } from "../store/useConsole.ts";
import { type RegistrationForm, registrationProblem } from "./registration.ts";

/**
 * Guest registration after a third-party login of an unbound user (spec §2, §4, §5). The tenant
 * field is shown only when the address does not determine the tenant. `guest` is the guest token
 * the login page got from the social grant (never stored as a session); without it, the stored
 * session's user is the guest.
 */
export function RegistrationDialog({ guest, onClose }: { guest?: TokenResponse; onClose?: () => void } = {}) {
  const t = useT();
  const { message } = useFeedback();
  const stored = useConsole((state) => state.userInfo);
  const userInfo = guest ?? stored;
  const domain = useDomainTenant();
  const [open, setOpen] = useState(true);
  const [busy, setBusy] = useState(false);
  const [form] = Form.useForm<RegistrationForm>();
  const derivedTenant = domain?.tenantId ?? "";
  const close = () => {
    setOpen(false);
    onClose?.();
  };

  const submit = async () => {
    // Untouched fields are undefined; the checks expect strings.
    const raw: Partial<RegistrationForm> = form.getFieldsValue();
    const filled: RegistrationForm = {
      tenantId: derivedTenant || (raw.tenantId ?? ""),
      name: raw.name ?? "",
      account: raw.account ?? "",
      password: raw.password ?? "",
      password2: raw.password2 ?? "",
    };
    const problem = registrationProblem(filled);
    if (problem) {
      message.warning(t(problem));
      return;
    }
    setBusy(true);
    try {
      const { password2: _confirmation, ...fields } = filled;
      await api.registerGuest(
        { ...fields, oauthId: userInfo?.oauth_id ?? "" },
        { silent: true, ...(guest ? { guestToken: guest.access_token } : {}) },
      );
      message.success(t("register.submitted"));
      // The guest is done: back to the login page (a stored guest session is logged out).
      if (guest) close();
      else await logout();
    } catch (error) {
      const text = isApiError(error) ? serverMessageOf(error.body) : "";
      message.error(text || t("register.failed"));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open={open}
      title={t("register.title")}
      okText={t("register.submit")}
      cancelText={t("common.cancel")}
      confirmLoading={busy}
      onOk={submit}
      onCancel={close}
      mask={{ closable: false }}
    >
      <div data-testid="register-dialog">
        <Typography.Paragraph type="secondary">{t("register.intro")}</Typography.Paragraph>
        <Form
          form={form}
          layout="vertical"
          initialValues={{
            name: userInfo?.nick_name ?? "",
            account: userInfo?.account ?? "",
            // A social grant's guest token names its tenant; a stored guest types it.
            ...(guest ? { tenantId: guest.tenant_id } : {}),
          }}
        >
          {derivedTenant ? null : (
            <Form.Item name="tenantId" label={t("register.tenantId")}>
              <Input data-testid="register-tenant" />
            </Form.Item>
          )}
          <Form.Item name="name" label={t("register.name")}>
            <Input data-testid="register-name" />
          </Form.Item>
          <Form.Item name="account" label={t("register.account")}>
            <Input data-testid="register-account" />
          </Form.Item>
          <Form.Item name="password" label={t("register.password")}>
            <Input.Password data-testid="register-password" />
          </Form.Item>
          <Form.Item name="password2" label={t("register.password2")}>
            <Input.Password data-testid="register-password2" />
          </Form.Item>
        </Form>
      </div>
    </Modal>
  );
}
