import { Form, Input, Modal, Select, Typography } from "antd";
import { useState } from "react";
import { describeError, reportNetworkError } from "../../../../app/api.ts";
import { useFeedback } from "../../../../app/feedback.ts";
import { useT } from "../../../../i18n/index.tsx";
import { usePaymentMethods } from "../../../money/counter/payment-methods.ts";
import { ReceiptDialog } from "../../../money/counter/ReceiptDialog.tsx";
import { type ReceiptData, receiptOfAccountOperation } from "../../../money/counter/receipt-data.ts";
import type { Energy } from "../switch-calls.ts";
import { accountOperation, DEPOSIT_PATTERN, isZero, openAccounts } from "./account-calls.ts";

interface Props {
  energy: Energy;
  meter: { id: string; productCode: string };
  /** `opened` says whether the account was opened, so the table reloads only then. */
  onClose: (opened: boolean) => void;
}

/**
 * Opens one meter's account for the owner of its room with an opening deposit (optional) and how it
 * was paid, as the counter takes money. A deposit gets its receipt at once (the opening's record,
 * as 开户记录 reprints it).
 */
export function AccountOpenDialog({ energy, meter, onClose }: Props) {
  const t = useT();
  const { message } = useFeedback();
  const methods = usePaymentMethods();
  const [form] = Form.useForm<{ deposit: string; paymentMethod: string }>();
  const [sending, setSending] = useState(false);
  const [refusal, setRefusal] = useState<string>();
  const [receipt, setReceipt] = useState<ReceiptData>();

  const send = async () => {
    // An invalid deposit is shown under its field; nothing is sent.
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    const { deposit, paymentMethod } = values;
    setSending(true);
    setRefusal(undefined);
    try {
      const [opened] = await openAccounts(energy, [meter.id], deposit ?? "", paymentMethod);
      message.success(t("meterAccount.open.done", { balance: opened?.balance ?? "0.00" }));
      if (!opened || isZero(deposit ?? "")) return onClose(true);
      // The money is taken: a failed read of the record still leaves the account opened.
      const row = await accountOperation("open", opened.accountId).catch((error: unknown) => {
        reportNetworkError(error);
        return undefined;
      });
      if (row) setReceipt(receiptOfAccountOperation(row, false));
      else onClose(true);
    } catch (error) {
      reportNetworkError(error);
      setRefusal(describeError(error));
    } finally {
      setSending(false);
    }
  };

  if (receipt) return <ReceiptDialog receipt={receipt} onClose={() => onClose(true)} />;
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
        <Form
          form={form}
          name="accountOpen"
          layout="vertical"
          initialValues={{ paymentMethod: "1" }}
          onFinish={() => void send()}
        >
          <Form.Item
            name="deposit"
            label={t("meterAccount.deposit")}
            extra={t("meterAccount.depositHint")}
            rules={[{ pattern: DEPOSIT_PATTERN, message: t("meterAccount.depositInvalid") }]}
          >
            <Input inputMode="decimal" suffix={t("meterAccount.yuan")} autoFocus />
          </Form.Item>
          <Form.Item name="paymentMethod" label={t("meterAccount.method")}>
            <Select options={[...methods]} data-testid="account-open-method" />
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
