import type { Row } from "@meterline/api-client";
import { Button } from "antd";
import dayjs from "dayjs";
import { useState } from "react";
import { reportNetworkError } from "../../../app/api.ts";
import { useT } from "../../../i18n/index.tsx";
import { rechargeDetail } from "./counter-calls.ts";
import { ReceiptDialog } from "./ReceiptDialog.tsx";
import { type ReceiptData, receiptOfAccountOperation, receiptOfDetail } from "./receipt-data.ts";

/**
 * 补打: a booked recharge's receipt printed again from 充值记录. It is read back from the server,
 * so it carries the number, amounts and operator of the booking, and is marked as a reprint with
 * the time it was printed again.
 */
export function ReprintButton({ row }: { row: Row }) {
  const t = useT();
  const [receipt, setReceipt] = useState<ReceiptData>();
  const [loading, setLoading] = useState(false);
  const open = async () => {
    setLoading(true);
    try {
      const tenantId = typeof row.tenantId === "string" ? row.tenantId : undefined;
      const detail = await rechargeDetail(String(row.id), tenantId);
      setReceipt(receiptOfDetail(detail, dayjs().format("YYYY-MM-DD HH:mm:ss")));
    } catch (failure) {
      // Server refusals were toasted by the API bridge; nothing opens.
      reportNetworkError(failure);
    } finally {
      setLoading(false);
    }
  };
  return (
    <>
      <Button type="link" size="small" loading={loading} onClick={open} data-testid="recharge-reprint">
        {t("counter.reprint")}
      </Button>
      {receipt && <ReceiptDialog receipt={receipt} onClose={() => setReceipt(undefined)} />}
    </>
  );
}

/**
 * 补打 of an account's opening or closing from 开户记录 / 销户记录: the row itself is the server's
 * record (number, amounts, operator), so nothing is read again.
 */
export function AccountReprintButton({ row, closing }: { row: Row; closing: boolean }) {
  const t = useT();
  const [receipt, setReceipt] = useState<ReceiptData>();
  return (
    <>
      <Button
        type="link"
        size="small"
        onClick={() =>
          setReceipt(receiptOfAccountOperation(row, closing, dayjs().format("YYYY-MM-DD HH:mm:ss")))
        }
        data-testid="account-reprint"
      >
        {t("counter.reprint")}
      </Button>
      {receipt && <ReceiptDialog receipt={receipt} onClose={() => setReceipt(undefined)} />}
    </>
  );
}
