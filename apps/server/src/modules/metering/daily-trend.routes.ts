import { readCodesOf, resources } from "@meterline/contracts";
import type { FastifyInstance } from "fastify";
import { ok } from "../../contract/envelope.ts";
import { badRequest } from "../../contract/errors.ts";
import { optionalId, optionalString, readParams } from "../../contract/params.ts";
import { requirePermission } from "../../crud/permissions.ts";
import type { Db } from "../../db/client.ts";
import { registryTenant } from "../pms/registry-access.ts";
import { dayAt, dayParam, daysBack, fillDays, localDay } from "./usage-periods.ts";
import { usagePerDay } from "./usage-sums.db.ts";

const DAY_MS = 24 * 3600_000;
const MAX_DAYS = 366;
const DEFAULT_DAYS = 30;

/** `days`: how many days up to `to` when no `from` is given (default 30, at most 366). */
function lastDays(params: Record<string, unknown>): number {
  const text = optionalString(params, "days");
  if (text === undefined) return DEFAULT_DAYS;
  const days = Number(text);
  if (!Number.isInteger(days) || days < 1 || days > MAX_DAYS)
    throw badRequest(`days: 应为 1 到 ${MAX_DAYS} 的整数`);
  return days;
}

/**
 * Usage per day for the daily usage screens' chart (electric `datadailydd/trend`, water
 * `waterdatadaily/trend`): the sum over the tenant's meters, or those of an area and below, one
 * room, one meter or the meters whose number contains `productCode` (the table's search beside it), for `from`–`to` (default the last `days`, 30, of the tenant's calendar; at most 366), every
 * day listed, zero where nothing was used or read.
 */
export async function dailyTrendRoutes(app: FastifyInstance, opts: { db: Db; timeZone: string }) {
  const { db, timeZone } = opts;
  for (const def of [resources.dataDaily, resources.waterDataDaily]) {
    app.get(
      `/api/${def.service}/${def.path}/trend`,
      { schema: { tags: [def.name], summary: "Usage per day, summed over the meters asked for" } },
      async (request) => {
        const user = await requirePermission(db, request, readCodesOf(def));
        const params = readParams(request);
        const to = dayParam(params, "to") ?? localDay(new Date(), timeZone);
        const from = dayParam(params, "from") ?? daysBack(to, lastDays(params));
        if (from > to) throw badRequest("from: 开始日期不能晚于结束日期");
        if ((dayAt(to) - dayAt(from)) / DAY_MS + 1 > MAX_DAYS)
          throw badRequest(`from: 日期范围不能超过 ${MAX_DAYS} 天`);
        const scope = {
          tenantId: registryTenant(user, params),
          meterId: optionalId(params, "meterId"),
          areaId: optionalId(params, "areaId"),
          roomId: optionalId(params, "roomId"),
          productCode: optionalString(params, "productCode")?.trim() || undefined,
        };
        const table = def === resources.dataDaily ? "pms_data_daily" : "pms_water_data_daily";
        return ok(fillDays(from, to, await usagePerDay(db, table, scope, from, to)));
      },
    );
  }
}
