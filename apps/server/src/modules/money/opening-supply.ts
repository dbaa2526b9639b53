import { shouldCut } from "@meterline/billing";
import type { Queryable } from "../../db/client.ts";
import { serviceUser } from "../auth/current-user.ts";
import { queueSupplyCommands } from "../operations/switching.ts";
import { type LockedAccount, METER_TABLE } from "./account.repository.ts";
import { type Actor, thresholdsOf } from "./account-book.ts";

/**
 * A remote-control meter left cut (its last account's closing cut it, or an operator did) comes
 * back on when a new account opens above the cut line: the new occupant pays for supply, not for
 * a call to the desk. The restore goes through the command queue like any switch (sent once,
 * settled by reading the meter back) and names the opening as its cause in the command log.
 */
export async function restoreOnOpening(tx: Queryable, account: LockedAccount, actor: Actor): Promise<void> {
  if (account.control_status !== 1) return;
  if (shouldCut(BigInt(account.balance), thresholdsOf(account))) return;
  const [meter] = await tx.query<{ switch_status: number | null }>(
    `select switch_status from ${METER_TABLE[account.energy_type]} where id = $1 and tenant_id = $2`,
    [account.meter_id, account.tenant_id],
  );
  if (meter?.switch_status !== 1) return;
  await queueSupplyCommands(
    tx,
    serviceUser(account.tenant_id, "account/open", {
      ...(actor.userId ? { userId: actor.userId } : {}),
      realName: actor.name,
    }),
    account.tenant_id,
    [{ energyType: account.energy_type, meterId: account.meter_id }],
    account.energy_type === 1 ? { switchType: 1 } : { open: true },
    "account/open",
  );
}
