import { badRequest } from "../../contract/errors.ts";
import type { TradeBill } from "./wxpay-bill.ts";

export type DiffKind = "wechat_only" | "local_only" | "amount";
export type SettleAction = "book" | "reverse" | "correct" | "acknowledge";
/** Which settlements fit which difference: money moves one way per kind, or not at all. */
export const ACTIONS_OF: Record<DiffKind, readonly SettleAction[]> = {
  wechat_only: ["book", "acknowledge"],
  local_only: ["reverse", "acknowledge"],
  amount: ["correct", "acknowledge"],
};
export const REASON_MAX = 200;

/** A difference found by comparing, before it is stored. */
export interface FoundDiff {
  kind: DiffKind;
  outTradeNo: string;
  transactionId: string;
  wxPayId: string | null;
  wechatFen: bigint | null;
  localFen: bigint | null;
  tradeTime: string;
}

/** A wxpay order as the comparison needs it. */
export interface LocalOrder {
  id: string;
  out_trade_no: string;
  amount: string;
  state: number;
  transaction_id: string;
  paid_time: Date | null;
  in_day: boolean;
}

/**
 * The comparison, pure: each SUCCESS trade of the bill against the order of its out_trade_no (absent
 * or not paid here: wechat_only; paid with another amount: amount), and each order paid here on the
 * day that the bill does not list (local_only). Refund trades are counted, not matched.
 */
export function compareBill(bill: TradeBill, mchid: string, orders: readonly LocalOrder[]): FoundDiff[] {
  const byNo = new Map(orders.map((o) => [o.out_trade_no, o]));
  const billed = new Set<string>();
  const found: FoundDiff[] = [];
  for (const trade of bill.trades) {
    if (trade.tradeState !== "SUCCESS" || trade.mchid !== mchid || billed.has(trade.outTradeNo)) continue;
    billed.add(trade.outTradeNo);
    const order = byNo.get(trade.outTradeNo);
    const base = {
      outTradeNo: trade.outTradeNo.slice(0, 32),
      transactionId: trade.transactionId.slice(0, 32),
      wxPayId: order?.id ?? null,
      wechatFen: trade.orderFen,
      tradeTime: trade.tradeTime.slice(0, 32),
    };
    if (order?.state !== 1) found.push({ ...base, kind: "wechat_only", localFen: null });
    else if (BigInt(order.amount) !== trade.orderFen)
      found.push({ ...base, kind: "amount", localFen: BigInt(order.amount) });
  }
  for (const order of orders) {
    if (order.state !== 1 || !order.in_day || billed.has(order.out_trade_no)) continue;
    found.push({
      kind: "local_only",
      outTradeNo: order.out_trade_no,
      transactionId: order.transaction_id,
      wxPayId: order.id,
      wechatFen: null,
      localFen: BigInt(order.amount),
      tradeTime: order.paid_time?.toISOString() ?? "",
    });
  }
  return found;
}

/** A real calendar date written YYYY-MM-DD, or a 400 naming the field. */
export function checkBillDate(text: unknown, today: string): string {
  const day = typeof text === "string" ? text.trim() : "";
  const at = new Date(`${day}T00:00:00Z`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || Number.isNaN(at.getTime()) || at.toISOString().slice(0, 10) !== day)
    throw badRequest("billDate: 日期格式应为 YYYY-MM-DD");
  if (day > today) throw badRequest("billDate: 不能对账未来的日期");
  return day;
}

/** The China calendar day of an instant (WeChat Pay's bills are cut at midnight Beijing time). */
export const chinaDay = (at: Date) => new Date(at.getTime() + 8 * 3_600_000).toISOString().slice(0, 10);
