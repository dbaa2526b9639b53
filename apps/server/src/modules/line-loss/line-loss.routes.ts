import type { FastifyInstance } from "fastify";
import { ok } from "../../contract/envelope.ts";
import { badRequest } from "../../contract/errors.ts";
import { optionalString, readParams } from "../../contract/params.ts";
import { requirePermission } from "../../crud/permissions.ts";
import type { Db } from "../../db/client.ts";
import { dayParam, daysBack, localDay } from "../metering/usage-periods.ts";
import { registryTenant } from "../pms/registry-access.ts";
import type { EnergyType } from "./line-loss.repository.ts";
import { type LossPeriod, MAX_HISTORY_DAYS, nodeHistory, nodesLoss } from "./line-loss.service.ts";

const base = "/api/blade-pms/line-loss";
const tags = ["metering"];
/** The loss page's menu; the topology screens may read it too. */
const READ_CODES = ["lineLoss", "meteringNode", "meteringNode_view"];

type Params = Record<string, unknown>;

function energyTypeParam(params: Params): EnergyType {
  const text = optionalString(params, "energyType");
  if (text === undefined) return 1;
  if (text !== "1" && text !== "2") throw badRequest("energyType: 能源类型应为 1(电)或 2(水)");
  return Number(text) as EnergyType;
}

/** The day asked for, else yesterday in the tenant's zone (today is not over yet). */
const dayOrYesterday = (params: Params, timeZone: string) =>
  dayParam(params, "day") ?? daysBack(localDay(new Date(), timeZone), 2);

function periodParam(params: Params, timeZone: string): LossPeriod {
  const month = optionalString(params, "month");
  if (month === undefined) return { day: dayOrYesterday(params, timeZone) };
  if (!/^\d{4}-(0[1-9]|1[0-2])$/.test(month)) throw badRequest("month: 月份格式应为 yyyy-MM");
  return { month };
}

function daysParam(params: Params): number {
  const text = optionalString(params, "days");
  if (text === undefined) return 60;
  const days = Number(text);
  if (!/^\d{1,3}$/.test(text) || days < 1 || days > MAX_HISTORY_DAYS)
    throw badRequest(`days: 天数应为 1 至 ${MAX_HISTORY_DAYS}`);
  return days;
}

/**
 * Line loss per metering node: the tree with each node's loss over a day or a month, and one
 * node's daily series against its normal band (for a chart).
 */
export async function lineLossRoutes(app: FastifyInstance, opts: { db: Db; timeZone: string }) {
  const { db, timeZone } = opts;

  app.get(
    `${base}/nodes`,
    {
      schema: {
        tags,
        summary:
          "The metering node tree of an energy type with each node's loss over a day (and its band) or a month",
      },
    },
    async (request) => {
      const user = await requirePermission(db, request, READ_CODES);
      const params = readParams(request);
      const tenantId = registryTenant(user, params);
      const period = periodParam(params, timeZone);
      const energyType = energyTypeParam(params);
      return ok({
        energyType,
        ...period,
        nodes: await nodesLoss(db, tenantId, energyType, period, timeZone),
      });
    },
  );

  app.get(
    `${base}/history`,
    { schema: { tags, summary: "A node's daily loss over `days` days to `day`, each against its band" } },
    async (request) => {
      const user = await requirePermission(db, request, READ_CODES);
      const params = readParams(request);
      const nodeId = optionalString(params, "nodeId");
      if (!nodeId || !/^\d{1,19}$/.test(nodeId)) throw badRequest("nodeId: 请选择计量节点");
      const tenantId = registryTenant(user, params);
      const lastDay = dayOrYesterday(params, timeZone);
      return ok(await nodeHistory(db, tenantId, nodeId, lastDay, daysParam(params), timeZone));
    },
  );
}
