import type { Queryable } from "../../db/client.ts";
import { nextId } from "../../db/ids.ts";

/** The meter a daily row belongs to, as the readings sink resolved it. */
export interface DailyTarget {
  tenantId: string;
  meterId: string;
  /** The room the meter is installed in now (rows keep it so usage can be filtered by area). */
  roomId: string | null;
  productCode: string;
}

/** Registers as exact decimal text: total, then the tip, peak, flat and valley bands. */
export type ElectricRegisters = readonly [string, string | null, string | null, string | null, string | null];

/*
 * Daily usage rows (pms_data_daily, pms_water_data_daily), one per meter and local day:
 * - the first read of a day opens the row, starting from yesterday's end when there is a row for
 *   yesterday (so nothing used between the last read of one day and the first of the next is
 *   lost), else from the read itself; later reads move the end;
 * - a meter's daily freeze (DL/T 645 05060101, the registers at local midnight) is authoritative:
 *   it replaces the day's opening and closes the day before, which no read changes afterwards;
 * - reads older than the row's last update are ignored (a late reply must not move the end back).
 * Usage is end − start; a negative usage is kept as is, as it means a replaced or reset meter.
 */

const ELECTRIC_READ = `
insert into pms_data_daily as d
  (id, tenant_id, meter_id, room_id, product_code, day_date, update_time, start_source, closed,
   start_value, start_tip, start_peak, start_peace, start_low,
   end_value, end_tip, end_peak, end_peace, end_low,
   usage, tip_usage, peak_usage, peace_usage, low_usage)
select $1, $2, $3, $4, $5, $6::date, $7, 'reading', 0,
       s.total, s.tip, s.peak, s.peace, s.low,
       $8, $9, $10, $11, $12,
       $8 - s.total, $9 - s.tip, $10 - s.peak, $11 - s.peace, $12 - s.low
  from (select coalesce(y.end_value, $8::numeric) as total, coalesce(y.end_tip, $9::numeric) as tip,
               coalesce(y.end_peak, $10::numeric) as peak, coalesce(y.end_peace, $11::numeric) as peace,
               coalesce(y.end_low, $12::numeric) as low
          from (select 1) one
          left join pms_data_daily y
            on y.tenant_id = $2 and y.meter_id = $3 and y.day_date = $6::date - 1) s
on conflict (tenant_id, meter_id, day_date) do update set
  end_value = excluded.end_value, end_tip = excluded.end_tip, end_peak = excluded.end_peak,
  end_peace = excluded.end_peace, end_low = excluded.end_low,
  usage = excluded.end_value - d.start_value, tip_usage = excluded.end_tip - d.start_tip,
  peak_usage = excluded.end_peak - d.start_peak, peace_usage = excluded.end_peace - d.start_peace,
  low_usage = excluded.end_low - d.start_low,
  room_id = coalesce(excluded.room_id, d.room_id), update_time = excluded.update_time
where d.closed = 0 and d.update_time <= excluded.update_time
returning (d.id = $1) as opened`;

const WATER_READ = `
insert into pms_water_data_daily as d
  (id, tenant_id, meter_id, room_id, product_code, day_date, update_time, start_source, closed,
   start_value, end_value, usage)
select $1, $2, $3, $4, $5, $6::date, $7, 'reading', 0, s.total, $8, $8 - s.total
  from (select coalesce(y.end_value, $8::numeric) as total
          from (select 1) one
          left join pms_water_data_daily y
            on y.tenant_id = $2 and y.meter_id = $3 and y.day_date = $6::date - 1) s
on conflict (tenant_id, meter_id, day_date) do update set
  end_value = excluded.end_value, usage = excluded.end_value - d.start_value,
  room_id = coalesce(excluded.room_id, d.room_id), update_time = excluded.update_time
where d.closed = 0 and d.update_time <= excluded.update_time
returning (d.id = $1) as opened`;

const ELECTRIC_FREEZE_OPENS = `
insert into pms_data_daily as d
  (id, tenant_id, meter_id, room_id, product_code, day_date, update_time, start_source, closed,
   start_value, start_tip, start_peak, start_peace, start_low,
   end_value, end_tip, end_peak, end_peace, end_low,
   usage, tip_usage, peak_usage, peace_usage, low_usage)
values ($1, $2, $3, $4, $5, $6::date, $7, 'frozen', 0,
        $8, $9, $10, $11, $12, $8, $9, $10, $11, $12, 0, 0, 0, 0, 0)
on conflict (tenant_id, meter_id, day_date) do update set
  start_source = 'frozen',
  start_value = excluded.start_value, start_tip = excluded.start_tip, start_peak = excluded.start_peak,
  start_peace = excluded.start_peace, start_low = excluded.start_low,
  usage = d.end_value - excluded.start_value, tip_usage = d.end_tip - excluded.start_tip,
  peak_usage = d.end_peak - excluded.start_peak, peace_usage = d.end_peace - excluded.start_peace,
  low_usage = d.end_low - excluded.start_low`;

const ELECTRIC_FREEZE_CLOSES = `
update pms_data_daily set
  end_value = $5, end_tip = $6, end_peak = $7, end_peace = $8, end_low = $9,
  usage = $5 - start_value, tip_usage = $6 - start_tip, peak_usage = $7 - start_peak,
  peace_usage = $8 - start_peace, low_usage = $9 - start_low,
  closed = 1, update_time = $4
where tenant_id = $1 and meter_id = $2 and day_date = $3::date - 1`;

const CLOSE_EARLIER = (table: DailyTable) =>
  `update ${table} set closed = 1 where tenant_id = $1 and meter_id = $2 and day_date < $3::date and closed = 0`;

type DailyTable = "pms_data_daily" | "pms_water_data_daily";

/** $1–$7 of the upserts (a new row's id, the meter, the day and the time), then the registers. */
const rowParams = (target: DailyTarget, day: string, at: Date, registers: readonly (string | null)[]) => [
  nextId(),
  target.tenantId,
  target.meterId,
  target.roomId,
  target.productCode,
  day,
  at,
  ...registers,
];

/**
 * A read on local day `day` by one of the read upserts; the first read of a day (the row was
 * inserted: it carries the new id, where an updated row keeps its own; `xmax` cannot be read from a
 * partitioned table) also closes the days before it, as no later read can belong to them.
 */
async function dayRead(
  db: Queryable,
  table: DailyTable,
  upsert: string,
  target: DailyTarget,
  day: string,
  registers: readonly (string | null)[],
  at: Date,
): Promise<void> {
  const [row] = await db.query<{ opened: boolean }>(upsert, rowParams(target, day, at, registers));
  if (row?.opened) await db.query(CLOSE_EARLIER(table), [target.tenantId, target.meterId, day]);
}

/** The latest read of an electric meter on local day `day` (yyyy-MM-dd). */
export const electricDayRead = (
  db: Queryable,
  target: DailyTarget,
  day: string,
  registers: ElectricRegisters,
  at: Date,
) => dayRead(db, "pms_data_daily", ELECTRIC_READ, target, day, registers, at);

/** The latest read of a water meter on local day `day`. */
export const waterDayRead = (db: Queryable, target: DailyTarget, day: string, total: string, at: Date) =>
  dayRead(db, "pms_water_data_daily", WATER_READ, target, day, [total], at);

/** An electric meter's daily freeze: its registers at the start of local day `day`. */
export async function electricDayFreeze(
  db: Queryable,
  target: DailyTarget,
  day: string,
  registers: ElectricRegisters,
  at: Date,
): Promise<void> {
  const { tenantId, meterId } = target;
  await db.query(ELECTRIC_FREEZE_OPENS, rowParams(target, day, at, registers));
  await db.query(ELECTRIC_FREEZE_CLOSES, [tenantId, meterId, day, at, ...registers]);
  // Days further back (the meter was unread for a while) are over too.
  await db.query(CLOSE_EARLIER("pms_data_daily"), [tenantId, meterId, day]);
}
