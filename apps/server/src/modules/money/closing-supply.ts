import type { Queryable } from "../../db/client.ts";
import type { CurrentUser } from "../auth/current-user.ts";
import { queueSupplyCommands } from "../operations/switching.ts";
import { enqueueCommands } from "../pms/command-queue.ts";
import type { ClosedAccount } from "./account-closing.ts";

/** The operator's choice at closing: supply is cut, unless kept on for a stated reason. */
export interface ClosingSupply {
  keep: boolean;
  reason: string;
}

/** close_supply of pms_account (migration 042). */
export const CLOSE_SUPPLY = { none: 0, cut: 1, kept: 2 } as const;

/**
 * What a closing does beyond the money, inside the closing's transaction: it keeps the final
 * reading the account was settled to (for 销户记录 and the slip), and cuts supply of a meter whose
 * balance the server kept. The cut is a relay (valve) command through the queue like any other, so
 * the gateway sends it once and settles it by reading the meter back, never by sending it again.
 * A local-prepaid meter holds no supply switch of ours: it was cleared and stops on its own.
 */
export async function settleClosingSupply(
  tx: Queryable,
  user: CurrentUser,
  tenantId: string,
  energyType: 1 | 2,
  closed: ClosedAccount,
  supply: ClosingSupply,
): Promise<void> {
  const [account] = await tx.query<{ control_status: number }>(
    `update pms_account set close_reading = register_total, close_read_time = priced_time
      where id = $1 and tenant_id = $2 returning control_status`,
    [closed.accountId, tenantId],
  );
  if (!account) throw new Error(`closed account ${closed.accountId} vanished inside its own transaction`);
  const record = (state: number, reason: string | null, batch: string | null) =>
    tx.query(
      "update pms_account set close_supply = $2, close_supply_reason = $3, close_supply_batch = $4 where id = $1",
      [closed.accountId, state, reason, batch],
    );
  if (supply.keep) return void (await record(CLOSE_SUPPLY.kept, supply.reason, null));
  if (account.control_status !== 1) return void (await record(CLOSE_SUPPLY.none, null, null));
  const outcome = await queueSupplyCommands(
    tx,
    user,
    tenantId,
    [{ energyType, meterId: closed.meterId }],
    energyType === 1 ? { switchType: 2 } : { open: false },
    "account/close",
    enqueueCommands,
    // A meter no longer in the registry is left out with its reason rather than refusing the closing.
    [],
  );
  // A meter the queue left out (no relay, no collector, a switch still unsettled) keeps its reason.
  if (outcome.queued === 0)
    return void (await record(CLOSE_SUPPLY.none, outcome.skipped[0]?.reason ?? null, null));
  await record(CLOSE_SUPPLY.cut, null, outcome.batchId);
}
