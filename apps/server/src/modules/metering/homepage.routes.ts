import {
  type ChartPeriod,
  chartPeriods,
  type DeviceCounts,
  type DeviceStatus,
  meteringOverviewSources,
  readCodesOf,
  resources,
} from "@meterline/contracts";
import type { FastifyInstance } from "fastify";
import { ok } from "../../contract/envelope.ts";
import { badRequest } from "../../contract/errors.ts";
import { optionalString, readParams } from "../../contract/params.ts";
import { requirePermission } from "../../crud/permissions.ts";
import type { Db, Queryable } from "../../db/client.ts";
import { listTenant } from "../pms/registry-access.ts";
import { dayParam, daysBack, fillDays, fillMonths, localDay, monthsBack } from "./usage-periods.ts";
import { type DailyTable, usagePerDay, usagePerMonth, usageRank } from "./usage-sums.db.ts";

const base = "/api/blade-pms/homepage";
const tags = ["homepage"];
const RANK_SIZE = 10;
const READ_CODES = meteringOverviewSources.flatMap((name) => readCodesOf(resources[name]));

/** A parameter that must be one of `allowed` (default `fallback`), or a 400 naming it. */
function choice<T extends string>(
  params: Record<string, unknown>,
  name: string,
  allowed: readonly T[],
  fallback: T,
): T {
  const value = optionalString(params, name) ?? fallback;
  if (!(allowed as readonly string[]).includes(value))
    throw badRequest(`${name}: 只能是 ${allowed.join(", ")}`);
  return value as T;
}

const tableOf = (energyType: "1" | "2"): DailyTable =>
  energyType === "1" ? "pms_data_daily" : "pms_water_data_daily";

async function deviceStatus(db: Queryable, tenantId: string | null): Promise<DeviceStatus> {
  // A null tenant (the platform administrator's every tenant) drops the tenant predicate: bound as a
  // parameter, never spliced. Accounts and alarms follow their meter's own tenant.
  const meters = await db.query<Required<DeviceCounts> & { energy: string }>(
    // In arrears: the meter's open account is at ALARM_LEVEL 3 (ARREAS_STATUS 1). Alarming: the
    // meter has a check record still alarming, whatever its rules (counted once per meter). The
    // sub-selects name the tenant too: the planner may read them apart from their meter (a hashed plan).
    `select energy, count(*)::int as total, count(*) filter (where online_status = 1)::int as online,
            count(*) filter (where online_status <> 1)::int as offline,
            count(*) filter (where switch_status = 1)::int as "supplyOff",
            count(*) filter (where account_status = 1)::int as opened,
            count(*) filter (where exists (
              select 1 from pms_account a where a.tenant_id = m.tenant_id and a.energy_type = m.energy_type
                 and a.meter_id = m.id and a.status = 1 and a.arrears_status = 1
                 and ($1::text is null or a.tenant_id = $1::text)))::int as arrears,
            count(*) filter (where exists (
              select 1 from pms_check_record c where c.tenant_id = m.tenant_id and c.energy_type = m.energy_type
                 and c.meter_id = m.id and c.alarm_status = 1 and c.is_deleted = 0
                 and ($1::text is null or c.tenant_id = $1::text)))::int as alarming
       from (select 'electric' as energy, 1 as energy_type, tenant_id, id, online_status, switch_status, account_status
               from pms_meter where ($1::text is null or tenant_id = $1::text) and is_deleted = 0
             union all
             select 'water', 2, tenant_id, id, online_status, switch_status, account_status from pms_water
              where ($1::text is null or tenant_id = $1::text) and is_deleted = 0) m
      group by energy`,
    [tenantId],
  );
  const [collector] = await db.query<{ total: number; online: number; offline: number }>(
    `select count(*)::int as total, count(*) filter (where online_status = 1)::int as online,
            count(*) filter (where online_status <> 1)::int as offline
       from pms_collector where ($1::text is null or tenant_id = $1::text) and is_deleted = 0`,
    [tenantId],
  );
  const none: DeviceCounts = {
    total: 0,
    online: 0,
    offline: 0,
    supplyOff: 0,
    opened: 0,
    arrears: 0,
    alarming: 0,
  };
  const of = (kind: string): DeviceCounts => {
    const { energy: _, ...counts } = meters.find((m) => m.energy === kind) ?? { energy: kind, ...none };
    return counts;
  };
  return {
    electric: of("electric"),
    water: of("water"),
    collector: collector ?? { total: 0, online: 0, offline: 0 },
  };
}

/**
 * The home page's metering overview (spec §7 homepage): device status, usage per period by energy
 * type, and the day's usage rank, for the caller's tenant; for the platform administrator the one
 * it names, or every tenant summed when it names none (issue 34: its home shows every tenant or one). The money charts (ratios, owner paths, recharges per period) live in the money module.
 */
export async function homepageRoutes(app: FastifyInstance, opts: { db: Db; timeZone: string }) {
  const { db, timeZone } = opts;

  app.get(
    `${base}/deviceStatusData`,
    {
      schema: { tags, summary: "Meters and collectors: total, online, offline, supply cut, accounts opened" },
    },
    async (request) => {
      const user = await requirePermission(db, request, READ_CODES);
      return ok(await deviceStatus(db, listTenant(user, readParams(request))));
    },
  );

  app.get(
    `${base}/getChart`,
    {
      schema: {
        tags,
        summary:
          "Usage per day (dateType 1: 7 days, 2: 30 days) or per month (3: 12 months) of an energy type",
      },
    },
    async (request) => {
      const user = await requirePermission(db, request, READ_CODES);
      const params = readParams(request);
      const period = Number(choice(params, "dateType", ["1", "2", "3"], "1")) as ChartPeriod;
      const table = tableOf(choice(params, "energyType", ["1", "2"], "1"));
      const scope = { tenantId: listTenant(user, params) };
      const today = localDay(new Date(), timeZone);
      const span = chartPeriods[period];
      if ("months" in span) {
        const from = monthsBack(today, span.months);
        return ok(fillMonths(from, today, await usagePerMonth(db, table, scope, from, today)));
      }
      const from = daysBack(today, span.days);
      return ok(fillDays(from, today, await usagePerDay(db, table, scope, from, today)));
    },
  );

  app.get(
    `${base}/getDdRank`,
    { schema: { tags, summary: "The meters that used most on a day (default today), most first" } },
    async (request) => {
      const user = await requirePermission(db, request, READ_CODES);
      const params = readParams(request);
      const table = tableOf(choice(params, "energyType", ["1", "2"], "1"));
      const day = dayParam(params, "day") ?? localDay(new Date(), timeZone);
      return ok(await usageRank(db, table, listTenant(user, params), day, RANK_SIZE));
    },
  );
}
