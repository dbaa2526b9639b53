import { Form, Input, Modal } from "antd";
import { useState } from "react";
import { reportNetworkError } from "../../app/api.ts";
import { useFeedback } from "../../app/feedback.ts";
import { useT } from "../../i18n/index.tsx";
import { sendTestMessage } from "./sms-calls.ts";

interface Values {
  phones: string;
  params: string;
}

/** 调试发送: phones (comma separated) and the template's values as JSON; the server checks both. */
export function SmsDebugDialog(props: { code: string; onClose: () => void }) {
  const t = useT();
  const { message } = useFeedback();
  const [form] = Form.useForm<Values>();
  const [sending, setSending] = useState(false);

  const send = async () => {
    const values = await form.validateFields();
    setSending(true);
    try {
      await sendTestMessage(props.code, values.phones, values.params || "{}");
      message.success(t("sms.sent"));
      props.onClose();
    } catch (error) {
      reportNetworkError(error);
    } finally {
      setSending(false);
    }
  };

  return (
    <Modal
      open
      title={t("sms.debug")}
      okText={t("sms.send")}
      confirmLoading={sending}
      onOk={() => void send()}
      onCancel={props.onClose}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" initialValues={{ phones: "", params: "{}" }}>
        <Form.Item
          name="phones"
          label={t("sms.phones")}
          rules={[{ required: true, whitespace: true, message: t("sms.phonesRequired") }]}
        >
          <Input placeholder="13800138000,13900139000" data-testid="sms-phones" />
        </Form.Item>
        <Form.Item name="params" label={t("sms.params")}>
          <Input.TextArea rows={3} placeholder='{"code":"1234"}' data-testid="sms-params" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
