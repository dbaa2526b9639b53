import type { SwitchOutcome } from "@meterline/contracts";
import { badRequest } from "../../contract/errors.ts";
import type { Queryable } from "../../db/client.ts";
import type { CurrentUser } from "../auth/current-user.ts";
import { type SchemePart, schemeWrites } from "../money/scheme-writes.ts";
import { type CommandSink, enqueueCommands, type QueuedCommand } from "../pms/command-queue.ts";
import { pendingInJobSql } from "./batch-jobs/pending-items.ts";
import { MAX_BATCH } from "./switching.ts";

interface MeterRow {
  id: string;
  product_code: string;
  collector_id: string | null;
  account_id: string | null;
  control_status: number | null;
  charging_scheme_id: string | null;
  alarm_scheme_id: string | null;
  pending: boolean;
}

/** The DIs each batch writes, to tell an unsettled write of the same kind (command-log.hooks.ts keys). */
const PENDING_PATTERN: Record<Exclude<SchemePart, "all">, string[]> = {
  price: ["040501%", "040600%", "040601%", "0400F010", "040002%", "040100%"],
  alarm: ["040010%"],
};

/**
 * Queues the price writes (writePriceBatch) or the alarm-limit writes (writeAlarmBatch) of
 * local-prepaid electric meters: for each meter, the values of its open account's charging or
 * alarm scheme as 0x14 writes (scheme-writes.ts), sent once by the gateway and settled by the
 * meter's acknowledgement or a read-back of the register (design.md §5).
 *
 * All values are checked before anything is queued: one no register can hold refuses the whole
 * batch with a 400 naming its field. A meter that cannot be written (unknown, another tenant's,
 * not a local-prepaid account, no collector, a write of the same kind still unsettled) is named
 * in `skipped` with why, and the others are queued.
 */
export async function queueSchemeWriteBatch(
  db: Queryable,
  user: CurrentUser,
  tenantId: string,
  meterIds: readonly string[],
  part: Exclude<SchemePart, "all">,
  source: string,
  /** Ids the caller may not see (outside the data scope): reported as absent. */
  hidden: readonly string[] = [],
  sink: CommandSink = enqueueCommands,
): Promise<SwitchOutcome> {
  const all = [...new Set(meterIds)];
  if (all.length === 0) throw badRequest("meterIds: 请选择表计");
  if (all.length > MAX_BATCH) throw badRequest(`meterIds: 一次最多 ${MAX_BATCH} 块表`);
  const wanted = all.filter((id) => !hidden.includes(id));
  // Locked in id order so two batches on the same meters queue one after the other, never both.
  await db.query(
    "select id from pms_meter where id = any($1::bigint[]) and tenant_id = $2 order by id for update",
    [wanted, tenantId],
  );
  const rows = await db.query<MeterRow>(
    `select m.id::text as id, m.product_code, m.collector_id::text as collector_id,
            a.id::text as account_id, a.control_status,
            a.charging_scheme_id::text as charging_scheme_id, a.alarm_scheme_id::text as alarm_scheme_id,
            exists (select 1 from pms_meter_command c
                     where c.tenant_id = m.tenant_id and c.energy_type = 1 and c.meter_id = m.id
                       and c.command_type = 'write' and c.state in ('queued', 'sent')
                       and c.payload::jsonb ->> 'di' like any($3::text[]))
            or ${pendingInJobSql("m", [part === "price" ? "writePrice" : "writeAlarm"], 1)} as pending
       from pms_meter m
       left join pms_account a on a.meter_id = m.id and a.energy_type = 1 and a.status = 1
                              and a.tenant_id = m.tenant_id
      where m.id = any($1::bigint[]) and m.tenant_id = $2 and m.is_deleted = 0`,
    [wanted, tenantId, PENDING_PATTERN[part]],
  );
  const found = new Map(rows.map((row) => [row.id, row]));

  // Another tenant's meter reads as absent, like any id the caller may not see.
  const skipped: SwitchOutcome["skipped"] = all
    .filter((id) => !found.has(id))
    .map((meterId) => ({ meterId, productCode: "", reason: "表计不存在" }));
  const commands: QueuedCommand[] = [];
  for (const meter of [...found.values()].sort((a, b) => a.product_code.localeCompare(b.product_code))) {
    const reason = skipReason(meter);
    if (reason) {
      skipped.push({ meterId: meter.id, productCode: meter.product_code, reason });
      continue;
    }
    const writes = await schemeWrites(
      db,
      part === "price" ? meter.charging_scheme_id : null,
      part === "alarm" ? meter.alarm_scheme_id : null,
      part,
    );
    if (writes.length === 0) {
      skipped.push({
        meterId: meter.id,
        productCode: meter.product_code,
        reason: part === "price" ? "账户未设置收费方案" : "账户未设置告警方案",
      });
      continue;
    }
    for (const write of writes)
      commands.push({
        energyType: 1,
        meterId: meter.id,
        productCode: meter.product_code,
        commandType: "write",
        payload: write.payload,
      });
  }
  if (commands.length === 0) return { batchId: null, queued: 0, skipped };
  const batch = await sink(db, user, tenantId, commands, source);
  return { batchId: batch.batchId, queued: batch.queued, skipped };
}

function skipReason(meter: MeterRow): string | undefined {
  if (!meter.account_id) return "表计未开户";
  // A remote-controlled account is priced by the server; its meter holds no prices or limits.
  if (meter.control_status !== 0) return "非本地费控表";
  if (!meter.collector_id) return "未绑定采集器";
  if (meter.pending) return "仍有未完成的同类写表命令";
  return undefined;
}
