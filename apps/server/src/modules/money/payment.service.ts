import { badRequest, notFound } from "../../contract/errors.ts";
import type { Db, Queryable } from "../../db/client.ts";
import { openAccountOf } from "./account.repository.ts";
import type { Actor } from "./account-book.ts";
import {
  type Channel,
  deletePayments,
  insertPayment,
  lockPayment,
  type PaymentRow,
  paymentStates,
  updatePayment,
} from "./payment.repository.ts";
import type { PaymentInput } from "./payment-input.ts";
import { takeRecharge, within } from "./recharge.service.ts";

export interface PaymentOutcome {
  id: string;
  /** True when this call booked the payment's recharge; a repeated confirmation books nothing. */
  booked: boolean;
}

/** Money paid online comes in online; every other method is taken at the counter unless told. */
const defaultChannel = (method: number): Channel => (method === 5 ? "online" : "counter");

/** The idempotency key of the recharge a payment pays for: one payment books at most one recharge. */
export const paymentKey = (paymentId: string) => `pay-${paymentId}`;

/** The open, server-kept account a payment is for (accountId, or meterId with energyType). */
async function paymentAccount(tx: Queryable, tenantId: string, input: PaymentInput): Promise<string> {
  let accountId = input.accountId;
  if (!accountId) {
    if (!input.meterId) throw badRequest("accountId: 请选择账户或表计");
    accountId = await openAccountOf(tx, tenantId, input.energyType, input.meterId);
    if (!accountId) throw badRequest("meterId: 该表计尚未开户");
  }
  const [account] = await tx.query<{ status: number; control_status: number }>(
    "select status, control_status from pms_account where id = $1 and tenant_id = $2",
    [accountId, tenantId],
  );
  if (!account) throw notFound("accountId: 账户不存在");
  if (account.status !== 1) throw badRequest("accountId: 账户已销户");
  if (account.control_status !== 1) throw badRequest("accountId: 本地费控表的余额在表内,请用表计充值(写表)");
  return accountId;
}

/** Marks a locked unpaid (or failed) payment paid and books its recharge, in the caller's transaction. */
async function confirm(tx: Queryable, tenantId: string, row: PaymentRow, actor: Actor, timeZone: string) {
  if (!row.transaction_no) throw badRequest("transactionNo: 确认到账需填写交易号");
  await takeRecharge(
    within(tx),
    tenantId,
    {
      accountId: row.account_id,
      energyType: 1,
      rechargeType: 1,
      paymentMethod: row.payment_method,
      amount: BigInt(row.amount),
      remark: row.remark,
      idempotencyKey: paymentKey(row.id),
    },
    actor,
    timeZone,
    { paymentId: row.id },
  );
  row.state = 1;
  await updatePayment(tx, row, { at: "now" });
}

/**
 * Confirms an unpaid (or failed) payment inside the caller's transaction, as an online channel's
 * notification does: its recharge is booked once, and a payment already paid books nothing more.
 * Answers the recharge it paid for (null when the payment does not exist).
 */
export async function confirmPaymentIn(
  tx: Queryable,
  tenantId: string,
  paymentId: string,
  transactionNo: string,
  actor: Actor,
  timeZone: string,
): Promise<{ booked: boolean; rechargeId: string } | null> {
  const row = await lockPayment(tx, tenantId, paymentId);
  if (!row) return null;
  const booked = row.state !== 1;
  if (booked) {
    row.transaction_no = transactionNo;
    await confirm(tx, tenantId, row, actor, timeZone);
  }
  const [recharge] = await tx.query<{ id: string }>(
    "select id::text as id from pms_recharge where tenant_id = $1 and idempotency_key = $2",
    [tenantId, paymentKey(paymentId)],
  );
  return { booked, rechargeId: recharge?.id ?? "" };
}

/** Closes an unpaid payment whose order will never be paid (closed or failed at the channel). */
export async function closePaymentIn(tx: Queryable, tenantId: string, paymentId: string): Promise<void> {
  const row = await lockPayment(tx, tenantId, paymentId);
  if (row?.state !== 0) return;
  row.state = 2;
  await updatePayment(tx, row, { at: "unchanged" });
}

/** payment/save: an order for an owner's account, unpaid until a confirmation (payment/submit) says it was paid. */
export function savePayment(db: Db, tenantId: string, input: PaymentInput, actor: Actor, timeZone: string) {
  if (input.id) throw badRequest("id: 新增支付单不能带 id,修改请用 submit");
  if (input.state !== undefined && input.state !== 0)
    throw badRequest("state: 新增的支付单为未支付,到账后请用 submit 确认");
  return submitPayment(db, tenantId, input, actor, timeZone);
}

/**
 * payment/submit, create-or-update (contract: `submit`): without id a new payment (unpaid, or paid
 * at once with state 1 and a transaction number); with id a change of an unpaid or failed one, where
 * state 1 confirms it and books its recharge, and state 2 closes it. A paid payment keeps its amount,
 * account, method, channel and transaction number: confirming it again books nothing more.
 */
export function submitPayment(
  db: Db,
  tenantId: string,
  input: PaymentInput,
  actor: Actor,
  timeZone: string,
): Promise<PaymentOutcome> {
  return db.transaction(async (tx) => {
    if (!input.id) return create(tx, tenantId, input, actor, timeZone);
    // The lock queues two confirmations of one payment: the second finds it paid.
    const row = await lockPayment(tx, tenantId, input.id);
    if (!row) throw notFound("id: 支付单不存在");
    if (row.state === 1) return keepPaid(tx, row, input);
    if (input.state === 0 && row.state === 2) throw badRequest("state: 已关闭的支付单不能改回未支付");
    if (input.accountId || input.meterId) row.account_id = await paymentAccount(tx, tenantId, input);
    if (input.amount !== undefined) row.amount = input.amount.toString();
    if (input.paymentMethod !== undefined) row.payment_method = input.paymentMethod;
    if (input.channel !== undefined) row.channel = input.channel;
    if (input.transactionNo !== undefined) row.transaction_no = input.transactionNo;
    if (input.remark !== undefined) row.remark = input.remark;
    if (input.state === 1) {
      await confirm(tx, tenantId, row, actor, timeZone);
      return { id: row.id, booked: true };
    }
    if (input.state === 2) row.state = 2;
    await updatePayment(tx, row, { at: "unchanged" });
    return { id: row.id, booked: false };
  });
}

async function create(
  tx: Queryable,
  tenantId: string,
  input: PaymentInput,
  actor: Actor,
  timeZone: string,
): Promise<PaymentOutcome> {
  if (input.amount === undefined) throw badRequest("amount: 请输入金额");
  if (input.state === 2) throw badRequest("state: 新建的支付单只能是未支付(0)或已支付(1)");
  if (input.state === 1 && !input.transactionNo) throw badRequest("transactionNo: 确认到账需填写交易号");
  const accountId = await paymentAccount(tx, tenantId, input);
  const method = input.paymentMethod ?? 1;
  const id = await insertPayment(tx, {
    tenantId,
    accountId,
    amount: input.amount,
    paymentMethod: method,
    channel: input.channel ?? defaultChannel(method),
    state: 0,
    transactionNo: input.transactionNo ?? "",
    remark: input.remark ?? "",
    actor,
  });
  if (!id) throw notFound("accountId: 账户不存在");
  if (input.state !== 1) return { id, booked: false };
  const row = await lockPayment(tx, tenantId, id);
  if (!row) throw new Error(`payment ${id} vanished inside its own transaction`);
  await confirm(tx, tenantId, row, actor, timeZone);
  return { id, booked: true };
}

/** A paid payment: the money is booked, only its remark may change; the same confirmation again is a no-op. */
async function keepPaid(tx: Queryable, row: PaymentRow, input: PaymentInput): Promise<PaymentOutcome> {
  const changed: [string, boolean][] = [
    ["amount", input.amount !== undefined && input.amount.toString() !== row.amount],
    ["accountId", input.accountId !== undefined && input.accountId !== row.account_id],
    ["meterId", input.meterId !== undefined && input.meterId !== row.meter_id],
    ["paymentMethod", input.paymentMethod !== undefined && input.paymentMethod !== row.payment_method],
    ["channel", input.channel !== undefined && input.channel !== row.channel],
  ];
  const field = changed.find(([, differs]) => differs)?.[0];
  if (field) throw badRequest(`${field}: 已支付的支付单不能修改金额、账户、支付方式和渠道`);
  if (input.state !== undefined && input.state !== 1)
    throw badRequest("state: 已支付的支付单不能改为未支付或关闭,退款请做退费");
  if (input.transactionNo !== undefined && input.transactionNo !== row.transaction_no)
    throw badRequest("transactionNo: 已支付的支付单交易号不能修改");
  if (input.remark !== undefined && input.remark !== row.remark) {
    row.remark = input.remark;
    await updatePayment(tx, row, { at: "unchanged" });
  }
  return { id: row.id, booked: false };
}

/** payment/remove: unpaid and failed payments go; a paid one is refused by id, and then nothing goes. */
export function removePayments(db: Db, tenantId: string, ids: string[]): Promise<number> {
  return db.transaction(async (tx) => {
    const found = await paymentStates(tx, tenantId, ids);
    if (found.length === 0) throw notFound("ids: 支付单不存在");
    const paid = found.filter((p) => p.state === 1).map((p) => p.id);
    if (paid.length > 0) throw badRequest(`ids: 已支付的支付单不能删除: ${paid.join(",")}`);
    return deletePayments(tx, tenantId, ids);
  });
}
