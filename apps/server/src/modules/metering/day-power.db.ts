import type { Queryable } from "../../db/client.ts";
import { prepared } from "../../db/prepared.ts";

/** One electric meter's reported total active power at a read, on the read's local day. */
export interface DayPower {
  tenantId: string;
  meterId: string;
  /** Local day, yyyy-MM-dd (as daily usage counts it). */
  day: string;
  /** kW, exact signed decimal text. */
  powerKw: string;
  at: Date;
}

/**
 * Keeps each meter's highest power per local day (pms_data_day_power) for many reads in one
 * statement: the batch is folded per meter and day first (a row may be written once per statement),
 * then greatest() keeps the higher of the stored and the new, so reads may arrive in any order and
 * one read written twice changes nothing.
 */
export async function keepDayPowers(db: Queryable, rows: readonly DayPower[]): Promise<void> {
  if (rows.length === 0) return;
  await db.query(
    prepared(`insert into pms_data_day_power as p (tenant_id, meter_id, day_date, max_power, update_time)
     select tenant_id, meter_id, day_date, max(power), max(at)
       from unnest($1::varchar[], $2::bigint[], $3::date[], $4::numeric[], $5::timestamptz[])
         as r(tenant_id, meter_id, day_date, power, at)
      group by tenant_id, meter_id, day_date
     on conflict (tenant_id, meter_id, day_date) do update set
       max_power = greatest(p.max_power, excluded.max_power),
       update_time = greatest(p.update_time, excluded.update_time)`),
    [
      rows.map((r) => r.tenantId),
      rows.map((r) => r.meterId),
      rows.map((r) => r.day),
      rows.map((r) => r.powerKw),
      rows.map((r) => r.at.toISOString()),
    ],
  );
}
