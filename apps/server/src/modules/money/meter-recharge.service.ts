import { fenToYuan } from "@meterline/billing";
import { badRequest } from "../../contract/errors.ts";
import type { Db, Queryable } from "../../db/client.ts";
import { nextId } from "../../db/ids.ts";
import { lockAccount } from "./account.repository.ts";
import type { Actor } from "./account-book.ts";
import { purchaseWrite, queueMeterWrites } from "./meter-purchase.ts";
import { insertRecharge, receiptNumber, resolveAccount } from "./recharge.repository.ts";
import { takeRecharge } from "./recharge.service.ts";
import type { RechargeRequest } from "./recharge-input.ts";

/**
 * A recharge as message/recharge and rechargeNew answer it. state: 1 booked, 0 waiting for the
 * meter to confirm the purchase write (commandId), 2 the write failed and nothing was booked.
 */
export interface MeterRechargeResult {
  id: string;
  receiptNo: string;
  accountId: string;
  amount: string;
  state: 0 | 1 | 2;
  commandId: string | null;
  /** Once booked; null while the meter has not confirmed. */
  balanceAfter: string | null;
  replayed: boolean;
}

/** The control model of an account of the tenant (0 local prepaid, 1 remote), or a 400 naming the field. */
async function controlOf(db: Db, tenantId: string, request: RechargeRequest): Promise<0 | 1> {
  const accountId = await resolveAccount(db, tenantId, request);
  const [row] = await db.query<{ control_status: 0 | 1 }>(
    "select control_status from pms_account where id = $1 and tenant_id = $2",
    [accountId, tenantId],
  );
  if (!row) throw badRequest("accountId: 账户不存在");
  return row.control_status;
}

/**
 * A recharge of a local-prepaid (CONTROL_STATUS 0) electric account: the purchase is written to
 * the meter, so nothing is booked here. One transaction holds the recharge (state 0, unique per
 * idempotency key: a replay answers the same recharge and never queues a second write) and the
 * purchase command; the command's settlement books it (see purchase-settlement.ts).
 */
export async function takeMeterRecharge(
  db: Db,
  tenantId: string,
  request: RechargeRequest,
  actor: Actor,
): Promise<MeterRechargeResult> {
  if (request.rechargeType !== 1) throw badRequest("rechargeType: 写表只能充值(1)");
  return db.transaction(async (tx) => {
    const accountId = await resolveAccount(tx, tenantId, request);
    const account = await lockAccount(tx, tenantId, accountId);
    if (!account) throw badRequest("accountId: 账户不存在");
    const id = nextId();
    const key = request.idempotencyKey ?? `auto-${id}`;
    const inserted = await insertRecharge(tx, { id, tenantId, accountId, request, state: 0, key, actor });
    if (!inserted) return replayOf(tx, tenantId, key, accountId, request.amount);
    if (account.status !== 1) throw badRequest("accountId: 账户已销户");
    if (account.control_status !== 0 || account.energy_type !== 1)
      throw badRequest("accountId: 该账户的余额由系统计费,不是本地费控表,请直接充值入账");
    const write = await purchaseWrite(tx, account, request.amount, { rechargeId: id }, "accountId");
    const [commandId] = await queueMeterWrites(tx, account, [write], "recharge/meter", actor);
    await tx.query("update pms_recharge set command_id = $2 where id = $1", [id, commandId]);
    return {
      id,
      receiptNo: receiptNumber(id),
      accountId,
      amount: fenToYuan(request.amount),
      state: 0,
      commandId: commandId!,
      balanceAfter: null,
      replayed: false,
    };
  });
}

/** The recharge a key already took, as it stands now; the same key for another operation is refused. */
async function replayOf(
  tx: Queryable,
  tenantId: string,
  key: string,
  accountId: string,
  amount: bigint,
): Promise<MeterRechargeResult> {
  const [row] = await tx.query<{
    id: string;
    receipt_no: string;
    account_id: string;
    amount: string;
    recharge_type: number;
    state: 0 | 1 | 2;
    command_id: string | null;
    balance_after: string | null;
  }>(
    `select id::text as id, receipt_no, account_id::text as account_id, amount::text as amount, recharge_type,
            state, command_id::text as command_id, balance_after::text as balance_after
       from pms_recharge where tenant_id = $1 and idempotency_key = $2`,
    [tenantId, key],
  );
  if (!row || row.account_id !== accountId || BigInt(row.amount) !== amount || row.recharge_type !== 1)
    throw badRequest("idempotencyKey: 该幂等键已用于另一笔操作");
  return {
    id: row.id,
    receiptNo: row.receipt_no,
    accountId: row.account_id,
    amount: fenToYuan(BigInt(row.amount)),
    state: row.state,
    commandId: row.command_id,
    balanceAfter: row.state === 1 && row.balance_after !== null ? fenToYuan(BigInt(row.balance_after)) : null,
    replayed: true,
  };
}

/**
 * rechargeNew: the counter's one call for any account. A remote-control account is booked at once
 * (as datarecharge/submit); a local-prepaid one has its purchase written to the meter.
 */
export async function takeAnyRecharge(
  db: Db,
  tenantId: string,
  request: RechargeRequest,
  actor: Actor,
  timeZone: string,
): Promise<MeterRechargeResult> {
  if (request.rechargeType !== 1) throw badRequest("rechargeType: 只能是充值(1)");
  if ((await controlOf(db, tenantId, request)) === 0) return takeMeterRecharge(db, tenantId, request, actor);
  const booked = await takeRecharge(db, tenantId, request, actor, timeZone);
  return { ...booked, state: 1, commandId: null };
}
