import { BATCH_JOB_MAX_METERS, type BatchProgress, type SwitchOutcome } from "@meterline/contracts";
import { badRequest } from "../../contract/errors.ts";
import type { Queryable } from "../../db/client.ts";
import type { CurrentUser } from "../auth/current-user.ts";
import { type CommandSink, enqueueCommands, type QueuedCommand, SWITCH_TYPE } from "../pms/command-queue.ts";
import { pendingInJobSql } from "./batch-jobs/pending-items.ts";

/** At most this many meters in one request: one batch job (batch-jobs/). */
export const MAX_BATCH = BATCH_JOB_MAX_METERS;

/** Commands that move a relay or a valve: while one is unsettled, no other may be queued. */
const SUPPLY_COMMANDS = ["switch", "relay", "valve"];

/** A meter to act on: electric (1) by its relay, water (2) by its valve. */
export interface SupplyTarget {
  energyType: 1 | 2;
  meterId: string;
}

/**
 * What to do to supply: relays by SWITCH_TYPE (1 close = on, 2 open = off, 3 prepaid mode), valves
 * open or closed. A target needs the half for its kind.
 */
export interface SupplyAction {
  switchType?: 1 | 2 | 3;
  open?: boolean;
}

interface MeterRow {
  energy_type: 1 | 2;
  id: string;
  product_code: string;
  collector_id: string | null;
  /** METER_TYPE of an electric meter; null for water. */
  meter_type: number | null;
  pending: boolean;
  /** An NB-IoT meter reached through its operator's platform (modules/iot-platform), not a collector. */
  via_platform: boolean;
}

const key = (energyType: number, meterId: string) => `${energyType}:${meterId}`;

/**
 * Queues one supply command per meter (design.md §5: the gateway sends each once and settles it
 * by the reply or by reading back). Every target must name a live meter of the tenant; meters with
 * an unsettled supply command or no collector are skipped and reported, never queued twice. Run it
 * inside a transaction: the meters' rows are locked until then.
 *
 * `hidden` switches a batch to leaving out what it cannot act on: the ids given there (outside the
 * caller's data scope) and ids of no meter of the tenant are named in `skipped` as absent, and the
 * rest goes on. Without it (one meter) an absent meter refuses the call.
 */
/** METER_TYPE 3: a metering-only electric meter, which has no relay to open or close. */
const METERING_ONLY = 3;

/** Why a found meter gets no supply command, or undefined when it gets one. */
function refusal(meter: MeterRow): string | undefined {
  if (meter.energy_type === 1 && Number(meter.meter_type) === METERING_ONLY)
    return "计量表没有继电器,不能通断";
  if (meter.pending) return "仍有未完成的通断命令";
  return meter.collector_id || meter.via_platform ? undefined : "未绑定采集器";
}

export async function queueSupplyCommands(
  db: Queryable,
  user: CurrentUser,
  tenantId: string,
  targets: readonly SupplyTarget[],
  action: SupplyAction,
  source: string,
  sink: CommandSink = enqueueCommands,
  hidden?: readonly string[],
): Promise<SwitchOutcome> {
  if (targets.length === 0) throw badRequest("meterIds: 请选择表计");
  if (targets.length > MAX_BATCH) throw badRequest(`meterIds: 一次最多 ${MAX_BATCH} 块表`);
  const ids = (energyType: 1 | 2) => [
    ...new Set(targets.filter((t) => t.energyType === energyType).map((t) => t.meterId)),
  ];
  // Two operators switching the same meter at once must not both pass the check below: the
  // meters' rows stay locked (in id order, so batches never deadlock) until the commands are in.
  for (const [table, energyType] of [
    ["pms_meter", 1],
    ["pms_water", 2],
  ] as const) {
    await db.query(
      `select id from ${table} where id = any($1::bigint[]) and tenant_id = $2 order by id for update`,
      [ids(energyType), tenantId],
    );
  }
  const rows = await db.query<MeterRow>(
    `select m.energy_type, m.id::text as id, m.product_code, m.collector_id::text as collector_id, m.meter_type,
            exists (select 1 from pms_meter_command c
                     where c.tenant_id = m.tenant_id and c.meter_id = m.id and c.energy_type = m.energy_type
                       and c.state in ('queued', 'sent') and c.command_type = any($4))
            or ${pendingInJobSql("m", ["switch", "valve"])} as pending,
            exists (select 1 from pms_iot_device d
                     where d.tenant_id = m.tenant_id and d.energy_type = m.energy_type and d.meter_id = m.id) as via_platform
       from (select 1 as energy_type, id, tenant_id, product_code, collector_id, meter_type from pms_meter
              where id = any($1::bigint[]) and tenant_id = $3 and is_deleted = 0
             union all
             select 2, id, tenant_id, product_code, collector_id, null from pms_water
              where id = any($2::bigint[]) and tenant_id = $3 and is_deleted = 0) m`,
    [ids(1), ids(2), tenantId, SUPPLY_COMMANDS],
  );
  const outside = new Set(hidden);
  const found = new Map(rows.filter((r) => !outside.has(r.id)).map((r) => [key(r.energy_type, r.id), r]));
  const missing = [
    ...new Set(targets.filter((t) => !found.has(key(t.energyType, t.meterId))).map((t) => t.meterId)),
  ];
  // Another tenant's meter reads as absent, like any id the caller may not see.
  if (missing[0] !== undefined && hidden === undefined)
    throw badRequest(`meterIds: 表计不存在 (${missing[0]})`);

  const skipped: SwitchOutcome["skipped"] = missing.map((meterId) => ({
    meterId,
    productCode: "",
    reason: "表计不存在",
  }));
  const commands: QueuedCommand[] = [];
  for (const meter of [...found.values()].sort((a, b) => a.product_code.localeCompare(b.product_code))) {
    const reason = refusal(meter);
    if (reason) {
      skipped.push({ meterId: meter.id, productCode: meter.product_code, reason });
      continue;
    }
    const base = { meterId: meter.id, productCode: meter.product_code };
    if (meter.energy_type === 1) {
      if (action.switchType === undefined) throw new Error("a relay target needs a switch type");
      commands.push({
        ...base,
        energyType: 1,
        commandType: "switch",
        payload: { switchType: action.switchType },
      });
    } else {
      if (action.open === undefined) throw new Error("a valve target needs open or closed");
      commands.push({ ...base, energyType: 2, commandType: "valve", payload: { open: action.open } });
    }
  }
  if (commands.length === 0) return { batchId: null, queued: 0, skipped };
  const batch = await sink(db, user, tenantId, commands, source);
  return { batchId: batch.batchId, queued: batch.queued, skipped };
}

/** The envelope's message of a switching call: what was queued and how many meters were left out. */
export const outcomeMessage = (outcome: SwitchOutcome, what: string) =>
  `已下发 ${outcome.queued} 条${what}命令${outcome.skipped.length ? `，${outcome.skipped.length} 块表未下发` : ""}`;

/** How far a batch has got, for the console's progress bar. */
export async function batchProgress(
  db: Queryable,
  tenantId: string,
  batchId: string,
): Promise<BatchProgress> {
  const rows = await db.query<{ state: keyof Omit<BatchProgress, "total" | "done">; n: number }>(
    "select state, count(*)::int as n from pms_meter_command where tenant_id = $1 and batch_id = $2 group by state",
    [tenantId, batchId],
  );
  const progress: BatchProgress = {
    total: 0,
    queued: 0,
    sent: 0,
    success: 0,
    fail: 0,
    timeout: 0,
    done: false,
  };
  for (const row of rows) {
    // A cancelled job's commands never went out: they are not part of what the batch sent.
    if (!(row.state in progress)) continue;
    progress[row.state] = row.n;
    progress.total += row.n;
  }
  progress.done = progress.total > 0 && progress.queued + progress.sent === 0;
  return progress;
}

export const SWITCH_LABELS: Record<1 | 2 | 3, string> = {
  [SWITCH_TYPE.close]: "合闸",
  [SWITCH_TYPE.open]: "拉闸",
  [SWITCH_TYPE.prepaid]: "预付费模式",
};
