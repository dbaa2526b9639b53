import { fenToYuan } from "@meterline/billing";
import { badRequest, notFound } from "../../contract/errors.ts";
import type { Db, Queryable } from "../../db/client.ts";
import { lockAccount, METER_TABLE, openAccountOf } from "./account.repository.ts";
import { type Actor, book, LEDGER_TYPE } from "./account-book.ts";
import { queueClearing } from "./meter-clearing.ts";
import { openPurchase } from "./meter-purchase.ts";
import { type PricedReading, priceReading, priceReadingIn } from "./usage-pricing.ts";

export interface ClosedAccount {
  accountId: string;
  meterId: string;
  /** Paid back to the owner (yuan). */
  refunded: string;
  /** Left owing when the balance was below zero (yuan); kept on the closed account. */
  debt: string;
  /**
   * 1 closed; 0 a local-prepaid meter is being cleared first (commandId): the refund is booked and
   * the account closed when the meter confirms, and datacloseaccount shows the outcome; 3 the
   * refund waits for approval (processInstanceId): nothing booked, the account still open.
   */
  state: 0 | 1 | 3;
  commandId: string | null;
  processInstanceId?: string;
}

/**
 * Asked before a closing pays money back (closing-approval.ts): answers the closing held for
 * approval, or undefined to close now. It may also refuse (throw).
 */
export type ClosingHold = (
  tx: Queryable,
  closing: { tenantId: string; energyType: 1 | 2; meterId: string; accountId: string; amount: bigint },
) => Promise<ClosedAccount | undefined>;

/** The meter's latest registers as a reading to price, so a close settles usage up to it. */
export async function latestReading(
  q: Queryable,
  tenantId: string,
  energyType: 1 | 2,
  meterId: string,
): Promise<PricedReading | undefined> {
  const [current] = await q.query<{
    read_time: Date;
    total_value: string | null;
    tip_value: string | null;
    peak_value: string | null;
    peace_value: string | null;
    low_value: string | null;
  }>(
    `select read_time, total_value::text as total_value, tip_value::text as tip_value, peak_value::text as peak_value,
            peace_value::text as peace_value, low_value::text as low_value
       from pms_meter_current_data where tenant_id = $1 and energy_type = $2 and meter_id = $3`,
    [tenantId, energyType, meterId],
  );
  if (!current?.total_value) return undefined;
  return {
    tenantId,
    energyType,
    meterId,
    at: current.read_time,
    registers: {
      total: current.total_value,
      bands: {
        tip: current.tip_value,
        peak: current.peak_value,
        peace: current.peace_value,
        low: current.low_value,
      },
    },
  };
}

async function closeOne(
  tx: Queryable,
  tenantId: string,
  energyType: 1 | 2,
  meterId: string,
  actor: Actor,
  hold?: ClosingHold,
): Promise<ClosedAccount> {
  const accountId = await openAccountOf(tx, tenantId, energyType, meterId);
  if (!accountId) throw badRequest(`meterIds: 表计 ${meterId} 未开户`);
  const account = await lockAccount(tx, tenantId, accountId);
  // A purchase still on its way to the meter would be booked after the closing refund.
  if (energyType === 1 && (await openPurchase(tx, tenantId, meterId)))
    throw badRequest(`meterIds: 表计 ${meterId} 仍有未确认的写表充值或清零,请待表计确认后再销户`);
  if (!account) throw notFound();
  const balance = BigInt(account.balance);
  // Money paid back may need a second person first (before a meter is cleared, too).
  const held =
    balance > 0n && hold
      ? await hold(tx, { tenantId, energyType, meterId, accountId, amount: balance })
      : undefined;
  if (held) return held;
  // A local-prepaid meter holds the money itself: refunding it while the meter can still spend it
  // would pay it twice. The meter is cleared first; the refund waits for its confirmation.
  if (account.control_status === 0 && energyType === 1 && balance > 0n) {
    const commandId = await queueClearing(tx, account, balance, actor);
    return { accountId, meterId, refunded: "0.00", debt: "0.00", state: 0 as const, commandId };
  }
  if (balance > 0n)
    await book(tx, account, { type: LEDGER_TYPE.closingRefund, amount: -balance, cause: "销户退款", actor });
  await tx.query(
    `update pms_account set status = 2, closed_time = now(), close_user = $2, arrears_cut = 0, cut_due_time = null,
            close_state = 1, close_outcome = null where id = $1`,
    [accountId, actor.userId || null],
  );
  await tx.query(`update ${METER_TABLE[energyType]} set account_status = 0 where id = $1`, [meterId]);
  return {
    accountId,
    meterId,
    refunded: fenToYuan(balance > 0n ? balance : 0n),
    debt: fenToYuan(balance < 0n ? -balance : 0n),
    state: 1 as const,
    commandId: null,
  };
}

/**
 * Closes one meter's account inside the caller's transaction (a meter of an account-closing job):
 * usage priced up to the last reading, then closed as closeAccounts closes each of its meters.
 */
export async function closeAccountIn(
  tx: Queryable,
  tenantId: string,
  energyType: 1 | 2,
  meterId: string,
  actor: Actor,
  timeZone: string,
  hold?: ClosingHold,
): Promise<ClosedAccount> {
  const reading = await latestReading(tx, tenantId, energyType, meterId);
  if (reading) await priceReadingIn(tx, reading, timeZone);
  return closeOne(tx, tenantId, energyType, meterId, actor, hold);
}

/**
 * Closes meters' accounts (message/closeAccount, waterparam/overAccountBatch): usage priced up to
 * the last reading, the remaining balance paid back as a closing refund (or a debt recorded when it
 * is below zero), the account closed and the meter free to open again. All or nothing. A
 * local-prepaid meter with money in it is cleared first and closes when it confirms (state 0).
 */
export async function closeAccounts(
  db: Db,
  tenantId: string,
  energyType: 1 | 2,
  meterIds: string[],
  actor: Actor,
  timeZone: string,
  hold?: ClosingHold,
  /**
   * Done for each meter closed or being cleared, in the same transaction (the desk's supply cut,
   * closing-supply.ts); not for a close held for approval, which has not happened yet.
   */
  afterEach?: (tx: Queryable, closed: ClosedAccount) => Promise<void>,
): Promise<ClosedAccount[]> {
  for (const meterId of meterIds) {
    const reading = await latestReading(db, tenantId, energyType, meterId);
    if (reading) await priceReading(db, reading, timeZone);
  }
  return db.transaction(async (tx) => {
    const closed: ClosedAccount[] = [];
    for (const meterId of meterIds) {
      const one = await closeOne(tx, tenantId, energyType, meterId, actor, hold);
      if (one.state !== 3) await afterEach?.(tx, one);
      closed.push(one);
    }
    return closed;
  });
}
