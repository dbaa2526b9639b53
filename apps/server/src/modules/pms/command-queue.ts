import type { Queryable } from "../../db/client.ts";
import { nextId } from "../../db/ids.ts";
import type { CurrentUser } from "../auth/current-user.ts";

/** SWITCH_TYPE (spec §3): 1 close the relay (supply on), 2 open it (supply off), 3 prepaid mode. */
export const SWITCH_TYPE = { close: 1, open: 2, prepaid: 3 } as const;

/** What receives the commands a batch plans: the queue itself, or a batch job that queues them later. */
export type CommandSink = (
  db: Queryable,
  user: CurrentUser,
  tenantId: string,
  commands: QueuedCommand[],
  source: string,
) => Promise<{ batchId: string; queued: number }>;

export interface QueuedCommand {
  energyType: 1 | 2;
  meterId: string;
  productCode: string;
  commandType: "switch" | "valve" | "write" | "waterPrice" | "waterAlarm" | "valveStatus";
  payload: Record<string, unknown>;
}

/**
 * Queues commands for the gateway in one batch (design.md §5). Nothing is sent here: the
 * gateway takes queued rows in order, one request in flight per bus, and settles each.
 */
export async function enqueueCommands(
  db: Queryable,
  user: Pick<CurrentUser, "userId">,
  tenantId: string,
  commands: QueuedCommand[],
  source: string,
  /** A batch job queues its meters under its own id (batch-jobs/job-runner.ts). */
  options: { batchId?: string } = {},
): Promise<{ batchId: string; queued: number; ids: string[] }> {
  const batchId = options.batchId ?? nextId();
  const ids: string[] = [];
  const CHUNK = 500;
  for (let start = 0; start < commands.length; start += CHUNK) {
    const chunk = commands.slice(start, start + CHUNK);
    const values: unknown[] = [];
    const rows = chunk.map((c, i) => {
      const id = nextId();
      ids.push(id);
      values.push(
        id,
        tenantId,
        c.energyType,
        c.meterId,
        c.productCode,
        c.commandType,
        JSON.stringify(c.payload),
      );
      const p = i * 7;
      return `($${p + 1}, $${p + 2}, $${p + 3}, $${p + 4}, $${p + 5}, $${p + 6}, $${p + 7}, $${chunk.length * 7 + 1}, $${chunk.length * 7 + 2}, $${chunk.length * 7 + 3})`;
    });
    values.push(batchId, source, user.userId || null);
    await db.query(
      `insert into pms_meter_command
         (id, tenant_id, energy_type, meter_id, product_code, command_type, payload, batch_id, source, create_user)
       values ${rows.join(", ")}`,
      values,
    );
  }
  return { batchId, queued: commands.length, ids };
}
