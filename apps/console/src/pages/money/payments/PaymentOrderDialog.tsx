import { Form, Modal } from "antd";
import { useState } from "react";
import { useFeedback } from "../../../app/feedback.ts";
import { useSaving } from "../../../app/useSaving.ts";
import { usePlatformAdministrator } from "../../../crud/tenant-column.tsx";
import { validatedValues } from "../../../crud/validated.ts";
import { useI18n } from "../../../i18n/index.tsx";
import { AccountPicker } from "../AccountPicker.tsx";
import { PaymentFields } from "../counter/PaymentFields.tsx";
import { usePaymentMethods } from "../counter/payment-methods.ts";
import { type AccountChoice, savePaymentOrder } from "../money-calls.ts";

interface Values {
  accountId?: string;
  amount?: string;
  paymentMethod?: string;
  remark?: string;
}

/** "WeChat online" (5) is only ever the channel's own payment: an operator takes the others. */
const ONLINE_METHOD = "5";

/**
 * 新增支付单: money an owner has promised or sent by a slow route (a bank transfer, a cheque) is
 * taken as an unpaid order for one account; nothing is booked until it is confirmed with the
 * channel's transaction number (PaymentConfirmDialog).
 */
export function PaymentOrderDialog({ onClose, onSaved }: { onClose: () => void; onSaved: () => void }) {
  const { t } = useI18n();
  const { message } = useFeedback();
  const [form] = Form.useForm<Values>();
  const [account, setAccount] = useState<AccountChoice | undefined>();
  const { saving, save: saveWith } = useSaving();
  // The platform administrator picks from every tenant's accounts; the order goes to the account's.
  const platform = usePlatformAdministrator();
  const methods = usePaymentMethods().filter((option) => option.value !== ONLINE_METHOD);

  const save = async () => {
    const values = await validatedValues(form);
    if (!values) return;
    await saveWith(async () => {
      await savePaymentOrder(
        {
          accountId: values.accountId ?? "",
          amount: (values.amount ?? "").trim(),
          paymentMethod: values.paymentMethod ?? "",
          remark: (values.remark ?? "").trim(),
        },
        account?.tenantId,
      );
      message.success(t("payment.orderSaved"));
      onSaved();
    });
  };

  return (
    <Modal
      open
      title={t("payment.orderTitle")}
      width={560}
      onCancel={onClose}
      onOk={() => void save()}
      okText={t("crud.submit")}
      confirmLoading={saving}
      okButtonProps={{ "data-testid": "payment-order-ok" }}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" data-testid="payment-order-dialog">
        <Form.Item
          name="accountId"
          label={t("payment.account")}
          extra={t("payment.accountHint")}
          rules={[{ required: true, message: t("payment.accountRequired") }]}
        >
          <AccountPicker onPick={setAccount} showTenant={platform} />
        </Form.Item>
        <PaymentFields methods={methods} />
      </Form>
    </Modal>
  );
}
