import type { Row } from "@meterline/api-client";
import { Descriptions, Form, Input, Modal } from "antd";
import { useFeedback } from "../../../app/feedback.ts";
import { useSaving } from "../../../app/useSaving.ts";
import { validatedValues } from "../../../crud/validated.ts";
import { useI18n } from "../../../i18n/index.tsx";
import { confirmPayment } from "../money-calls.ts";

/** The server's own rule for a transaction number (payment-input.ts), said before the call. */
const TRANSACTION_NO = /^[\w-]{1,64}$/;

interface Props {
  /** The unpaid or failed payment, as its list row shows it. */
  row: Row;
  tenantId?: string;
  onClose: () => void;
  onConfirmed: () => void;
}

/**
 * 确认到账: the money of an unpaid order has arrived; the channel's transaction number confirms it
 * and the payment's recharge is booked once (a second confirmation books nothing).
 */
export function PaymentConfirmDialog({ row, tenantId, onClose, onConfirmed }: Props) {
  const { t } = useI18n();
  const { message } = useFeedback();
  const [form] = Form.useForm<{ transactionNo?: string }>();
  const { saving, save: saveWith } = useSaving();
  const text = (value: unknown) => (value === null || value === undefined ? "" : String(value));

  const save = async () => {
    const values = await validatedValues(form);
    if (!values) return;
    await saveWith(async () => {
      const outcome = await confirmPayment(String(row.id), (values.transactionNo ?? "").trim(), tenantId);
      message.success(t(outcome.booked ? "payment.confirmed" : "payment.alreadyPaid"));
      onConfirmed();
    });
  };

  return (
    <Modal
      open
      title={t("payment.confirmTitle")}
      width={520}
      onCancel={onClose}
      onOk={() => void save()}
      okText={t("payment.confirm")}
      confirmLoading={saving}
      okButtonProps={{ "data-testid": "payment-confirm-ok" }}
      destroyOnHidden
    >
      <Descriptions
        size="small"
        column={1}
        style={{ marginBottom: 16 }}
        items={[
          { key: "owner", label: t("moneyList.owner"), children: text(row.ownerName) },
          { key: "meter", label: t("moneyList.meterNo"), children: text(row.productCode) },
          { key: "amount", label: t("moneyList.amount"), children: text(row.amount) },
        ]}
      />
      <Form form={form} layout="vertical" data-testid="payment-confirm-dialog">
        <Form.Item
          name="transactionNo"
          label={t("moneyList.transactionNo")}
          extra={t("payment.transactionNoHint")}
          rules={[
            { required: true, whitespace: true, message: t("payment.transactionNoRequired") },
            { pattern: TRANSACTION_NO, message: t("payment.transactionNoFormat") },
          ]}
        >
          <Input autoComplete="off" autoFocus />
        </Form.Item>
      </Form>
    </Modal>
  );
}
