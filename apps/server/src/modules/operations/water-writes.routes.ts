import { resources } from "@meterline/contracts";
import type { FastifyInstance } from "fastify";
import { ok } from "../../contract/envelope.ts";
import { badRequest } from "../../contract/errors.ts";
import { idList, optionalId, optionalString, readParams } from "../../contract/params.ts";
import { requirePermission } from "../../crud/permissions.ts";
import type { Db } from "../../db/client.ts";
import { localDay } from "../metering/usage-periods.ts";
import { registryTenant } from "../pms/registry-access.ts";
import { runAsJob } from "./batch-jobs/job-service.ts";
import { assertInScope, outsideScope } from "./switch.routes.ts";
import { outcomeMessage, queueSupplyCommands } from "./switching.ts";
import { awaitValveStatus, queueValveStatusReads } from "./water-valve-status.ts";
import { queueWaterWriteBatch } from "./water-writes.ts";

const pms = "/api/blade-pms";
const tags = ["waterparam"];
/** How long waterSwitchStatusResult waits for the meter by default, and at most. */
const VALVE_WAIT = { defaultSeconds: 15, maxSeconds: 30 } as const;

function waitSecondsOf(params: Record<string, unknown>): number {
  const text = optionalString(params, "waitSeconds");
  if (text === undefined || text === "") return VALVE_WAIT.defaultSeconds;
  const seconds = Number(text);
  if (!Number.isInteger(seconds) || seconds < 0 || seconds > VALVE_WAIT.maxSeconds)
    throw badRequest(`waitSeconds: 只能是 0–${VALVE_WAIT.maxSeconds} 的整数`);
  return seconds;
}

/**
 * Water meters' parameter writes and valve reads (spec §7 waterparam, message): thin routes over
 * water-writes.ts and water-valve-status.ts. Meters outside the caller's data scope are named as
 * absent, like unknown ones and another tenant's.
 */
export async function waterWriteRoutes(app: FastifyInstance, opts: { db: Db; timeZone: string }) {
  const { db, timeZone } = opts;

  for (const [verb, part, permission, what] of [
    ["modWaterPriceBatch", "price", "water_write_price", "写水价"],
    ["modWaterAlarmBatch", "alarm", "water_write_alarm", "写告警值"],
  ] as const) {
    app.post(
      `${pms}/waterparam/${verb}`,
      {
        schema: { tags, summary: `Write the ${part} settings of water meters from their accounts' schemes` },
      },
      async (request) => {
        const user = await requirePermission(db, request, [permission]);
        const params = readParams(request);
        const tenantId = registryTenant(user, params);
        const meterIds = idList(params, "meterIds");
        const hidden = await outsideScope(db, request, resources.water, "pms_water", tenantId, meterIds);
        // The table applies from today, the tenant's day (the start date byte of A010).
        const startDay = Number(localDay(new Date(), timeZone).slice(8, 10));
        const source = `waterparam/${verb}`;
        const kind = part === "price" ? "waterPrice" : "waterAlarm";
        const outcome = await db.transaction((tx) =>
          runAsJob(tx, user, tenantId, { kind, params: {}, source }, (sink) =>
            queueWaterWriteBatch(tx, user, tenantId, meterIds, part, source, { startDay, hidden }, sink),
          ),
        );
        return ok(outcome, outcomeMessage(outcome, what));
      },
    );
  }

  // One water meter's valve (type 1 open, 2 close): the waterparam family's form of waterSwitch.
  app.post(
    `${pms}/waterparam/control`,
    { schema: { tags, summary: "Open or close one water meter's valve (type 1 open, 2 close)" } },
    async (request) => {
      const user = await requirePermission(db, request, ["water_switch"]);
      const params = readParams(request);
      const meterId = optionalId(params, "meterId") ?? optionalId(params, "id");
      if (!meterId) throw badRequest("meterId: 请选择表计");
      const type = optionalString(params, "type") ?? optionalString(params, "switchType");
      if (type !== "1" && type !== "2") throw badRequest("type: 只能是 1(开阀) 或 2(关阀)");
      const tenantId = registryTenant(user, params);
      await assertInScope(db, request, resources.water, "pms_water", tenantId, [meterId]);
      const open = type === "1";
      const outcome = await db.transaction((tx) =>
        queueSupplyCommands(tx, user, tenantId, [{ energyType: 2, meterId }], { open }, "waterparam/control"),
      );
      return ok(outcome, outcomeMessage(outcome, open ? "开阀" : "关阀"));
    },
  );

  app.post(
    `${pms}/message/waterSwitchStatusBatch`,
    { schema: { tags: ["message"], summary: "Read the valve state of several water meters now" } },
    async (request) => {
      const user = await requirePermission(db, request, ["water_valve_status"]);
      const params = readParams(request);
      const tenantId = registryTenant(user, params);
      const meterIds = idList(params, "meterIds");
      const hidden = await outsideScope(db, request, resources.water, "pms_water", tenantId, meterIds);
      const source = "message/waterSwitchStatusBatch";
      const outcome = await db.transaction((tx) =>
        runAsJob(tx, user, tenantId, { kind: "valveStatus", params: {}, source }, (sink) =>
          queueValveStatusReads(tx, user, tenantId, meterIds, source, hidden, sink),
        ),
      );
      return ok(outcome, outcomeMessage(outcome, "读阀门状态"));
    },
  );

  app.post(
    `${pms}/message/waterSwitchStatusResult`,
    {
      schema: {
        tags: ["message"],
        summary: "Read one water meter's valve state now and answer it (waits up to waitSeconds)",
      },
    },
    async (request) => {
      const user = await requirePermission(db, request, ["water_valve_status"]);
      const params = readParams(request);
      const meterId = optionalId(params, "meterId") ?? optionalId(params, "id");
      if (!meterId) throw badRequest("meterId: 请选择表计");
      const waitSeconds = waitSecondsOf(params);
      const tenantId = registryTenant(user, params);
      await assertInScope(db, request, resources.water, "pms_water", tenantId, [meterId]);
      // Committed before the wait, so the gateway can claim the read.
      const outcome = await db.transaction((tx) =>
        queueValveStatusReads(tx, user, tenantId, [meterId], "message/waterSwitchStatusResult"),
      );
      const [skipped] = outcome.skipped;
      if (skipped) throw badRequest(`meterId: ${skipped.reason} (${meterId})`);
      const [command] = await db.query<{ id: string }>(
        "select id::text as id from pms_meter_command where batch_id = $1 and tenant_id = $2",
        [outcome.batchId, tenantId],
      );
      const answer = await awaitValveStatus(db, tenantId, meterId, command!.id, waitSeconds * 1000);
      const message =
        answer.result === null
          ? `表计 ${waitSeconds} 秒内未应答,读取仍在进行,结果见命令记录`
          : answer.result === 1
            ? "读阀门状态成功"
            : "读阀门状态失败";
      return ok(answer, message);
    },
  );
}
