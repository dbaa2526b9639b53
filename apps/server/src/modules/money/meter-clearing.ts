import { fenToYuan, yuanToFen } from "@meterline/billing";
import type { CommandEvidence } from "@meterline/gateway";
import { badRequest } from "../../contract/errors.ts";
import type { Queryable } from "../../db/client.ts";
import { type LockedAccount, lockAccount, METER_TABLE } from "./account.repository.ts";
import { type Actor, book, LEDGER_TYPE } from "./account-book.ts";
import {
  countReadBack,
  knownPurchaseCount,
  queueMeterWrites,
  rememberPurchaseCount,
} from "./meter-purchase.ts";

const METER_WRITE: Actor = { name: "写表" };

/** What a clearing command carries for the gateway (amount, count) and for its settlement. */
export interface ClearingPayload {
  amount: string;
  purchaseCount: number;
  accountId: string;
  closeUser?: string;
}

/** The close record's outcome text, within its column. */
const outcome = (text: string) => text.slice(0, 255);

/**
 * Queues the account-clearing write that closing a local-prepaid account starts with: the meter gives
 * up the balance the books hold (the shadow of its last reading) as purchase count + 1. Nothing is
 * booked and the account stays open until the meter confirms (settleClearing). Returns the command id.
 */
export async function queueClearing(
  tx: Queryable,
  account: LockedAccount,
  balance: bigint,
  actor: Actor,
): Promise<string> {
  const count = await knownPurchaseCount(tx, account.meter_id);
  if (count === undefined)
    throw badRequest(`meterIds: 尚未抄到表计 ${account.meter_id} 的购电次数,请待抄表后再销户`);
  const payload: ClearingPayload = {
    amount: fenToYuan(balance),
    purchaseCount: count + 1,
    accountId: account.id,
    ...(actor.userId ? { closeUser: actor.userId } : {}),
  };
  const [commandId] = await queueMeterWrites(
    tx,
    account,
    [{ commandType: "clearing", payload: { ...payload } }],
    "account/close",
    actor,
  );
  await tx.query(
    `update pms_account set close_state = 0, close_command_id = $2, close_requested_time = now(),
            close_outcome = $3, close_user = $4, update_time = now()
      where id = $1`,
    [
      account.id,
      commandId,
      outcome(`销户清零已下发(${payload.amount} 元,购电次数 ${payload.purchaseCount}),待表计确认`),
      actor.userId || null,
    ],
  );
  return commandId!;
}

/**
 * The clearing write reached its outcome, in the transaction that moves the command there (so this
 * runs once). success: the meter gave the money up — the closing refund is booked, the account
 * closed and the meter free to open again. fail (refused, or a read-back proved it was not applied):
 * nothing is booked, the account stays open, and the close record says why.
 */
export async function settleClearing(
  tx: Queryable,
  command: { tenant_id: string; meter_id: string; payload: string },
  state: "success" | "fail",
  evidence: CommandEvidence,
  at: Date,
): Promise<void> {
  const payload = JSON.parse(command.payload) as ClearingPayload;
  const readCount = countReadBack(evidence);
  const account = await lockAccount(tx, command.tenant_id, payload.accountId);
  if (!account) throw new Error(`clearing for account ${payload.accountId}, which does not exist`);
  if (state === "fail") {
    if (readCount !== undefined)
      await rememberPurchaseCount(tx, command.tenant_id, command.meter_id, readCount, at);
    await tx.query(
      "update pms_account set close_state = 2, close_outcome = $2, update_time = now() where id = $1 and status = 1",
      [account.id, outcome(`表计未清零,未销户、未退款:${evidence.detail}`)],
    );
    return;
  }
  const amount = yuanToFen(payload.amount);
  await book(tx, account, {
    type: LEDGER_TYPE.closingRefund,
    amount: -amount,
    cause: `销户退款(表计清零确认,购电次数 ${payload.purchaseCount})`,
    actor: METER_WRITE,
  });
  await rememberPurchaseCount(
    tx,
    command.tenant_id,
    command.meter_id,
    Math.max(payload.purchaseCount, readCount ?? 0),
    at,
  );
  await tx.query(
    `update pms_account set status = 2, closed_time = $2, close_user = $3, arrears_cut = 0, cut_due_time = null,
            close_state = 1, close_outcome = $4, update_time = now()
      where id = $1`,
    [account.id, at, payload.closeUser ?? null, outcome(`表计已清零 ${payload.amount} 元,退款已入账`)],
  );
  await tx.query(`update ${METER_TABLE[account.energy_type]} set account_status = 0 where id = $1`, [
    account.meter_id,
  ]);
}
