import { Form, Input, Modal, Typography } from "antd";
import { useState } from "react";
import { describeError, reportNetworkError } from "../../../../app/api.ts";
import { useFeedback } from "../../../../app/feedback.ts";
import { useT } from "../../../../i18n/index.tsx";
import type { Energy } from "../switch-calls.ts";
import { DEPOSIT_PATTERN, openAccounts } from "./account-calls.ts";

interface Props {
  energy: Energy;
  meter: { id: string; productCode: string };
  /** `opened` says whether the account was opened, so the table reloads only then. */
  onClose: (opened: boolean) => void;
}

/** Opens one meter's account for the owner of its room with an opening deposit (optional). */
export function AccountOpenDialog({ energy, meter, onClose }: Props) {
  const t = useT();
  const { message } = useFeedback();
  const [form] = Form.useForm<{ deposit: string }>();
  const [sending, setSending] = useState(false);
  const [refusal, setRefusal] = useState<string>();

  const send = async () => {
    // An invalid deposit is shown under its field; nothing is sent.
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    const { deposit } = values;
    setSending(true);
    setRefusal(undefined);
    try {
      const [opened] = await openAccounts(energy, [meter.id], deposit ?? "");
      message.success(t("meterAccount.open.done", { balance: opened?.balance ?? "0.00" }));
      onClose(true);
    } catch (error) {
      reportNetworkError(error);
      setRefusal(describeError(error));
    } finally {
      setSending(false);
    }
  };

  return (
    <Modal
      open
      title={t("meterAccount.open.title")}
      okText={t("meterAccount.open.ok")}
      onOk={() => void send()}
      onCancel={() => onClose(false)}
      confirmLoading={sending}
      okButtonProps={{ "data-testid": "account-open-ok" }}
      maskClosable={false}
      destroyOnHidden
    >
      <div data-testid="account-open-dialog">
        <Typography.Paragraph>
          {t("meterAccount.open.meter", { meter: meter.productCode })}
        </Typography.Paragraph>
        <Typography.Paragraph type="secondary">{t("meterAccount.open.rule")}</Typography.Paragraph>
        <Form form={form} name="accountOpen" layout="vertical" onFinish={() => void send()}>
          <Form.Item
            name="deposit"
            label={t("meterAccount.deposit")}
            extra={t("meterAccount.depositHint")}
            rules={[{ pattern: DEPOSIT_PATTERN, message: t("meterAccount.depositInvalid") }]}
          >
            <Input inputMode="decimal" suffix={t("meterAccount.yuan")} autoFocus />
          </Form.Item>
        </Form>
        {refusal ? (
          <Typography.Text type="danger" role="alert" data-testid="account-refusal">
            {refusal}
          </Typography.Text>
        ) : null}
      </div>
    </Modal>
  );
}
