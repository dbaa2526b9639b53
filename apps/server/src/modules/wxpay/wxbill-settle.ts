import { badRequest, notFound } from "../../contract/errors.ts";
import type { Db, Queryable } from "../../db/client.ts";
import type { Actor } from "../money/account-book.ts";
import { type ApprovalGate, takeRecharge, within } from "../money/recharge.service.ts";
import { restate } from "./wxbill.service.ts";
import { ACTIONS_OF, type DiffKind, REASON_MAX, type SettleAction } from "./wxbill-compare.ts";
import { DIFF_STATE_SQL } from "./wxbill-reads.ts";
import { loadMerchant, settleTransaction, type WxpayDeps } from "./wxpay.service.ts";
import type { Merchant } from "./wxpay-client.ts";

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
  /** The recharge an earlier settlement took (rejected in approval when the difference is open again). */
  recharge_id: string | null;
  /** counter_only: the counter recharge recorded as WeChat. */
  counter_recharge_id: string | null;
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
 * (local_only, or counter_only: a correction minus of the booked amount), correct (amount: the difference as a
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
              local_amount::text as local_amount, ${DIFF_STATE_SQL} as state, recharge_id::text as recharge_id,
              counter_recharge_id::text as counter_recharge_id
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
  const [order] = await tx.query<{
    account_id: string;
    energy_type: 1 | 2;
    appid: string;
    mchid: string;
    state: number;
  }>(
    `select w.account_id::text as account_id, a.energy_type, w.appid, w.mchid, w.state
       from pms_wx_pay w join pms_account a on a.id = w.account_id and a.tenant_id = w.tenant_id
      where w.id = $1 and w.tenant_id = $2 for update of w`,
    [diff.wx_pay_id, tenantId],
  );
  if (!order) throw badRequest("action: 本系统没有这笔订单,只能确认不处理");
  return order;
}

/** The account a counter recharge went to: a counter_only difference's money is taken back there. */
async function counterAccountOf(tx: Queryable, tenantId: string, diff: DiffRow) {
  const [recharge] = await tx.query<{ account_id: string; energy_type: 1 | 2; payment_method: number }>(
    `select account_id::text as account_id, energy_type, payment_method from pms_recharge
      where id = $1 and tenant_id = $2`,
    [diff.counter_recharge_id, tenantId],
  );
  if (!recharge) throw badRequest("action: 本系统没有这笔充值,只能确认不处理");
  return recharge;
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
  if (action === "book") {
    const order = await orderOf(tx, input.tenantId, diff);
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
  // A counter recharge is taken back from its own account, under its own payment method.
  const target =
    diff.kind === "counter_only"
      ? await counterAccountOf(tx, input.tenantId, diff)
      : { ...(await orderOf(tx, input.tenantId, diff)), payment_method: 5 };
  const label = action === "reverse" ? "微信对账冲正" : "微信对账调整";
  const recharge = await takeRecharge(
    within(tx),
    input.tenantId,
    {
      accountId: target.account_id,
      energyType: target.energy_type,
      rechargeType: delta > 0n ? 3 : 4,
      paymentMethod: target.payment_method,
      amount: delta > 0n ? delta : -delta,
      remark: `${label} ${diff.out_trade_no}: ${reason}`.slice(0, 255),
      // A settlement rejected in approval may be made again: a new key after each rejected one.
      idempotencyKey: diff.recharge_id ? `wxbill-${diff.id}-${diff.recharge_id}` : `wxbill-${diff.id}`,
    },
    input.actor,
    deps.timeZone,
    input.approval ? { approval: input.approval } : {},
  );
  return ledgerOf(tx, recharge.id);
}
