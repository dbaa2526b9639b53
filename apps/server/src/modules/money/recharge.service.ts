import { fenToYuan } from "@meterline/billing";
import { badRequest, notFound } from "../../contract/errors.ts";
import type { Db, Queryable } from "../../db/client.ts";
import { nextId } from "../../db/ids.ts";
import { type LockedAccount, lockAccount } from "./account.repository.ts";
import { type Actor, book, LEDGER_TYPE, type LedgerType } from "./account-book.ts";
import { settleSupply } from "./arrears.ts";
import { COUNTER_CHANNEL, insertPayment } from "./payment.repository.ts";
import { insertRecharge, receiptNumber, resolveAccount } from "./recharge.repository.ts";
import type { RechargeRequest, RechargeType } from "./recharge-input.ts";

const LEDGER_OF: Record<RechargeType, LedgerType> = {
  1: LEDGER_TYPE.recharge,
  2: LEDGER_TYPE.refund,
  3: LEDGER_TYPE.correctionPlus,
  4: LEDGER_TYPE.correctionMinus,
};
/** Refunds and corrections minus take money off the balance. */
const SIGN: Record<RechargeType, 1n | -1n> = { 1: 1n, 2: -1n, 3: 1n, 4: -1n };

export interface RechargeResult {
  id: string;
  receiptNo: string;
  accountId: string;
  amount: string;
  balanceAfter: string;
  /** True when the idempotency key had already booked this operation: nothing was booked again. */
  replayed: boolean;
  /** 1 booked; 3 waiting for approval (nothing booked yet); 4 rejected (nothing booked). */
  state: number;
  /** The approval's process instance, when the operation waits (or waited) for one. */
  processInstanceId?: string;
}

/** Money leaving an account: refunds and corrections minus. */
export const takesMoney = (rechargeType: RechargeType) => SIGN[rechargeType] < 0n;

/**
 * Holds money leaving an account for a second person's approval: given the operation as stored
 * (state not yet booked), answers the approval's instance id, or undefined to book at once.
 */
export type ApprovalGate = (
  tx: Queryable,
  held: { id: string; tenantId: string; accountId: string; request: RechargeRequest },
) => Promise<string | undefined>;

/** The account's own rules for an operation about to be booked. */
function checkAccount(account: LockedAccount, rechargeType: RechargeType, amount: bigint) {
  if (account.status !== 1) throw badRequest("accountId: 账户已销户");
  if (account.control_status !== 1) throw badRequest("accountId: 本地费控表的余额在表内,请用表计充值(写表)");
  if (rechargeType === 2 && amount > BigInt(account.balance))
    throw badRequest(`amount: 退款金额不能超过余额 ${fenToYuan(BigInt(account.balance))} 元`);
}

/**
 * Books a recharge, refund or correction on an account held by the server (remote control). One
 * transaction: the operation row (unique per idempotency key, so a double submit books once), the
 * account lock, the rules, the ledger entry. A mistake is never deleted; it is reversed by a
 * correction, and both stay in the ledger. A recharge paid at the counter records its paid payment
 * in the same transaction; a recharge a payment pays for (`paymentId`, its confirmation) is linked
 * to that payment instead. `db` may be a caller's transaction (see `within`).
 */
export async function takeRecharge(
  db: Pick<Db, "transaction">,
  tenantId: string,
  request: RechargeRequest,
  actor: Actor,
  timeZone: string,
  options: { paymentId?: string; approval?: ApprovalGate } = {},
): Promise<RechargeResult> {
  return db.transaction(async (tx) => {
    const accountId = await resolveAccount(tx, tenantId, request);
    // The lock comes first: two submits of one key queue here, and the second finds the first's row.
    const account = await lockAccount(tx, tenantId, accountId);
    if (!account) throw notFound("accountId: 账户不存在");
    const id = nextId();
    const key = request.idempotencyKey ?? `auto-${id}`;
    const inserted = await insertRecharge(tx, { id, tenantId, accountId, request, state: 1, key, actor });
    if (!inserted) return replay(tx, tenantId, key, accountId, request);
    checkAccount(account, request.rechargeType, request.amount);
    const sign = SIGN[request.rechargeType];
    const approvalId =
      takesMoney(request.rechargeType) && options.approval
        ? await options.approval(tx, { id, tenantId, accountId, request })
        : undefined;
    if (approvalId) {
      // Nothing is booked: the ledger sees this operation only once it is approved (bookApproved).
      await tx.query(
        "update pms_recharge set state = 3, approval_instance_id = $2, update_time = now() where id = $1",
        [id, approvalId],
      );
      return {
        id,
        receiptNo: receiptNumber(id),
        accountId,
        amount: fenToYuan(request.amount),
        balanceAfter: fenToYuan(BigInt(account.balance)),
        replayed: false,
        state: 3,
        processInstanceId: approvalId,
      };
    }
    const booked = await book(tx, account, {
      type: LEDGER_OF[request.rechargeType],
      amount: sign * request.amount,
      cause: request.remark,
      actor,
      rechargeId: id,
    });
    await settleSupply(tx, account, new Date(), timeZone);
    // Money taken at the counter is a paid payment of its own; a confirmed order already is one.
    const paymentId =
      options.paymentId ??
      (request.rechargeType === 1
        ? await insertPayment(tx, {
            tenantId,
            accountId,
            amount: request.amount,
            paymentMethod: request.paymentMethod,
            channel: COUNTER_CHANNEL,
            state: 1,
            transactionNo: receiptNumber(id),
            remark: request.remark,
            actor,
          })
        : null);
    await tx.query(
      "update pms_recharge set ledger_id = $2, balance_after = $3, payment_id = $4 where id = $1 and tenant_id = $5",
      [id, booked.ledgerId, booked.balanceAfter.toString(), paymentId, tenantId],
    );
    return {
      id,
      receiptNo: receiptNumber(id),
      accountId,
      amount: fenToYuan(request.amount),
      balanceAfter: fenToYuan(booked.balanceAfter),
      replayed: false,
      state: 1,
    };
  });
}

/**
 * Books an operation that waited for approval (state 3), once: a second call (a retried step, a
 * second approver) finds it no longer waiting and books nothing. The account's rules are checked
 * again, as they stand now (a refund may no longer fit the balance). The ledger names the requester.
 */
export async function bookApproved(
  tx: Queryable,
  tenantId: string,
  rechargeId: string,
  timeZone: string,
): Promise<boolean> {
  const [row] = await tx.query<{
    account_id: string;
    recharge_type: RechargeType;
    amount: string;
    remark: string;
    create_user: string | null;
    operator: string;
    state: number;
  }>(
    `select account_id, recharge_type, amount, remark, create_user, operator, state
       from pms_recharge where id = $1 and tenant_id = $2 for update`,
    [rechargeId, tenantId],
  );
  if (row?.state !== 3) return false;
  const account = await lockAccount(tx, tenantId, row.account_id);
  if (!account) throw notFound("accountId: 账户不存在");
  const amount = BigInt(row.amount);
  checkAccount(account, row.recharge_type, amount);
  const booked = await book(tx, account, {
    type: LEDGER_OF[row.recharge_type],
    amount: SIGN[row.recharge_type] * amount,
    cause: row.remark,
    actor: { ...(row.create_user ? { userId: row.create_user } : {}), name: row.operator },
    rechargeId,
  });
  await settleSupply(tx, account, new Date(), timeZone);
  await tx.query(
    "update pms_recharge set state = 1, ledger_id = $2, balance_after = $3, update_time = now() where id = $1",
    [rechargeId, booked.ledgerId, booked.balanceAfter.toString()],
  );
  return true;
}

/** Marks an operation that waited for approval as rejected, with the reason; nothing is booked. */
export async function rejectHeld(tx: Queryable, tenantId: string, rechargeId: string, reason: string) {
  const rows = await tx.query(
    `update pms_recharge set state = 4, approval_note = $3, update_time = now()
      where id = $1 and tenant_id = $2 and state = 3 returning id`,
    [rechargeId, tenantId, reason.slice(0, 1000)],
  );
  return rows.length > 0;
}

/** The operation an idempotency key already booked; the same key for a different operation is refused. */
async function replay(
  tx: Queryable,
  tenantId: string,
  key: string,
  accountId: string,
  request: RechargeRequest,
): Promise<RechargeResult> {
  const [row] = await tx.query<{
    id: string;
    receipt_no: string;
    account_id: string;
    amount: string;
    recharge_type: number;
    balance_after: string | null;
    state: number;
    approval_instance_id: string | null;
  }>(
    `select id, receipt_no, account_id, amount, recharge_type, balance_after, state,
            approval_instance_id::text as approval_instance_id
       from pms_recharge where tenant_id = $1 and idempotency_key = $2`,
    [tenantId, key],
  );
  if (
    !row ||
    row.account_id !== accountId ||
    BigInt(row.amount) !== request.amount ||
    row.recharge_type !== request.rechargeType
  )
    throw badRequest("idempotencyKey: 该幂等键已用于另一笔操作");
  return {
    id: row.id,
    receiptNo: row.receipt_no,
    accountId: row.account_id,
    amount: fenToYuan(BigInt(row.amount)),
    balanceAfter: fenToYuan(BigInt(row.balance_after ?? "0")),
    replayed: true,
    state: row.state,
    ...(row.approval_instance_id ? { processInstanceId: row.approval_instance_id } : {}),
  };
}

/** A caller's open transaction as a `db` for takeRecharge: its work joins that transaction (all or nothing). */
export const within = (tx: Queryable): Pick<Db, "transaction"> => ({ transaction: (fn) => fn(tx) });
