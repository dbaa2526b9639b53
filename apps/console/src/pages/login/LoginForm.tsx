import { LockOutlined, SafetyOutlined, TeamOutlined, UserOutlined } from "@ant-design/icons";
import { isApiError } from "@meterline/api-client";
import type { CaptchaResponse, LoginOptions } from "@meterline/contracts";
import { Button, Form, Input, Space } from "antd";
import { useCallback, useEffect, useState } from "react";
import { api, describeError } from "../../app/api.ts";
import { useFeedback } from "../../app/feedback.ts";
import { login } from "../../app/session.ts";
import { useT } from "../../i18n/index.tsx";
import { Captcha } from "./Captcha.tsx";
import { asksForCaptcha } from "./captcha-request.ts";

interface Values {
  tenantId: string;
  username: string;
  password: string;
  code: string;
}

interface Props {
  options: LoginOptions;
  /** The tenant derived from the address, or the last one used; the field is hidden when derived. */
  tenantId: string;
  tenantDerived: boolean;
}

/**
 * Account login; Enter submits. The captcha shows when the server is configured for it or asks for
 * it after many failures, and is refreshed after every failed attempt.
 */
export function LoginForm({ options, tenantId, tenantDerived }: Props) {
  const t = useT();
  const { message } = useFeedback();
  const [form] = Form.useForm<Values>();
  const [busy, setBusy] = useState(false);
  const [captcha, setCaptcha] = useState<CaptchaResponse>({ key: "", image: "" });
  const [captchaAsked, setCaptchaAsked] = useState(false);
  const captchaMode = options.captchaMode || captchaAsked;
  const showTenant = options.tenantMode && !tenantDerived;

  const refreshCaptcha = useCallback(() => {
    if (!captchaMode) return;
    form.setFieldValue("code", "");
    api.captcha().then(setCaptcha, (error: unknown) => message.error(describeError(error)));
  }, [captchaMode, form, message]);

  useEffect(refreshCaptcha, [refreshCaptcha]);
  // The tenant may be known only after the form shows (the address's tenant): fill it in unless
  // the operator has typed one already.
  useEffect(() => {
    if (!form.isFieldTouched("tenantId")) form.setFieldValue("tenantId", tenantId);
  }, [form, tenantId]);

  const submit = async (values: Values) => {
    setBusy(true);
    try {
      await login({
        tenantId: showTenant ? values.tenantId.trim() : tenantId,
        username: values.username.trim(),
        password: values.password,
        captcha: captchaMode ? { key: captcha.key, code: values.code.trim() } : undefined,
      });
    } catch (error) {
      // Server refusals were already shown by the API client; transport failures are not.
      if (!isApiError(error) || error.kind !== "http") message.error(describeError(error));
      // Switching the captcha on fetches one through the effect; otherwise fetch a fresh one.
      if (asksForCaptcha(error) && !captchaMode) setCaptchaAsked(true);
      else refreshCaptcha();
    } finally {
      setBusy(false);
    }
  };

  return (
    <Form form={form} size="large" onFinish={submit} initialValues={{ tenantId }} data-testid="login-form">
      {showTenant ? (
        <Form.Item
          name="tenantId"
          rules={[{ required: true, whitespace: true, message: t("login.tenantRequired") }]}
        >
          <Input
            prefix={<TeamOutlined />}
            placeholder={t("login.tenantId")}
            aria-label={t("login.tenantId")}
            data-testid="login-tenant"
          />
        </Form.Item>
      ) : null}
      <Form.Item
        name="username"
        rules={[{ required: true, whitespace: true, message: t("login.usernameRequired") }]}
      >
        <Input
          prefix={<UserOutlined />}
          placeholder={t("login.username")}
          aria-label={t("login.username")}
          autoComplete="username"
          autoFocus
          data-testid="login-username"
        />
      </Form.Item>
      <Form.Item name="password" rules={[{ required: true, message: t("login.passwordRequired") }]}>
        <Input.Password
          prefix={<LockOutlined />}
          placeholder={t("login.password")}
          aria-label={t("login.password")}
          autoComplete="current-password"
          data-testid="login-password"
        />
      </Form.Item>
      {captchaMode ? (
        <Form.Item>
          <Space.Compact block>
            <Form.Item
              name="code"
              noStyle
              rules={[{ required: true, whitespace: true, message: t("login.captchaRequired") }]}
            >
              <Input
                prefix={<SafetyOutlined />}
                placeholder={t("login.captcha")}
                aria-label={t("login.captcha")}
                data-testid="login-captcha"
              />
            </Form.Item>
            <Captcha image={captcha.image} onRefresh={refreshCaptcha} />
          </Space.Compact>
        </Form.Item>
      ) : null}
      <Button type="primary" htmlType="submit" block loading={busy} data-testid="login-submit">
        {t("login.submit")}
      </Button>
    </Form>
  );
}
