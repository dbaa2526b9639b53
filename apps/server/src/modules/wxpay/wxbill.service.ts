import { badRequest, notFound } from "../../contract/errors.ts";
import type { Db, Queryable } from "../../db/client.ts";
import { nextId } from "../../db/ids.ts";
import type { Actor } from "../money/account-book.ts";
import { type ApprovalGate, takeRecharge, within } from "../money/recharge.service.ts";
import { downloadTradeBill } from "./wxbill-download.ts";
import { loadMerchant, settleTransaction, type WxpayDeps } from "./wxpay.service.ts";
import type { TradeBill } from "./wxpay-bill.ts";
import { asApiError, type Merchant, WxpayCallError } from "./wxpay-client.ts";

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

async function upsertBill(db: Queryable, tenantId: string, mchid: string, day: string): Promise<string> {
  const [row] = await db.query<{ id: string }>(
    `insert into pms_wx_bill (id, tenant_id, mchid, bill_date, attempts) values ($1, $2, $3, $4, 1)
     on conflict (tenant_id, mchid, bill_date)
     do update set attempts = pms_wx_bill.attempts + 1, update_time = now()
     returning id::text as id`,
    [nextId(), tenantId, mchid, day],
  );
  return (row as { id: string }).id;
}

async function localOrders(db: Queryable, tenantId: string, mchid: string, day: string, nos: string[]) {
  return db.query<LocalOrder>(
    `select id::text as id, out_trade_no, amount::text as amount, state, transaction_id, paid_time,
            (state = 1 and paid_time >= ($3::date)::timestamp at time zone 'Asia/Shanghai'
              and paid_time < ($3::date + 1)::timestamp at time zone 'Asia/Shanghai') as in_day
       from pms_wx_pay
      where tenant_id = $1 and mchid = $2
        and (out_trade_no = any($4::varchar[])
             or (state = 1 and paid_time >= ($3::date)::timestamp at time zone 'Asia/Shanghai'
                 and paid_time < ($3::date + 1)::timestamp at time zone 'Asia/Shanghai'))`,
    [tenantId, mchid, day, nos],
  );
}

/**
 * Refunds left PROCESSING (WeChat Pay unreachable when asked, or its result not yet known) that the
 * bill lists as refunded are SUCCESS: their ledger refund was booked when they were made, so only
 * the status and WeChat Pay's refund id are written here.
 */
async function confirmRefunds(tx: Queryable, tenantId: string, bill: TradeBill) {
  for (const trade of bill.trades) {
    if (trade.tradeState !== "REFUND" || !trade.outRefundNo || trade.refundStatus !== "SUCCESS") continue;
    await tx.query(
      `update pms_wx_refund set status = 'SUCCESS', refund_id = $3, update_time = now()
        where tenant_id = $1 and out_refund_no = $2 and status = 'PROCESSING' and amount = $4`,
      [tenantId, trade.outRefundNo.slice(0, 64), trade.refundId.slice(0, 32), trade.refundFen.toString()],
    );
  }
}

/** Recounts a bill's open differences and its state from them. */
async function restate(tx: Queryable, billId: string) {
  await tx.query(
    `update pms_wx_bill b set open_count = d.n,
            state = case when d.n > 0 then 'differences' else 'balanced' end, update_time = now()
       from (select count(*)::int as n from pms_wx_bill_diff where bill_id = $1 and state = 'open') d
      where b.id = $1`,
    [billId],
  );
}

/**
 * Reconciles a tenant's China day: downloads the bill (hash and totals checked), compares it with
 * the wxpay orders, and stores the day's figures and differences. Re-running replaces the open
 * differences and keeps the settled ones. A bill that cannot be had or trusted marks the day failed
 * (with the reason) and lists nothing; the caller gets the error.
 */
export async function reconcileDay(deps: WxpayDeps, tenantId: string, day: string, merchant?: Merchant) {
  const m = merchant ?? (await loadMerchant(deps.db, deps.cipher, tenantId));
  const billId = await upsertBill(deps.db, tenantId, m.mchid, day);
  let bill: TradeBill;
  try {
    bill = await downloadTradeBill(m, day);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    await deps.db.query(
      "update pms_wx_bill set state = 'failed', error = $2, update_time = now() where id = $1",
      [billId, message.slice(0, 255)],
    );
    deps.log("wxpay bill failed", { tenantId, day, error: message });
    if (error instanceof WxpayCallError) throw asApiError(error);
    throw error;
  }
  const nos = [...new Set(bill.trades.map((t) => t.outTradeNo.slice(0, 32)))];
  await deps.db.transaction(async (tx) => {
    await tx.query("select id from pms_wx_bill where id = $1 for update", [billId]);
    const orders = await localOrders(tx, tenantId, m.mchid, day, nos);
    const diffs = compareBill(bill, m.mchid, orders);
    await tx.query("delete from pms_wx_bill_diff where bill_id = $1 and state = 'open'", [billId]);
    for (const d of diffs) {
      await tx.query(
        `insert into pms_wx_bill_diff (id, tenant_id, bill_id, bill_date, kind, out_trade_no, transaction_id,
                                       wx_pay_id, wechat_amount, local_amount, trade_time)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
         on conflict (bill_id, kind, out_trade_no) do nothing`,
        [
          nextId(),
          tenantId,
          billId,
          day,
          d.kind,
          d.outTradeNo,
          d.transactionId,
          d.wxPayId,
          d.wechatFen?.toString() ?? null,
          d.localFen?.toString() ?? null,
          d.tradeTime,
        ],
      );
    }
    await confirmRefunds(tx, tenantId, bill);
    const paid = orders.filter((o) => o.in_day);
    const successes = bill.trades.filter((t) => t.tradeState === "SUCCESS");
    await tx.query(
      `update pms_wx_bill set trade_count = $2, success_count = $3, refund_count = $4, settlement_total = $5,
              refund_total = $6, local_count = $7, local_total = $8, downloaded_time = now(), error = ''
        where id = $1`,
      [
        billId,
        bill.totals.count,
        successes.length,
        bill.trades.filter((t) => t.tradeState === "REFUND").length,
        successes.reduce((sum, t) => sum + t.orderFen, 0n).toString(),
        bill.totals.refundFen.toString(),
        paid.length,
        paid.reduce((sum, o) => sum + BigInt(o.amount), 0n).toString(),
      ],
    );
    await restate(tx, billId);
  });
  return billId;
}

interface DiffRow {
  id: string;
  bill_id: string;
  kind: DiffKind;
  out_trade_no: string;
  transaction_id: string;
  wx_pay_id: string | null;
  wechat_amount: string | null;
  local_amount: string | null;
  state: string;
}

export interface SettleInput {
  tenantId: string;
  id: string;
  action: string;
  reason: string;
  actor: Actor;
  /** The tenant's approval of money leaving an account (money-approval.ts): reversals and corrections minus pass it. */
  approval?: ApprovalGate;
}

/** A caller's transaction shaped as the Db settleTransaction opens its own transaction on. */
const joined = (db: Db, tx: Queryable): Db =>
  Object.assign(Object.create(db) as Db, {
    query: tx.query.bind(tx),
    transaction: <T>(fn: (inner: Queryable) => Promise<T>) => fn(tx),
  });

/**
 * Settles one open difference of the tenant with a reason, in one transaction with its money:
 * book (wechat_only of a known order: settleTransaction, which books it at most once), reverse
 * (local_only: a correction minus of the booked amount), correct (amount: the difference as a
 * correction plus or minus), acknowledge (no money). The row lock makes a second settle a 400.
 * Money leaving an account passes the tenant's approval like any correction minus: above its
 * threshold the correction waits for approval (linked, not yet in the ledger) and the answer says so.
 */
export async function settleDifference(deps: WxpayDeps, input: SettleInput) {
  const reason = input.reason.trim();
  if (!reason) throw badRequest("reason: 请填写处理原因");
  if (reason.length > REASON_MAX) throw badRequest(`reason: 处理原因最多 ${REASON_MAX} 个字符`);
  const action = input.action as SettleAction;
  if (!["book", "reverse", "correct", "acknowledge"].includes(action))
    throw badRequest("action: 只能是 book、reverse、correct 或 acknowledge");
  const merchant = action === "book" ? await loadMerchant(deps.db, deps.cipher, input.tenantId) : undefined;
  return deps.db.transaction(async (tx) => {
    const [diff] = await tx.query<DiffRow>(
      `select id::text as id, bill_id::text as bill_id, kind, out_trade_no, transaction_id,
              wx_pay_id::text as wx_pay_id, wechat_amount::text as wechat_amount,
              local_amount::text as local_amount, state
         from pms_wx_bill_diff where id = $1 and tenant_id = $2 for update`,
      [input.id, input.tenantId],
    );
    if (!diff) throw notFound("id: 对账差异不存在");
    if (diff.state !== "open") throw badRequest("id: 该差异已处理");
    if (!ACTIONS_OF[diff.kind].includes(action)) throw badRequest(`action: 该差异不能用 ${action} 处理`);
    const money = await moveMoney(deps, tx, input, diff, action, reason, merchant);
    await tx.query(
      `update pms_wx_bill_diff set state = 'settled', action = $2, reason = $3, operator = $4, settle_user = $5,
              settle_time = now(), recharge_id = $6, ledger_id = $7
        where id = $1`,
      [
        diff.id,
        action,
        reason,
        input.actor.name.slice(0, 64),
        input.actor.userId ?? null,
        money?.rechargeId ?? null,
        money?.ledgerId ?? null,
      ],
    );
    await restate(tx, diff.bill_id);
    return {
      id: diff.id,
      action,
      rechargeId: money?.rechargeId ?? "",
      // Above the tenant's approval threshold the operation waits for a second person: nothing booked yet.
      held: Boolean(money && !money.ledgerId),
    };
  });
}

async function ledgerOf(tx: Queryable, rechargeId: string) {
  const [row] = await tx.query<{ ledger_id: string | null }>(
    "select ledger_id::text as ledger_id from pms_recharge where id = $1",
    [rechargeId],
  );
  return { rechargeId, ledgerId: row?.ledger_id ?? null };
}

async function orderOf(tx: Queryable, tenantId: string, diff: DiffRow) {
  if (!diff.wx_pay_id) throw badRequest("action: 本系统没有这笔订单,只能确认不处理");
  const [order] = await tx.query<{ account_id: string; appid: string; mchid: string; state: number }>(
    `select account_id::text as account_id, appid, mchid, state
       from pms_wx_pay where id = $1 and tenant_id = $2 for update`,
    [diff.wx_pay_id, tenantId],
  );
  if (!order) throw badRequest("action: 本系统没有这笔订单,只能确认不处理");
  return order;
}

async function moveMoney(
  deps: WxpayDeps,
  tx: Queryable,
  input: SettleInput,
  diff: DiffRow,
  action: SettleAction,
  reason: string,
  merchant: Merchant | undefined,
): Promise<{ rechargeId: string; ledgerId: string | null } | undefined> {
  if (action === "acknowledge") return undefined;
  const order = await orderOf(tx, input.tenantId, diff);
  if (action === "book") {
    const outcome = await settleTransaction({ ...deps, db: joined(deps.db, tx) }, merchant as Merchant, {
      appid: order.appid,
      mchid: order.mchid,
      out_trade_no: diff.out_trade_no,
      transaction_id: diff.transaction_id,
      trade_state: "SUCCESS",
      amount: { total: Number(diff.wechat_amount) },
    });
    if (!outcome.ok) throw badRequest(`action: 无法入账 (${outcome.reason})`);
    const [paid] = await tx.query<{ recharge_id: string | null }>(
      "select recharge_id::text as recharge_id from pms_wx_pay where id = $1",
      [diff.wx_pay_id],
    );
    return paid?.recharge_id ? ledgerOf(tx, paid.recharge_id) : undefined;
  }
  const delta =
    action === "reverse"
      ? -BigInt(diff.local_amount ?? "0")
      : BigInt(diff.wechat_amount ?? "0") - BigInt(diff.local_amount ?? "0");
  if (delta === 0n) throw badRequest("action: 金额没有差异");
  const label = action === "reverse" ? "微信对账冲正" : "微信对账调整";
  const recharge = await takeRecharge(
    within(tx),
    input.tenantId,
    {
      accountId: order.account_id,
      energyType: 1,
      rechargeType: delta > 0n ? 3 : 4,
      paymentMethod: 5,
      amount: delta > 0n ? delta : -delta,
      remark: `${label} ${diff.out_trade_no}: ${reason}`.slice(0, 255),
      idempotencyKey: `wxbill-${diff.id}`,
    },
    input.actor,
    deps.timeZone,
    input.approval ? { approval: input.approval } : {},
  );
  return ledgerOf(tx, recharge.id);
}
