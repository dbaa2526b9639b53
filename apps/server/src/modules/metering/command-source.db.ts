import type {
  ClaimRequest,
  CommandAction,
  CommandSource,
  CommandState,
  CommandUpdate,
  MeterCommand,
  OrphanedCommand,
  RelayAction,
} from "@meterline/gateway";
import type { Db, Queryable } from "../../db/client.ts";
import { settleClearing } from "../money/meter-clearing.ts";
import { settlePurchase } from "../money/purchase-settlement.ts";
import { followCommands } from "../operations/batch-jobs/item-states.ts";
import { waterWriteAction } from "../operations/water-actions.ts";
import { applyValveRead } from "../operations/water-valve-status.ts";

/** The states a command may come from, per target state (the gateway's lifecycle, enforced in SQL). */
const FROM: Record<CommandState, CommandState[]> = {
  queued: [],
  sent: ["queued"],
  success: ["sent", "timeout"],
  fail: ["queued", "sent", "timeout"],
  timeout: ["sent"],
};
const MSG_RESULT: Partial<Record<CommandState, number>> = { success: 1, fail: 0, timeout: 2 };
/** SWITCH_TYPE 1 supply on, 2 supply off, 3 back to the meter's own prepaid control. */
const SWITCH_ACTIONS: Record<number, RelayAction> = { 1: "close-direct", 2: "trip", 3: "close-allowed" };

/** The collector id the gateway knows a command's meter by (its lease key): see meter-directory.db.ts. */
const COLLECTOR_KEY =
  "(case when k.transport = 'mqtt' then 'mqtt:' || q.product_code else k.collector_code end)";

interface CommandRow {
  id: string;
  meter_id: string;
  command_type: string;
  payload: string;
  expires_at: Date | null;
  state: string;
  evidence: string | null;
  sent_time: Date | null;
}

/** A stored command as the gateway acts on it; undefined for one it cannot carry out. */
export function actionOf(type: string, payload: Record<string, unknown>): CommandAction | undefined {
  switch (type) {
    case "switch": {
      const action = SWITCH_ACTIONS[Number(payload.switchType)];
      return action ? { kind: "relay", action } : undefined;
    }
    case "relay":
      return typeof payload.action === "string"
        ? { kind: "relay", action: payload.action as RelayAction }
        : undefined;
    case "valve":
      return { kind: "valve", action: payload.open ? "open" : "close" };
    case "read":
      return typeof payload.di === "string" ? { kind: "read", di: payload.di } : undefined;
    case "write":
      return typeof payload.di === "string" && typeof payload.value === "string"
        ? { kind: "write", di: payload.di, value: payload.value }
        : undefined;
    case "recharge":
      return typeof payload.amount === "string" && Number.isInteger(payload.purchaseCount)
        ? { kind: "recharge", amount: payload.amount, purchaseCount: payload.purchaseCount as number }
        : undefined;
    case "clearing":
      return typeof payload.amount === "string" && Number.isInteger(payload.purchaseCount)
        ? { kind: "clearing", amount: payload.amount, purchaseCount: payload.purchaseCount as number }
        : undefined;
    default:
      // Water meters' parameter writes and valve-state reads (operations/water-actions.ts).
      return waterWriteAction(type, payload);
  }
}

/**
 * The command queue in the database (pms_meter_command) for the gateway: claims that lapse when
 * their gateway dies, the lifecycle enforced by the update's own WHERE clause, and the evidence
 * of every state kept. A claimed command is "sent" before its frame goes out, so it is never sent twice.
 */
export class DbCommandSource implements CommandSource {
  constructor(
    private readonly db: Db,
    private readonly claimTtlSeconds = 60,
  ) {}

  /**
   * Queued commands nobody holds: never claimed, their claim lapsed, or claimed by a gateway that
   * no longer holds the lease of the command's collector (it died or lost it), so they are adopted
   * as soon as that lease is gone instead of after the claim's own lifetime. The caller holds the
   * collector's lease. Never run twice all the same: "sent" is recorded from "queued" only, so of
   * two gateways holding one command, only the first to record it sends it.
   */
  async claim(request: ClaimRequest): Promise<MeterCommand[]> {
    const rows = await this.take(
      request,
      `q.state = 'queued'
       and (q.claimed_until is null or q.claimed_until < now()
            or (q.claimed_by <> $1
                and not exists (select 1 from gateway_lease l
                                 where l.collector_id = ${COLLECTOR_KEY}
                                   and l.owner = q.claimed_by and l.expires_at > now())))`,
    );
    return this.commandsOf(rows);
  }

  /**
   * Sent or timed-out writes claimed by another gateway process. The caller holds the collector's
   * lease, so that process no longer serves it: it stopped, or lost the collector, before settling.
   */
  async orphaned(request: ClaimRequest): Promise<OrphanedCommand[]> {
    const rows = await this.take(
      request,
      "q.state in ('sent', 'timeout') and q.claimed_by is distinct from $1",
    );
    const byId = new Map(rows.map((row) => [row.id, row]));
    return (await this.commandsOf(rows)).map((command) => {
      const row = byId.get(command.id)!;
      const evidence = row.evidence ? (JSON.parse(row.evidence) as { acknowledged?: boolean }) : {};
      return {
        command,
        state: row.state as "sent" | "timeout",
        acknowledged: evidence.acknowledged === true,
        ...(row.sent_time ? { sentAt: row.sent_time } : {}),
      };
    });
  }

  /** Claims the commands matching `condition` (alias q) on the request's collectors for its owner. */
  private async take(request: ClaimRequest, condition: string): Promise<CommandRow[]> {
    if (request.collectorIds.length === 0 || request.limit <= 0) return [];
    return this.db.query<CommandRow>(
      `update pms_meter_command c
          set claimed_by = $1, claimed_until = now() + make_interval(secs => $4)
        where c.id in (
          select q.id from pms_meter_command q
            left join pms_meter e on q.energy_type = 1 and e.id = q.meter_id and e.is_deleted = 0
            left join pms_water w on q.energy_type = 2 and w.id = q.meter_id and w.is_deleted = 0
            join pms_collector k on k.id = coalesce(e.collector_id, w.collector_id) and k.is_deleted = 0
           where ${condition}
             and ${COLLECTOR_KEY} = any($2::text[])
           order by q.create_time, q.id
           limit $3)
        returning c.id::text as id, c.meter_id::text as meter_id, c.command_type, c.payload, c.expires_at, c.state, c.evidence, c.sent_time`,
      [request.owner, [...request.collectorIds], request.limit, this.claimTtlSeconds],
    );
  }

  private async commandsOf(rows: CommandRow[]): Promise<MeterCommand[]> {
    const commands: MeterCommand[] = [];
    for (const row of rows) {
      const action = actionOf(row.command_type, JSON.parse(row.payload) as Record<string, unknown>);
      if (!action) {
        await this.settle(row.id, "fail", new Date(), { detail: `unsupported command ${row.command_type}` });
        continue;
      }
      commands.push({
        id: row.id,
        meterId: row.meter_id,
        action,
        ...(row.expires_at ? { expiresAt: row.expires_at } : {}),
      });
    }
    return commands.sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1));
  }

  async release(commandIds: readonly string[]): Promise<void> {
    if (commandIds.length === 0) return;
    await this.db.query(
      "update pms_meter_command set claimed_by = null, claimed_until = null where id = any($1::bigint[]) and state = 'queued'",
      [[...commandIds]],
    );
  }

  async update(update: CommandUpdate): Promise<void> {
    await this.settle(update.commandId, update.state, update.at, update.evidence);
  }

  private async settle(id: string, state: CommandState, at: Date, evidence: CommandUpdate["evidence"]) {
    // A final state and what it sets off (a booking, the meter's supply state) commit together.
    if (state === "success" || state === "fail")
      return this.db.transaction((tx) => this.settleIn(tx, id, state, at, evidence));
    return this.settleIn(this.db, id, state, at, evidence);
  }

  private async settleIn(
    q: Queryable,
    id: string,
    state: CommandState,
    at: Date,
    evidence: CommandUpdate["evidence"],
  ) {
    const sent = state === "sent";
    const rows = await q.query<{
      tenant_id: string;
      meter_id: string;
      energy_type: number;
      command_type: string;
      payload: string;
      batch_id: string | null;
    }>(
      `update pms_meter_command
          set state = $2,
              result = $3,
              sent_time = case when $4 then $5 else sent_time end,
              done_time = case when $4 then done_time else $5 end,
              request = coalesce($6, request),
              reply = coalesce($7, reply),
              evidence = $8
        where id = $1 and state = any($9::text[])
        returning tenant_id, meter_id::text as meter_id, energy_type, command_type, payload, batch_id::text as batch_id`,
      [
        id,
        state,
        MSG_RESULT[state] ?? null,
        sent,
        at,
        evidence.request ?? null,
        evidence.reply ?? null,
        JSON.stringify(evidence),
        FROM[state],
      ],
    );
    const [row] = rows;
    if (!row) {
      // A batch job cancelled while its command waited here: the gateway must not send it.
      const [current] = await q.query<{ state: string }>(
        "select state from pms_meter_command where id = $1",
        [id],
      );
      if (current?.state === "cancelled") throw new Error(`command ${id} was cancelled before it was sent`);
      throw new Error(`command ${id} cannot become ${state}`);
    }
    // The meter's item in its batch job follows the command (batch-jobs/item-states.ts).
    if (row.batch_id)
      await followCommands(q, row.batch_id, [{ energyType: row.energy_type, meterId: row.meter_id }]);
    if (state === "success") await this.applyOutcome(q, row);
    if (state === "success") await applyValveRead(q, row, evidence);
    // A purchase written to a local-prepaid meter is booked when, and only when, the meter has it.
    if (row.command_type === "recharge" && (state === "success" || state === "fail"))
      await settlePurchase(q, row, state, evidence, at);
    // So is the closing refund of a local-prepaid account, when the meter has given the money up.
    if (row.command_type === "clearing" && (state === "success" || state === "fail"))
      await settleClearing(q, row, state, evidence, at);
  }

  /** A confirmed switch or valve command is the meter's new supply state (SWITCH_STATUS 0 on, 1 off). */
  private async applyOutcome(
    q: Queryable,
    row: {
      tenant_id: string;
      meter_id: string;
      energy_type: number;
      command_type: string;
      payload: string;
    },
  ) {
    const payload = JSON.parse(row.payload) as { switchType?: number; open?: boolean };
    let status: number | undefined;
    if (row.command_type === "switch" && payload.switchType === 1) status = 0;
    if (row.command_type === "switch" && payload.switchType === 2) status = 1;
    if (row.command_type === "valve") status = payload.open ? 0 : 1;
    if (status === undefined) return;
    const table = row.energy_type === 1 ? "pms_meter" : "pms_water";
    await q.query(`update ${table} set switch_status = $2, update_time = now() where id = $1`, [
      row.meter_id,
      status,
    ]);
    // The last reading's supply too: pages show the meter's state as last read, and it is known now,
    // not at the next poll.
    await q.query(
      `update pms_meter_current_data set switch_status = $3
        where tenant_id = $1 and meter_id = $2 and energy_type = $4`,
      [row.tenant_id, row.meter_id, status, row.energy_type],
    );
  }
}
