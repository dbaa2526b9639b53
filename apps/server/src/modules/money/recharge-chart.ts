import type { Queryable } from "../../db/client.ts";
import { dayAt, everyDay, isoDay } from "../metering/usage-periods.ts";
import { periodDays } from "./money-overview.ts";

/** Money of one period (a day, or a month keyed by its first day), in yuan. */
export interface RechargeSum {
  day: string;
  /** Recharges taken (RECHARGE_TYPE 1). */
  recharge: string;
  /** Refunds paid back (RECHARGE_TYPE 2). */
  refund: string;
  /** How many recharges were taken. */
  count: number;
}

/** Every month's first day from the month of `from` to the month of `to`. */
function monthsFrom(from: string, to: string): string[] {
  const start = new Date(dayAt(from));
  const end = new Date(dayAt(to));
  const months: string[] = [];
  // Months counted from year 0, so stepping across a new year is plain addition.
  const last = end.getUTCFullYear() * 12 + end.getUTCMonth();
  for (let month = start.getUTCFullYear() * 12 + start.getUTCMonth(); month <= last; month++)
    months.push(isoDay(Date.UTC(Math.floor(month / 12), month % 12, 1)));
  return months;
}

/**
 * The tenant's recharges and refunds per day (dateType 1: 7 days, 2: 30 days) or per month (3: 12
 * months), on the same axis as the usage chart (homepage/getChart), for the home page to put money
 * beside usage; every tenant's when `tenantId` is null (the platform administrator's home).
 * Corrections are not money taken and stay out. Days are the tenant's calendar days.
 */
export async function rechargesPerPeriod(
  db: Queryable,
  tenantId: string | null,
  dateType: 1 | 2 | 3,
  now: Date,
  timeZone: string,
): Promise<RechargeSum[]> {
  const { from, to } = periodDays(dateType, now, timeZone);
  const unit = dateType === 3 ? "month" : "day";
  const rows = await db.query<RechargeSum>(
    `select to_char(date_trunc('${unit}', r.create_time at time zone $4), 'YYYY-MM-DD') as day,
            (coalesce(sum(r.amount) filter (where r.recharge_type = 1), 0) / 100.0)::numeric(14, 2)::text as recharge,
            (coalesce(sum(r.amount) filter (where r.recharge_type = 2), 0) / 100.0)::numeric(14, 2)::text as refund,
            (count(*) filter (where r.recharge_type = 1))::int as count
       from pms_recharge r
      where ($1::text is null or r.tenant_id = $1::text) and r.state = 1 and r.recharge_type in (1, 2)
        and r.create_time >= ($2::date::timestamp at time zone $4)
        and r.create_time < (($3::date + 1)::timestamp at time zone $4)
      group by 1`,
    [tenantId, from, to, timeZone],
  );
  const empty = (day: string): RechargeSum => ({ day, recharge: "0.00", refund: "0.00", count: 0 });
  if (unit === "day") return everyDay(from, to, rows, empty);
  const found = new Map(rows.map((r) => [r.day, r]));
  return monthsFrom(from, to).map((day) => found.get(day) ?? empty(day));
}
