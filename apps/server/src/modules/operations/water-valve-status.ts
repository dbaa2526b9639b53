import type { SwitchOutcome } from "@meterline/contracts";
import type { Queryable } from "../../db/client.ts";
import type { CurrentUser } from "../auth/current-user.ts";
import { type CommandSink, enqueueCommands } from "../pms/command-queue.ts";
import { batchMeterIds } from "./water-batch.ts";

/**
 * Reading a valve's state now (message/waterSwitchStatusResult, waterSwitchStatusBatch): a read of
 * the meter's 901F data, whose status word ST carries the valve bits (metering-domain.md §2.3). It
 * is a 'valveStatus' command, queued like any other so it waits its turn on the meter's bus; its
 * evidence keeps the reply, and a successful read is the meter's new SWITCH_STATUS.
 */
export const VALVE_STATUS_COMMAND = "valveStatus";
const METER_DATA_DI = "901F";

interface WaterRow {
  id: string;
  product_code: string;
  collector_id: string | null;
}

/** Queues one valve-state read per water meter; unknown, hidden and unreachable meters are named. */
export async function queueValveStatusReads(
  db: Queryable,
  user: CurrentUser,
  tenantId: string,
  meterIds: readonly string[],
  source: string,
  hidden: readonly string[] = [],
  sink: CommandSink = enqueueCommands,
): Promise<SwitchOutcome> {
  const { all, wanted } = batchMeterIds(meterIds, hidden);
  const rows = await db.query<WaterRow>(
    `select id::text as id, product_code, collector_id::text as collector_id from pms_water
      where id = any($1::bigint[]) and tenant_id = $2 and is_deleted = 0`,
    [wanted, tenantId],
  );
  const found = new Map(rows.map((row) => [row.id, row]));
  // A read changes nothing on the meter: one already waiting does no harm, so none is refused for it.
  const skipped: SwitchOutcome["skipped"] = all
    .filter((id) => !found.has(id))
    .map((meterId) => ({ meterId, productCode: "", reason: "表计不存在" }));
  const reachable = [...found.values()].sort((a, b) => a.product_code.localeCompare(b.product_code));
  for (const meter of reachable.filter((m) => !m.collector_id))
    skipped.push({ meterId: meter.id, productCode: meter.product_code, reason: "未绑定采集器" });
  const commands = reachable
    .filter((meter) => meter.collector_id)
    .map((meter) => ({
      energyType: 2 as const,
      meterId: meter.id,
      productCode: meter.product_code,
      commandType: VALVE_STATUS_COMMAND as typeof VALVE_STATUS_COMMAND,
      payload: { di: METER_DATA_DI },
    }));
  if (commands.length === 0) return { batchId: null, queued: 0, skipped };
  const batch = await sink(db, user, tenantId, commands, source);
  return { batchId: batch.batchId, queued: batch.queued, skipped };
}

export type ValveState = "open" | "closed" | "abnormal" | "unknown";

/** The valve state in a read's evidence value ("volume=…; valve=open; time=…"), if it has one. */
export function valveOfEvidence(evidence: { value?: string } | null | undefined): ValveState | null {
  const match = /(?:^|;\s*)valve=(open|closed|abnormal|unknown)\b/.exec(evidence?.value ?? "");
  return match ? (match[1] as ValveState) : null;
}

/** SWITCH_STATUS of a water meter by its valve: 0 open (supply on), 1 closed; null when neither. */
export function switchStatusOf(valve: ValveState | null): 0 | 1 | null {
  return valve === "open" ? 0 : valve === "closed" ? 1 : null;
}

/** A settled valve read is what the meter says now: its SWITCH_STATUS follows (inside the settling transaction). */
export async function applyValveRead(
  q: Queryable,
  row: { meter_id: string; energy_type: number; command_type: string },
  evidence: { value?: string },
): Promise<void> {
  if (row.command_type !== VALVE_STATUS_COMMAND || row.energy_type !== 2) return;
  const status = switchStatusOf(valveOfEvidence(evidence));
  if (status === null) return;
  await q.query("update pms_water set switch_status = $2, update_time = now() where id = $1", [
    row.meter_id,
    status,
  ]);
}

export interface ValveStatusAnswer {
  meterId: string;
  productCode: string;
  commandId: string | null;
  /** The read command's state: success / fail once answered; queued / sent when the wait ran out. */
  state: string;
  /** MSG_RESULT: 1 success, 0 fail; null while the read is still under way. */
  result: number | null;
  /** What the meter said just now; null unless the read succeeded. */
  valve: ValveState | null;
  /** SWITCH_STATUS: the meter's answer when there is one, else the last known state. */
  switchStatus: number | null;
  /** True when `switchStatus` comes from this read, false when it is the last known state. */
  fresh: boolean;
  detail: string;
}

interface CommandRow {
  state: string;
  result: number | null;
  evidence: string | null;
  switch_status: number | null;
  product_code: string;
}

/**
 * Waits up to `waitMs` for the read `commandId` to settle and answers the valve state. When the
 * gateway has not answered by then, the answer is the read's state so far and the meter's last
 * known SWITCH_STATUS, marked not fresh; the read goes on and its result lands in the records.
 */
export async function awaitValveStatus(
  db: Queryable,
  tenantId: string,
  meterId: string,
  commandId: string,
  waitMs: number,
  pollMs = 100,
): Promise<ValveStatusAnswer> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const [row] = await db.query<CommandRow>(
      `select c.state, c.result, c.evidence, w.switch_status, w.product_code
         from pms_meter_command c join pms_water w on w.id = c.meter_id
        where c.id = $1 and c.tenant_id = $2`,
      [commandId, tenantId],
    );
    if (!row) throw new Error(`valve read ${commandId} vanished`);
    const settled = row.state === "success" || row.state === "fail";
    if (settled || Date.now() >= deadline) {
      const evidence = row.evidence ? (JSON.parse(row.evidence) as { value?: string; detail?: string }) : {};
      const valve = row.state === "success" ? valveOfEvidence(evidence) : null;
      const fresh = switchStatusOf(valve) !== null;
      return {
        meterId,
        productCode: row.product_code,
        commandId,
        state: row.state,
        result: settled ? row.result : null,
        valve,
        switchStatus: fresh ? switchStatusOf(valve) : row.switch_status,
        fresh,
        detail: settled ? (evidence.detail ?? "") : "waiting for the meter",
      };
    }
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}
