import { type ProtectionWindows, protectionEnds, shouldCut } from "@meterline/billing";
import type { Db, Queryable } from "../../db/client.ts";
import { serviceUser } from "../auth/current-user.ts";
import { queueSupplyCommands } from "../operations/switching.ts";
import { type LockedAccount, lockAccount } from "./account.repository.ts";
import { thresholdsOf } from "./account-book.ts";

/** How long a cut the queue could not take (an open supply command, no collector) waits to try again. */
const RETRY_MS = 5 * 60_000;

function windowsOf(account: LockedAccount): ProtectionWindows {
  const parse = <T>(text: string | null): T[] => {
    if (!text) return [];
    try {
      const value = JSON.parse(text) as unknown;
      return Array.isArray(value) ? (value as T[]) : [];
    } catch {
      return [];
    }
  };
  return { times: parse(account.protect_times), dates: parse(account.protect_dates) };
}

/** Queues the relay (open) or valve (closed) command; false when the queue left the meter out. */
async function queueSupply(
  tx: Queryable,
  account: LockedAccount,
  on: boolean,
  reason: string,
): Promise<boolean> {
  const outcome = await queueSupplyCommands(
    tx,
    serviceUser(account.tenant_id, "arrears", { realName: reason }),
    account.tenant_id,
    [{ energyType: account.energy_type, meterId: account.meter_id }],
    account.energy_type === 1 ? { switchType: on ? 1 : 2 } : { open: on },
    on ? "arrears/restore" : "arrears/cut",
  );
  return outcome.queued === 1;
}

async function markCut(tx: Queryable, accountId: string, state: 0 | 1 | 2, dueTime: Date | null) {
  await tx.query("update pms_account set arrears_cut = $2, cut_due_time = $3 where id = $1", [
    accountId,
    state,
    dueTime,
  ]);
}

/**
 * Whether settleSupply would do anything for the account as it stands: it has fallen to its cut
 * line, or a cut is held or on the meter. Otherwise a balance change leaves supply alone.
 */
export const supplyMayChange = (account: LockedAccount): boolean =>
  account.arrears_cut !== 0 || shouldCut(BigInt(account.balance), thresholdsOf(account));

/**
 * After a balance change of a locked account (design.md §5 "Money flows"): an account that fell to
 * its scheme's cut line has supply cut through the command queue — at once outside protection
 * windows, else held until the window ends (see runHeldCuts) — and an account a recharge lifted
 * back above the line has supply restored. Each command names its cause in the command log.
 */
export async function settleSupply(
  tx: Queryable,
  account: LockedAccount,
  now: Date,
  timeZone: string,
): Promise<void> {
  const retry = new Date(now.getTime() + RETRY_MS);
  if (shouldCut(BigInt(account.balance), thresholdsOf(account))) {
    if (account.arrears_cut === 2) return markCut(tx, account.id, 2, null);
    // A held cut (1) is looked at again on every change: the window's end moves with the clock.
    const release = protectionEnds(now, timeZone, windowsOf(account));
    if (release === null) return markCut(tx, account.id, 1, null); // protected at every hour
    if (release.getTime() > now.getTime()) return markCut(tx, account.id, 1, release);
    const queued = await queueSupply(tx, account, false, "欠费断电");
    return queued ? markCut(tx, account.id, 2, null) : markCut(tx, account.id, 1, retry);
  }
  if (account.arrears_cut === 0) return;
  // A cut still held never reached the meter: nothing to restore.
  if (account.arrears_cut === 1) return markCut(tx, account.id, 0, null);
  // The cut may still be on its way to the meter; the restore then waits for it and tries again.
  const queued = await queueSupply(tx, account, true, "充值复电");
  return queued ? markCut(tx, account.id, 0, null) : markCut(tx, account.id, 2, retry);
}

/**
 * Carries out the cuts held until now (a protection window ended) and the retries that are due. Safe to run in
 * several processes at once: each account is taken under its lock and skipped if another has it.
 */
export async function runHeldCuts(db: Db, now: Date, timeZone: string, limit = 500): Promise<number> {
  const due = await db.query<{ id: string; tenant_id: string }>(
    `select id::text as id, tenant_id from pms_account
      where cut_due_time <= $1 and status = 1 order by cut_due_time limit $2`,
    [now, limit],
  );
  let handled = 0;
  for (const { id, tenant_id } of due) {
    await db.transaction(async (tx) => {
      const account = await lockAccount(tx, tenant_id, id, { skipLocked: true });
      if (!account) return;
      await settleSupply(tx, account, now, timeZone);
      handled++;
    });
  }
  return handled;
}
