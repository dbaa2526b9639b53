import { badRequest } from "../../contract/errors.ts";
import type { BillTrade } from "./wxpay-bill.ts";

/** The payment channels whose daily bills are reconciled: WeChat Pay and Alipay. */
export type BillChannelName = "wechat" | "alipay";
export const BILL_CHANNELS: readonly BillChannelName[] = ["wechat", "alipay"];

/**
 * wechat_only / alipay_only: paid at the channel, not booked here; local_only: an order of the channel
 * booked here that the bill lacks; amount: both have the order, amounts differ; counter_only: a
 * recharge recorded at the counter as paid through the channel that no trade of the bill accounts for.
 */
export type DiffKind = "wechat_only" | "alipay_only" | "local_only" | "amount" | "counter_only";
export type ChannelOnlyKind = "wechat_only" | "alipay_only";
export const DIFF_KINDS: readonly DiffKind[] = [
  "wechat_only",
  "alipay_only",
  "local_only",
  "amount",
  "counter_only",
];
export type SettleAction = "book" | "reverse" | "correct" | "acknowledge";
/**
 * Which settlements fit which difference: money moves one way per kind, or not at all. A counter
 * recharge without a trade was most often paid some other way (a personal QR code, cash written
 * down as WeChat): acknowledging it with a note comes first; reversing takes the recharge back.
 */
export const ACTIONS_OF: Record<DiffKind, readonly SettleAction[]> = {
  wechat_only: ["book", "acknowledge"],
  alipay_only: ["book", "acknowledge"],
  local_only: ["reverse", "acknowledge"],
  amount: ["correct", "acknowledge"],
  counter_only: ["acknowledge", "reverse"],
};
export const REASON_MAX = 200;

/**
 * One line of a channel's bill as the comparison reads it: WeChat Pay's trades as they are, Alipay's
 * detail rows mapped to them (alipay-bill-channel.ts). `mchid` is the merchant the bill is of
 * (WeChat Pay's merchant number, Alipay's app id); `transactionId` the channel's own trade number.
 */
export type BillLine = Pick<
  BillTrade,
  "tradeState" | "mchid" | "outTradeNo" | "transactionId" | "orderFen" | "tradeTime"
>;

/** A difference found by comparing, before it is stored. */
export interface FoundDiff {
  kind: DiffKind;
  outTradeNo: string;
  transactionId: string;
  /** The channel's order here (pms_wx_pay or pms_alipay_pay). */
  wxPayId: string | null;
  /** The amount the channel's bill has. */
  wechatFen: bigint | null;
  localFen: bigint | null;
  tradeTime: string;
  /** counter_only: the recharge recorded as WeChat at the counter. */
  counterRechargeId: string | null;
}

/**
 * A recharge the ledger records as paid through the channel (WeChat: PAYMENT_METHOD 3 微信, or 5
 * 微信在线支付 without an online order; Alipay: 4 支付宝 without an Alipay order) on the bill's day,
 * taken at the counter rather than through an order of the channel.
 */
export interface CounterRecharge {
  id: string;
  receipt_no: string;
  /** Whole fen. */
  amount: string;
  /** Beijing time written YYYY-MM-DD HH:MM:SS, as the bill writes its trades' times. */
  booked_at: string;
}

/** An order of the channel (wxpay or alipay) as the comparison needs it. */
export interface LocalOrder {
  id: string;
  out_trade_no: string;
  amount: string;
  state: number;
  transaction_id: string;
  paid_time: Date | null;
  in_day: boolean;
}

/** Seconds of a "YYYY-MM-DD HH:MM:SS" time (both sides are Beijing time); NaN when unreadable. */
const secondsOf = (text: string) => Date.parse(`${text.trim().replace(" ", "T")}Z`) / 1000;

/**
 * Pairs counter recharges with the bill's trades that no order here knows (a payment taken with the
 * merchant's code at the counter): equal amount, the nearest in time first, each trade at most once.
 * Answers the trades and the recharges left over.
 */
export function matchCounter<T extends { orderFen: bigint; tradeTime: string }>(
  trades: readonly T[],
  recharges: readonly CounterRecharge[],
): { trades: T[]; recharges: CounterRecharge[] } {
  const free = [...trades];
  const left: CounterRecharge[] = [];
  const inTime = [...recharges].sort(
    (a, b) => a.booked_at.localeCompare(b.booked_at) || a.id.localeCompare(b.id),
  );
  for (const recharge of inTime) {
    const fen = BigInt(recharge.amount);
    const at = secondsOf(recharge.booked_at);
    let best = -1;
    let bestGap = Number.POSITIVE_INFINITY;
    free.forEach((trade, i) => {
      if (trade.orderFen !== fen) return;
      const gap = Math.abs(secondsOf(trade.tradeTime) - at);
      const distance = Number.isNaN(gap) ? Number.MAX_VALUE : gap;
      if (best < 0 || distance < bestGap) {
        best = i;
        bestGap = distance;
      }
    });
    if (best < 0) left.push(recharge);
    else free.splice(best, 1);
  }
  return { trades: free, recharges: left };
}

/**
 * The comparison, pure: each SUCCESS trade of the bill against the order of its out_trade_no (not
 * paid here: `onlyKind`, wechat_only or alipay_only; paid with another amount: amount), and each
 * order paid here on the day that the bill does not list (local_only). Trades no order here knows are
 * then matched with the day's counter recharges of the channel (matchCounter): a trade left over is
 * `onlyKind`, a recharge left over counter_only. Refund trades are counted, not matched.
 */
export function compareBill(
  bill: { trades: readonly BillLine[] },
  mchid: string,
  orders: readonly LocalOrder[],
  counter: readonly CounterRecharge[] = [],
  onlyKind: ChannelOnlyKind = "wechat_only",
): FoundDiff[] {
  const byNo = new Map(orders.map((o) => [o.out_trade_no, o]));
  const billed = new Set<string>();
  const blank = { wxPayId: null, counterRechargeId: null };
  // The trades' differences in the bill's order; those of trades no order knows wait for the counter.
  const byTrade: { at: number; diff: FoundDiff }[] = [];
  const unknown: { orderFen: bigint; tradeTime: string; at: number }[] = [];
  bill.trades.forEach((trade, at) => {
    if (trade.tradeState !== "SUCCESS" || trade.mchid !== mchid || billed.has(trade.outTradeNo)) return;
    billed.add(trade.outTradeNo);
    const order = byNo.get(trade.outTradeNo);
    const base = {
      ...blank,
      outTradeNo: trade.outTradeNo.slice(0, 32),
      transactionId: trade.transactionId.slice(0, 32),
      wxPayId: order?.id ?? null,
      wechatFen: trade.orderFen,
      tradeTime: trade.tradeTime.slice(0, 32),
    };
    if (!order) unknown.push({ orderFen: trade.orderFen, tradeTime: trade.tradeTime, at });
    if (order?.state !== 1) byTrade.push({ at, diff: { ...base, kind: onlyKind, localFen: null } });
    else if (BigInt(order.amount) !== trade.orderFen)
      byTrade.push({ at, diff: { ...base, kind: "amount", localFen: BigInt(order.amount) } });
  });
  const left = matchCounter(unknown, counter);
  // A trade a counter recharge accounts for is no difference; the others stand where the bill has them.
  const matched = new Set(unknown.map((t) => t.at));
  for (const t of left.trades) matched.delete(t.at);
  const found = byTrade.filter((t) => !matched.has(t.at)).map((t) => t.diff);
  for (const order of orders) {
    if (order.state !== 1 || !order.in_day || billed.has(order.out_trade_no)) continue;
    found.push({
      ...blank,
      kind: "local_only",
      outTradeNo: order.out_trade_no,
      transactionId: order.transaction_id,
      wxPayId: order.id,
      wechatFen: null,
      localFen: BigInt(order.amount),
      tradeTime: order.paid_time?.toISOString() ?? "",
    });
  }
  for (const recharge of left.recharges)
    found.push({
      ...blank,
      kind: "counter_only",
      outTradeNo: recharge.receipt_no.slice(0, 32),
      transactionId: "",
      wechatFen: null,
      localFen: BigInt(recharge.amount),
      tradeTime: recharge.booked_at.slice(0, 32),
      counterRechargeId: recharge.id,
    });
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

/** The China calendar day of an instant (both channels cut their bills at midnight Beijing time). */
export const chinaDay = (at: Date) => new Date(at.getTime() + 8 * 3_600_000).toISOString().slice(0, 10);
