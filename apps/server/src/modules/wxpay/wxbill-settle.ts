import { badRequest, notFound } from "../../contract/errors.ts";
import type { Db, Queryable } from "../../db/client.ts";
import type { Actor } from "../money/account-book.ts";
import { type ApprovalGate, takeRecharge, within } from "../money/recharge.service.ts";
import type { BillChannel } from "./bill-channel.ts";
import { BILL_CHANNEL_OF } from "./bill-channels.ts";
import { restate } from "./wxbill.service.ts";
import {
  ACTIONS_OF,
  type BillChannelName,
  type DiffKind,
  REASON_MAX,
  type SettleAction,
} from "./wxbill-compare.ts";
import { DIFF_STATE_SQL } from "./wxbill-reads.ts";
import type { WxpayDeps } from "./wxpay.service.ts";

interface DiffRow {
  id: string;
  bill_id: string;
  channel: BillChannelName;
  kind: DiffKind;
  out_trade_no: string;
  transaction_id: string;
  /** The channel's order (pms_wx_pay or pms_alipay_pay). */
  wx_pay_id: string | null;
  /** What the channel's bill has. */
  wechat_amount: string | null;
  local_amount: string | null;
  trade_time: string;
  state: string;
  /** The recharge an earlier settlement took (rejected in approval when the difference is open again). */
  recharge_id: string | null;
  /** counter_only: the counter recharge recorded with the channel's payment method. */
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

/** A caller's transaction shaped as the Db a channel's booking opens its own transaction on. */
const joined = (db: Db, tx: Queryable): Db =>
  Object.assign(Object.create(db) as Db, {
    query: tx.query.bind(tx),
    transaction: <T>(fn: (inner: Queryable) => Promise<T>) => fn(tx),
  });

/**
 * Settles one open difference of the tenant with a reason, in one transaction with its money, the
 * same for both channels: book (wechat_only / alipay_only of a known order: booked as the channel's
 * notification would be, at most once), reverse
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
  return deps.db.transaction(async (tx) => {
    const [diff] = await tx.query<DiffRow>(
      `select id::text as id, bill_id::text as bill_id, channel, kind, out_trade_no, transaction_id,
              wx_pay_id::text as wx_pay_id, wechat_amount::text as wechat_amount,
              local_amount::text as local_amount, trade_time, ${DIFF_STATE_SQL} as state, recharge_id::text as recharge_id,
              counter_recharge_id::text as counter_recharge_id
         from pms_wx_bill_diff where id = $1 and tenant_id = $2 for update`,
      [input.id, input.tenantId],
    );
    if (!diff) throw notFound("id: 对账差异不存在");
    if (diff.state !== "open") throw badRequest("id: 该差异已处理");
    if (!ACTIONS_OF[diff.kind].includes(action)) throw badRequest(`action: 该差异不能用 ${action} 处理`);
    const money = await moveMoney(deps, tx, input, diff, action, reason);
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

/** The account of the difference's order at its channel, locked; 400 when this system has no such order. */
async function orderOf(tx: Queryable, channel: BillChannel, tenantId: string, diff: DiffRow) {
  const order = diff.wx_pay_id ? await channel.lockOrderAccount(tx, tenantId, diff.wx_pay_id) : undefined;
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
): Promise<{ rechargeId: string; ledgerId: string | null } | undefined> {
  if (action === "acknowledge") return undefined;
  const channel = BILL_CHANNEL_OF[diff.channel];
  if (action === "book") {
    await orderOf(tx, channel, input.tenantId, diff);
    const booked = await channel.bookOrder({ ...deps, db: joined(deps.db, tx) }, input.tenantId, {
      orderId: diff.wx_pay_id as string,
      outTradeNo: diff.out_trade_no,
      transactionId: diff.transaction_id,
      billFen: BigInt(diff.wechat_amount ?? "0"),
      tradeTime: diff.trade_time,
    });
    if ("refused" in booked) throw badRequest(`action: 无法入账 (${booked.refused})`);
    return booked.rechargeId ? ledgerOf(tx, booked.rechargeId) : undefined;
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
      : { ...(await orderOf(tx, channel, input.tenantId, diff)), payment_method: channel.orderPaymentMethod };
  const label = action === "reverse" ? channel.labels.reverse : channel.labels.correct;
  const key = `${channel.keyPrefix}-${diff.id}`;
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
      idempotencyKey: diff.recharge_id ? `${key}-${diff.recharge_id}` : key,
    },
    input.actor,
    deps.timeZone,
    input.approval ? { approval: input.approval } : {},
  );
  return ledgerOf(tx, recharge.id);
}
