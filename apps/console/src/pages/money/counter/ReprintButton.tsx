import type { Row } from "@meterline/api-client";
import { Button } from "antd";
import dayjs from "dayjs";
import { useState } from "react";
import { reportNetworkError } from "../../../app/api.ts";
import { useT } from "../../../i18n/index.tsx";
import { rechargeDetail } from "./counter-calls.ts";
import { ReceiptDialog } from "./ReceiptDialog.tsx";
import { type ReceiptData, receiptOfDetail } from "./receipt-data.ts";

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
