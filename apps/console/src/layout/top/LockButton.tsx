import { LockOutlined } from "@ant-design/icons";
import { Button, Form, Input, Modal } from "antd";
import { useState } from "react";
import { useLocation } from "react-router";
import { hasLockPassword, lock, setLockPassword } from "../../app/lock.ts";
import { useT } from "../../i18n/index.tsx";
import { IconButton } from "./IconButton.tsx";

/** Lock button: asks for a lock password first when none is set (spec §4), then locks. */
export function LockButton() {
  const t = useT();
  const location = useLocation();
  const [open, setOpen] = useState(false);
  const [form] = Form.useForm<{ password: string }>();

  const lockNow = () => lock(`${location.pathname}${location.search}`);

  const onLockClick = () => {
    if (hasLockPassword()) lockNow();
    else setOpen(true);
  };

  const onSubmit = ({ password }: { password: string }) => {
    setLockPassword(password);
    setOpen(false);
    form.resetFields();
    lockNow();
  };

  return (
    <>
      <IconButton label={t("top.lock")} icon={<LockOutlined />} onClick={onLockClick} testId="lock-button" />
      <Modal
        open={open}
        title={t("lock.setPassword")}
        onCancel={() => setOpen(false)}
        footer={[
          <Button key="cancel" onClick={() => setOpen(false)}>
            {t("common.cancel")}
          </Button>,
          <Button key="ok" type="primary" onClick={() => form.submit()} data-testid="lock-dialog-ok">
            {t("common.ok")}
          </Button>,
        ]}
        destroyOnHidden
      >
        <div data-testid="lock-dialog">
          <Form form={form} layout="vertical" onFinish={onSubmit}>
            <Form.Item
              name="password"
              label={t("lock.password")}
              rules={[{ required: true, whitespace: true, message: t("lock.passwordRequired") }]}
            >
              <Input.Password autoFocus data-testid="lock-dialog-password" />
            </Form.Item>
          </Form>
        </div>
      </Modal>
    </>
  );
}
