import { readCodesOf, resources } from "@meterline/contracts";
import type { FastifyInstance } from "fastify";
import { ok } from "../../contract/envelope.ts";
import { badRequest } from "../../contract/errors.ts";
import { optionalId, optionalString, readParams } from "../../contract/params.ts";
import { requirePermission } from "../../crud/permissions.ts";
import type { Db } from "../../db/client.ts";
import { areaSubtree } from "../pms/registry.hooks.ts";
import { registryTenant } from "../pms/registry-access.ts";
import { localDay } from "./readings-sink.db.ts";

const DAY_MS = 24 * 3600_000;
const MAX_DAYS = 366;
const DEFAULT_DAYS = 30;

export interface TrendDay {
  day: string;
  /** Summed usage of the day, exact decimal text ("0.00" for a day without rows). */
  usage: string;
  /** Meters with a row that day. */
  meters: number;
}

/** A yyyy-MM-dd parameter as a UTC midnight, or a 400 naming it. */
function dayParam(params: Record<string, unknown>, name: string): number | undefined {
  const text = optionalString(params, name);
  if (text === undefined) return undefined;
  const at = /^\d{4}-\d{2}-\d{2}$/.test(text) ? Date.parse(`${text}T00:00:00Z`) : Number.NaN;
  if (Number.isNaN(at)) throw badRequest(`${name}: 日期格式应为 yyyy-MM-dd`);
  return at;
}

/** Every day from `from` to `to`, with the sums found or zero. */
function filled(from: number, to: number, rows: TrendDay[]): TrendDay[] {
  const byDay = new Map(rows.map((r) => [r.day, r]));
  const out: TrendDay[] = [];
  for (let at = from; at <= to; at += DAY_MS) {
    const day = new Date(at).toISOString().slice(0, 10);
    out.push(byDay.get(day) ?? { day, usage: "0.00", meters: 0 });
  }
  return out;
}

/**
 * Usage per day for the daily usage screens' chart (electric `datadailydd/trend`, water
 * `waterdatadaily/trend`): the sum over the tenant's meters, or those of an area and below, or one
 * meter, for `from`–`to` (default the last 30 days of the tenant's calendar, at most 366).
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
        const to = dayParam(params, "to") ?? Date.parse(`${localDay(new Date(), timeZone)}T00:00:00Z`);
        const from = dayParam(params, "from") ?? to - (DEFAULT_DAYS - 1) * DAY_MS;
        if (from > to) throw badRequest("from: 开始日期不能晚于结束日期");
        if ((to - from) / DAY_MS + 1 > MAX_DAYS) throw badRequest(`from: 日期范围不能超过 ${MAX_DAYS} 天`);
        const iso = (at: number) => new Date(at).toISOString().slice(0, 10);
        const rows = await db.query<TrendDay>(
          `select to_char(d.day_date, 'YYYY-MM-DD') as day, sum(d.usage)::numeric(16, 2)::text as usage,
                  count(*)::int as meters
             from ${def.table} d
            where d.tenant_id = $1 and d.day_date between $2::date and $3::date
              and ($4::bigint is null or d.meter_id = $4::bigint)
              and ($5::bigint is null or d.room_id in (
                    select r.id from pms_room r where r.area_id in (${areaSubtree("$5")})))
            group by d.day_date`,
          [
            registryTenant(user, params),
            iso(from),
            iso(to),
            optionalId(params, "meterId") ?? null,
            optionalId(params, "areaId") ?? null,
          ],
        );
        return ok(filled(from, to, rows));
      },
    );
  }
}
