import { Button, Form, Input, Modal } from "antd";
import { useT } from "../../i18n/index.tsx";

/** The lock password's dialog (its own chunk: antd's Form travels with it, not with every page). */
export default function LockPasswordDialog({
  open,
  onClose,
  onSubmit,
}: {
  open: boolean;
  onClose: () => void;
  onSubmit: (password: string) => void;
}) {
  const t = useT();
  const [form] = Form.useForm<{ password: string }>();
  return (
    <Modal
      open={open}
      title={t("lock.setPassword")}
      onCancel={onClose}
      footer={[
        <Button key="cancel" onClick={onClose}>
          {t("common.cancel")}
        </Button>,
        <Button key="ok" type="primary" onClick={() => form.submit()} data-testid="lock-dialog-ok">
          {t("common.ok")}
        </Button>,
      ]}
      destroyOnHidden
    >
      <div data-testid="lock-dialog">
        <Form
          form={form}
          layout="vertical"
          onFinish={({ password }: { password: string }) => {
            form.resetFields();
            onSubmit(password);
          }}
        >
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
  );
}
