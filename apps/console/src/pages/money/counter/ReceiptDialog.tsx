import { Alert, Button, Descriptions, Modal } from "antd";
import { useT } from "../../../i18n/index.tsx";
import { methodLabel, usePaymentMethods } from "./payment-methods.ts";
import type { ReceiptData } from "./receipt-data.ts";

/**
 * The receipt of a booked operation with a Print button. Printing uses the browser's own dialog;
 * money-counter.css hides everything but the receipt while one is open (no pop-up window, no
 * inline script: the Content-Security-Policy allows neither).
 */
export function ReceiptDialog({ receipt, onClose }: { receipt: ReceiptData; onClose: () => void }) {
  const t = useT();
  const methods = usePaymentMethods();
  const type = [1, 2, 3, 4].includes(receipt.rechargeType)
    ? t(`counter.type.${receipt.rechargeType as 1 | 2 | 3 | 4}`)
    : String(receipt.rechargeType);
  const energy = t(receipt.energyType === 2 ? "counter.energy.2" : "counter.energy.1");
  const code = (text: string, testId?: string) => (
    <span className="counter-code" data-testid={testId}>
      {text}
    </span>
  );
  return (
    <Modal
      open
      title={t("counter.receipt")}
      onCancel={onClose}
      width={600}
      footer={[
        <Button key="close" onClick={onClose} data-testid="counter-receipt-close">
          {t("counter.close")}
        </Button>,
        <Button key="print" type="primary" onClick={() => window.print()} data-testid="counter-print">
          {t("counter.print")}
        </Button>,
      ]}
    >
      {receipt.partial && (
        <Alert type="warning" showIcon title={t("counter.receiptFailed")} style={{ marginBottom: 12 }} />
      )}
      {receipt.replayed && (
        <Alert type="info" showIcon title={t("counter.receiptReplayed")} style={{ marginBottom: 12 }} />
      )}
      <section className="counter-receipt" data-testid="counter-receipt" aria-label={t("counter.receipt")}>
        <h2>{t("counter.receiptTitle")}</h2>
        <Descriptions
          bordered
          size="small"
          column={1}
          items={[
            { key: "no", label: t("counter.receiptNo"), children: code(receipt.receiptNo, "receipt-no") },
            { key: "time", label: t("counter.receiptTime"), children: receipt.createTime },
            { key: "owner", label: t("counter.owner"), children: receipt.ownerName },
            { key: "room", label: t("counter.room"), children: receipt.roomName },
            {
              key: "meter",
              label: t("counter.meter"),
              children: (
                <>
                  {energy} {code(receipt.productCode, "receipt-meter")}
                </>
              ),
            },
            {
              key: "type",
              label: t("counter.receiptType"),
              children: <span data-testid="receipt-type">{type}</span>,
            },
            ...(receipt.rechargeType === 1 || receipt.rechargeType === 2
              ? [
                  {
                    key: "method",
                    label: t("counter.receiptMethod"),
                    children: methodLabel(methods, receipt.paymentMethod),
                  },
                ]
              : []),
            {
              key: "amount",
              label: t("counter.receiptAmount"),
              children: code(receipt.amount, "receipt-amount"),
            },
            {
              key: "balance",
              label: t("counter.receiptBalance"),
              children: code(receipt.balanceAfter, "receipt-balance"),
            },
            { key: "operator", label: t("counter.receiptOperator"), children: receipt.operator },
            ...(receipt.remark
              ? [{ key: "remark", label: t("counter.receiptRemark"), children: receipt.remark }]
              : []),
          ]}
        />
      </section>
    </Modal>
  );
}
