import type { Queryable } from "../../db/client.ts";
import type { MoneySheet, SheetColumn } from "../money/money-sheet.ts";
import { wxpayView as view, wxpayRows, wxpaySearch, wxpayTotals, type wxpayView } from "./wxpay-reads.ts";

type Row = ReturnType<typeof wxpayView>;
type Params = Record<string, unknown>;

const STATE: Record<number, string> = { 0: "未支付", 1: "已支付", 2: "已关闭", 3: "支付失败" };
const TRADE: Record<string, string> = { jsapi: "公众号支付", native: "扫码支付" };

/** wxpay/export: the search as its page shows it, paid, unpaid and refunded summed at the end. */
export async function wxpaySheet(
  db: Queryable,
  tenantId: string | null,
  params: Params,
  timeZone: string,
): Promise<MoneySheet<Row>> {
  const search = wxpaySearch(tenantId, params, timeZone);
  const totals = await wxpayTotals(db, search);
  const columns: SheetColumn<Row>[] = [
    ...(tenantId === null ? [{ header: "租户", value: (r: Row) => r.tenantName }] : []),
    { header: "商户订单号", value: (r) => r.outTradeNo, width: 26 },
    { header: "微信支付单号", value: (r) => r.transactionId, width: 30 },
    { header: "方式", value: (r) => TRADE[r.tradeType] ?? r.tradeType, width: 10 },
    { header: "业主", value: (r) => r.ownerName },
    { header: "房间", value: (r) => r.roomName },
    { header: "表号", value: (r) => r.productCode, width: 18 },
    { header: "金额(元)", value: (r) => r.amount, money: true },
    { header: "状态", value: (r) => STATE[r.state] ?? String(r.state), width: 10 },
    { header: "支付时间", value: (r) => r.paidTime, width: 20 },
    { header: "充值收据号", value: (r) => r.receiptNo, width: 22 },
    { header: "已退款(元)", value: (r) => r.refundAmount, money: true },
    { header: "创建时间", value: (r) => r.createTime, width: 20 },
  ];
  return {
    title: "微信支付订单",
    columns,
    count: totals.count,
    rows: async (limit, offset) => (await wxpayRows(db, search, limit, offset)).map((r) => view(r, timeZone)),
    totals: { "金额(元)": totals.paid, "已退款(元)": totals.refunded },
  };
}
