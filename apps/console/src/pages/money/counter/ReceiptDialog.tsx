import { fenToCapitals, yuanToFen } from "@meterline/billing";
import { Alert, Button, Descriptions, Modal, Segmented } from "antd";
import { useT } from "../../../i18n/index.tsx";
import { useClosingSupplyText } from "./closing-supply-text.ts";
import { methodLabel, usePaymentMethods } from "./payment-methods.ts";
import type { ReceiptData } from "./receipt-data.ts";
import { RECEIPT_LAYOUTS, useReceiptLayout } from "./receipt-layout.ts";
import "./receipt.css";

/** 大写金额 of a receipt's amount; empty when the amount is unknown (a partial receipt). */
function capitalsOf(amount: string): string {
  try {
    return amount ? fenToCapitals(yuanToFen(amount)) : "";
  } catch {
    return "";
  }
}

/**
 * The receipt of a booked operation with a Print button, titled with the site's (tenant's) name,
 * the amount also in capitals (大写金额) and lines for both signatures. Printing uses the browser's
 * own dialog; receipt.css hides everything but the receipt while one is open (no pop-up window, no
 * inline script: the Content-Security-Policy allows neither) and sizes the page for the paper
 * chosen here (A4, A5, 80 mm or 58 mm roll), remembered per browser. A reprint (补打) says so. The
 * site's logo stands before its name when the tenant has one; an account's closing prints as a slip
 * with its final reading and what became of supply, signed by the operator and the owner.
 */
export function ReceiptDialog({ receipt, onClose }: { receipt: ReceiptData; onClose: () => void }) {
  const t = useT();
  const methods = usePaymentMethods();
  const [layout, setLayout] = useReceiptLayout();
  const capitals = capitalsOf(receipt.amount);
  const type = receipt.operation
    ? t(`counter.type.${receipt.operation}`)
    : [1, 2, 3, 4].includes(receipt.rechargeType)
      ? t(`counter.type.${receipt.rechargeType as 1 | 2 | 3 | 4}`)
      : String(receipt.rechargeType);
  const energy = t(receipt.energyType === 2 ? "counter.energy.2" : "counter.energy.1");
  const supplyText = useClosingSupplyText();
  const closing = receipt.operation === "close";
  // A recharge or refund says how it was paid, and so does an opening's deposit.
  const paid =
    receipt.rechargeType === 1 ||
    receipt.rechargeType === 2 ||
    (receipt.operation === "open" && receipt.paymentMethod > 0);
  const supply = receipt.closeSupply ? supplyText(receipt.closeSupply) : "";
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
        <Segmented
          key="layout"
          style={{ float: "left" }}
          value={layout}
          onChange={setLayout}
          options={RECEIPT_LAYOUTS.map((value) => ({ value, label: t(`counter.layout.${value}`) }))}
          aria-label={t("counter.layout")}
          data-testid="receipt-layout"
        />,
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
      <section
        className={`counter-receipt receipt-${layout}`}
        data-testid="counter-receipt"
        aria-label={t("counter.receipt")}
      >
        <h2 data-testid="receipt-title">
          {receipt.tenantLogo ? (
            <img
              className="receipt-logo"
              src={receipt.tenantLogo}
              alt={`${receipt.tenantName} ${t("counter.logo")}`}
              data-testid="receipt-logo"
            />
          ) : null}
          <span data-testid="receipt-site">{receipt.tenantName}</span>{" "}
          {t(closing ? "counter.slipTitle" : "counter.receiptTitle")}
        </h2>
        {receipt.reprintedAt && (
          <p className="receipt-reprint" data-testid="receipt-reprint">
            {t("counter.reprinted", { time: receipt.reprintedAt })}
          </p>
        )}
        <Descriptions
          bordered={layout === "a4" || layout === "a5"}
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
            ...(receipt.finalReading
              ? [
                  {
                    key: "reading",
                    label: t("counter.finalReading"),
                    children: code(receipt.finalReading, "receipt-final-reading"),
                  },
                ]
              : []),
            ...(paid
              ? [
                  {
                    key: "method",
                    label: t("counter.receiptMethod"),
                    children: methodLabel(methods, receipt.paymentMethod),
                  },
                ]
              : []),
            ...(receipt.transactionNo
              ? [
                  {
                    key: "transaction",
                    label: t("counter.receiptTransaction"),
                    children: code(receipt.transactionNo, "receipt-transaction"),
                  },
                ]
              : []),
            {
              key: "amount",
              label: t("counter.receiptAmount"),
              children: code(receipt.amount, "receipt-amount"),
            },
            ...(capitals
              ? [
                  {
                    key: "capitals",
                    label: t("counter.receiptCapitals"),
                    children: <span data-testid="receipt-capitals">{capitals}</span>,
                  },
                ]
              : []),
            {
              key: "balance",
              label: t("counter.receiptBalance"),
              children: code(receipt.balanceAfter, "receipt-balance"),
            },
            ...(supply
              ? [
                  {
                    key: "supply",
                    label: t("counter.closeSupply"),
                    children: <span data-testid="receipt-supply">{supply}</span>,
                  },
                ]
              : []),
            { key: "operator", label: t("counter.receiptOperator"), children: receipt.operator },
            ...(receipt.remark
              ? [{ key: "remark", label: t("counter.receiptRemark"), children: receipt.remark }]
              : []),
          ]}
        />
        <div className="receipt-signatures" data-testid="receipt-signatures">
          {/* A closing slip is signed by whoever handled it and by the owner it settles with. */}
          <span>{t(closing ? "counter.signOperator" : "counter.signPayee")}</span>
          <span>{t(closing ? "counter.signOwner" : "counter.signPayer")}</span>
        </div>
      </section>
    </Modal>
  );
}
