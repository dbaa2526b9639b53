import { chartPeriods } from "@meterline/contracts";
import type { Queryable } from "../../db/client.ts";
import { daysBack, everyDay, localDay, monthsBack } from "../metering/usage-periods.ts";

/** The first and last local day of a home-page period (dateType 1: 7 days, 2: 30 days, 3: 12 months). */
export function periodDays(dateType: 1 | 2 | 3, now: Date, timeZone: string): { from: string; to: string } {
  const to = localDay(now, timeZone);
  const span = chartPeriods[dateType];
  return { from: "months" in span ? monthsBack(to, span.months) : daysBack(to, span.days), to };
}

const RANGE = `r.create_time >= ($2::date::timestamp at time zone $4) and r.create_time < (($3::date + 1)::timestamp at time zone $4)`;

/**
 * Money taken in a period, split by recharge type (rechargeTypeRatio) or by payment method of the
 * recharges (paymentMethodRatio): amounts in yuan and counts, for the home page's pies; of every
 * tenant when `tenantId` is null (the platform administrator's home).
 */
export async function moneyRatio(
  db: Queryable,
  tenantId: string | null,
  by: "recharge_type" | "payment_method",
  period: { from: string; to: string },
  timeZone: string,
) {
  const onlyRecharges = by === "payment_method" ? "and r.recharge_type = 1" : "";
  const rows = await db.query<{ key: number; amount: string; count: number }>(
    `select r.${by} as key, (sum(r.amount) / 100.0)::numeric(14, 2)::text as amount, count(*)::int as count
       from pms_recharge r
      where ($1::text is null or r.tenant_id = $1::text) and r.state = 1 and ${RANGE} ${onlyRecharges}
      group by r.${by} order by r.${by}`,
    [tenantId, period.from, period.to, timeZone],
  );
  return rows.map((r) => ({
    [by === "recharge_type" ? "rechargeType" : "paymentMethod"]: r.key,
    amount: r.amount,
    count: r.count,
  }));
}

/** An owner's usage per day over the days up to today (getOwnerPath): electric kWh and water m³. */
export async function ownerUsagePath(
  db: Queryable,
  tenantId: string,
  ownerId: string,
  days: number,
  now: Date,
  timeZone: string,
) {
  const to = localDay(now, timeZone);
  const from = daysBack(to, days);
  const rows = await db.query<{ day: string; electric: string; water: string }>(
    `with rooms as (select room_id from pms_owner_room where tenant_id = $1 and owner_id = $2 and is_deleted = 0)
     select day, sum(electric)::text as electric, sum(water)::text as water from (
       select to_char(day_date, 'YYYY-MM-DD') as day, usage as electric, 0 as water from pms_data_daily
        where tenant_id = $1 and room_id in (select room_id from rooms) and day_date between $3::date and $4::date
       union all
       select to_char(day_date, 'YYYY-MM-DD'), 0, usage from pms_water_data_daily
        where tenant_id = $1 and room_id in (select room_id from rooms) and day_date between $3::date and $4::date
     ) u group by day`,
    [tenantId, ownerId, from, to],
  );
  return everyDay(from, to, rows, (day) => ({ day, electric: "0", water: "0" }));
}

/** An owner's recharges per day (getOwnerRechargePath): money in and refunds out, in yuan. */
export async function ownerRechargePath(
  db: Queryable,
  tenantId: string,
  ownerId: string,
  days: number,
  now: Date,
  timeZone: string,
) {
  const to = localDay(now, timeZone);
  const from = daysBack(to, days);
  const rows = await db.query<{ day: string; recharge: string; refund: string }>(
    `select to_char(r.create_time at time zone $4, 'YYYY-MM-DD') as day,
            (coalesce(sum(r.amount) filter (where r.recharge_type in (1, 3)), 0) / 100.0)::numeric(14, 2)::text as recharge,
            (coalesce(sum(r.amount) filter (where r.recharge_type in (2, 4)), 0) / 100.0)::numeric(14, 2)::text as refund
       from pms_recharge r
      where r.tenant_id = $1 and r.owner_id = $5 and r.state = 1 and ${RANGE}
      group by 1`,
    [tenantId, from, to, timeZone, ownerId],
  );
  return everyDay(from, to, rows, (day) => ({ day, recharge: "0.00", refund: "0.00" }));
}
