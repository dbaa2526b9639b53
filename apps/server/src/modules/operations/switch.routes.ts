import { type ResourceDef, readCodesOf, resources } from "@meterline/contracts";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { ok } from "../../contract/envelope.ts";
import { badRequest } from "../../contract/errors.ts";
import { idList, optionalId, optionalString, readParams } from "../../contract/params.ts";
import { scopePredicate, scopeRules } from "../../crud/data-scope.ts";
import { requirePermission } from "../../crud/permissions.ts";
import { SqlParams } from "../../crud/sql.ts";
import type { Db } from "../../db/client.ts";
import { registryTenant } from "../pms/registry-access.ts";
import { runAsJob } from "./batch-jobs/job-service.ts";
import { queueSchemeWriteBatch } from "./meter-writes.ts";
import { batchProgress, outcomeMessage, queueSupplyCommands, SWITCH_LABELS } from "./switching.ts";

const base = "/api/blade-pms/message";
const tags = ["message"];

/** switchType: 1 合闸 (supply on), 2 拉闸 (supply off), 3 prepaid mode (the meter decides by its balance). */
function switchTypeOf(params: Record<string, unknown>): 1 | 2 | 3 {
  const value = optionalString(params, "switchType") ?? optionalString(params, "type");
  if (value !== "1" && value !== "2" && value !== "3")
    throw badRequest("switchType: 只能是 1(合闸)、2(拉闸) 或 3(预付费模式)");
  return Number(value) as 1 | 2 | 3;
}

/** Water valves: type 1 opens (supply on), 2 closes (supply off), as SWITCH_TYPE does for relays. */
function valveOpenOf(params: Record<string, unknown>): boolean {
  const value = optionalString(params, "type");
  if (value !== "1" && value !== "2") throw badRequest("type: 只能是 1(开阀) 或 2(关阀)");
  return value === "1";
}

/**
 * The roles' data scope holds for commands as it does for lists: ids from "all matching" or an
 * area come from the scoped list, but a hand-made request could name any meter of the tenant, so
 * every id is checked against the same predicate and one outside the scope reads as absent.
 */
export async function assertInScope(
  db: Db,
  request: FastifyRequest,
  def: ResourceDef,
  table: "pms_meter" | "pms_water",
  tenantId: string,
  meterIds: readonly string[],
): Promise<void> {
  const [outside] = await outsideScope(db, request, def, table, tenantId, meterIds);
  if (outside) throw badRequest(`meterIds: 表计不存在 (${outside})`);
}

/** The ids among `meterIds` that the caller's data scope does not reach (or that are not the tenant's). */
export async function outsideScope(
  db: Db,
  request: FastifyRequest,
  def: ResourceDef,
  table: "pms_meter" | "pms_water",
  tenantId: string,
  meterIds: readonly string[],
): Promise<string[]> {
  const sql = new SqlParams();
  const scope = scopePredicate(def, request, await scopeRules(db, request, def.name), sql);
  if (!scope || meterIds.length === 0) return [];
  const ids = sql.bind(meterIds);
  const tenant = sql.bind(tenantId);
  const rows = await db.query<{ id: string }>(
    `select wanted.id::text as id from unnest(${ids}::bigint[]) wanted(id)
      where not exists (select 1 from ${table} t where t.id = wanted.id and t.tenant_id = ${tenant} and ${scope})`,
    sql.values,
  );
  return rows.map((row) => row.id);
}

/**
 * Remote switching (spec §7 message): relays of electric meters (switch, switchBatch) and valves
 * of water meters (waterSwitch, waterSwitchBatch) become queued commands, one per meter, that the
 * gateway sends once and settles; `batchProgress` tells the console how far a batch has got.
 */
export async function switchRoutes(app: FastifyInstance, opts: { db: Db }) {
  const { db } = opts;

  const electric = async (
    request: FastifyRequest,
    params: Record<string, unknown>,
    meterIds: string[],
    user: Parameters<typeof registryTenant>[0],
    source: "message/switch" | "message/switchBatch",
  ) => {
    const switchType = switchTypeOf(params);
    const tenantId = registryTenant(user, params);
    const targets = meterIds.map((meterId) => ({ energyType: 1 as const, meterId }));
    // One meter is switched at once, as it always was, and refused if absent; a batch becomes a
    // job (batch-jobs/) that names the meters it cannot reach and leaves them out.
    if (source === "message/switch") {
      await assertInScope(db, request, resources.meter, "pms_meter", tenantId, meterIds);
      const outcome = await db.transaction((tx) =>
        queueSupplyCommands(tx, user, tenantId, targets, { switchType }, source),
      );
      return ok(outcome, outcomeMessage(outcome, SWITCH_LABELS[switchType]));
    }
    const hidden = await outsideScope(db, request, resources.meter, "pms_meter", tenantId, meterIds);
    const outcome = await db.transaction((tx) =>
      runAsJob(tx, user, tenantId, { kind: "switch", params: { switchType }, source }, (sink) =>
        queueSupplyCommands(tx, user, tenantId, targets, { switchType }, source, sink, hidden),
      ),
    );
    return ok(outcome, outcomeMessage(outcome, SWITCH_LABELS[switchType]));
  };
  app.post(
    `${base}/switch`,
    { schema: { tags, summary: "Switch one electric meter's relay" } },
    async (request) => {
      const user = await requirePermission(db, request, ["meter_switch"]);
      const params = readParams(request);
      const meterId = optionalId(params, "meterId") ?? optionalId(params, "id");
      if (!meterId) throw badRequest("meterId: 请选择表计");
      return electric(request, params, [meterId], user, "message/switch");
    },
  );
  app.post(
    `${base}/switchBatch`,
    { schema: { tags, summary: "Switch the relays of several electric meters" } },
    async (request) => {
      const user = await requirePermission(db, request, ["meter_switch"]);
      const params = readParams(request);
      return electric(request, params, idList(params, "meterIds"), user, "message/switchBatch");
    },
  );

  for (const verb of ["waterSwitch", "waterSwitchBatch"]) {
    app.post(
      `${base}/${verb}`,
      { schema: { tags, summary: "Open or close the valves of water meters" } },
      async (request) => {
        const user = await requirePermission(db, request, ["water_switch"]);
        const params = readParams(request);
        const open = valveOpenOf(params);
        const meterIds = idList(params, "meterIds");
        const tenantId = registryTenant(user, params);
        const targets = meterIds.map((meterId) => ({ energyType: 2 as const, meterId }));
        const source = `message/${verb}`;
        // As for relays: the single call refuses an absent valve, the batch names and leaves it out.
        const hidden = await outsideScope(db, request, resources.water, "pms_water", tenantId, meterIds);
        if (verb === "waterSwitch" && hidden[0] !== undefined)
          throw badRequest(`meterIds: 表计不存在 (${hidden[0]})`);
        const outcome = await db.transaction((tx) =>
          verb === "waterSwitch"
            ? queueSupplyCommands(tx, user, tenantId, targets, { open }, source)
            : runAsJob(tx, user, tenantId, { kind: "valve", params: { open }, source }, (sink) =>
                queueSupplyCommands(tx, user, tenantId, targets, { open }, source, sink, hidden),
              ),
        );
        return ok(outcome, outcomeMessage(outcome, open ? "开阀" : "关阀"));
      },
    );
  }

  // Prices and alarm limits of local-prepaid meters, from each account's schemes (meter-writes.ts).
  for (const [verb, part, permission, what] of [
    ["writePriceBatch", "price", "meter_write_price", "写电价"],
    ["writeAlarmBatch", "alarm", "meter_write_alarm", "写告警金额"],
  ] as const) {
    app.post(
      `${base}/${verb}`,
      { schema: { tags, summary: `Write the ${part} settings of local-prepaid meters` } },
      async (request) => {
        const user = await requirePermission(db, request, [permission]);
        const params = readParams(request);
        const tenantId = registryTenant(user, params);
        const meterIds = idList(params, "meterIds");
        // A meter outside the caller's data scope is named as absent and left out, like an unknown one.
        const hidden = await outsideScope(db, request, resources.meter, "pms_meter", tenantId, meterIds);
        const source = `message/${verb}`;
        const kind = part === "price" ? "writePrice" : "writeAlarm";
        const outcome = await db.transaction((tx) =>
          runAsJob(tx, user, tenantId, { kind, params: {}, source }, (sink) =>
            queueSchemeWriteBatch(tx, user, tenantId, meterIds, part, source, hidden, sink),
          ),
        );
        return ok(outcome, outcomeMessage(outcome, what));
      },
    );
  }

  app.get(
    `${base}/batchProgress`,
    { schema: { tags, summary: "How many commands of a batch are queued, sent and settled" } },
    async (request) => {
      const user = await requirePermission(db, request, [
        "meter_switch",
        "water_switch",
        "ownerGroup_close",
        "meter_write_price",
        "meter_write_alarm",
        "water_write_price",
        "water_write_alarm",
        "water_valve_status",
        ...readCodesOf(resources.meterCommand),
      ]);
      const params = readParams(request);
      const batchId = optionalId(params, "batchId");
      if (!batchId) throw badRequest("batchId: 缺少批次号");
      return ok(await batchProgress(db, registryTenant(user, params), batchId));
    },
  );
}
