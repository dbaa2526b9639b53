import { Button, Form, Input } from "antd";
import { md5 } from "js-md5";
import { useState } from "react";
import { api, reportNetworkError } from "../../app/api.ts";
import { useFeedback } from "../../app/feedback.ts";
import { useT } from "../../i18n/index.tsx";

interface Passwords {
  oldPassword: string;
  newPassword: string;
  newPassword1: string;
}

/** Changes one's own password; every password travels as its md5 hex (contract §5.2). */
export function PasswordForm() {
  const t = useT();
  const { message } = useFeedback();
  const [form] = Form.useForm<Passwords>();
  const [saving, setSaving] = useState(false);

  const save = async (values: Passwords) => {
    setSaving(true);
    try {
      await api.updatePassword(md5(values.oldPassword), md5(values.newPassword), md5(values.newPassword1));
      form.resetFields();
      message.success(t("info.passwordChanged"));
    } catch (error) {
      reportNetworkError(error);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Form form={form} layout="vertical" onFinish={save} style={{ maxWidth: 520 }} data-testid="info-password">
      <Form.Item
        name="oldPassword"
        label={t("info.oldPassword")}
        rules={[{ required: true, message: t("info.oldPasswordRequired") }]}
      >
        <Input.Password autoComplete="current-password" />
      </Form.Item>
      <Form.Item
        name="newPassword"
        label={t("info.newPassword")}
        rules={[{ required: true, message: t("info.newPasswordRequired") }]}
      >
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <Form.Item
        name="newPassword1"
        label={t("info.newPassword1")}
        dependencies={["newPassword"]}
        rules={[
          { required: true, message: t("info.newPassword1Required") },
          ({ getFieldValue }) => ({
            validator: (_, value: string | undefined) =>
              !value || value === getFieldValue("newPassword")
                ? Promise.resolve()
                : Promise.reject(new Error(t("info.passwordMismatch"))),
          }),
        ]}
      >
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={saving} data-testid="info-password-save">
        {t("crud.submit")}
      </Button>
    </Form>
  );
}
