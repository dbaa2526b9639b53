import type { Queryable } from "../../db/client.ts";
import { nextId } from "../../db/ids.ts";
import { prepared } from "../../db/prepared.ts";

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

/** One meter's latest read of a local day, for the batch upserts below. */
export interface DayRead {
  target: DailyTarget;
  day: string;
  at: Date;
  /** Electric: total, tip, peak, flat, valley; water: the total alone. */
  registers: readonly (string | null)[];
}

const READ_UNNEST = (bands: boolean) =>
  `unnest($1::bigint[], $2::varchar[], $3::bigint[], $4::bigint[], $5::varchar[], $6::date[], $7::timestamptz[],
          $8::numeric[]${bands ? ", $9::numeric[], $10::numeric[], $11::numeric[], $12::numeric[]" : ""})
     as r(new_id, tenant_id, meter_id, room_id, product_code, day_date, update_time, total${bands ? ", tip, peak, peace, low" : ""})`;

const ELECTRIC_READS = prepared(`
insert into pms_data_daily as d
  (id, tenant_id, meter_id, room_id, product_code, day_date, update_time, start_source, closed,
   start_value, start_tip, start_peak, start_peace, start_low,
   end_value, end_tip, end_peak, end_peace, end_low,
   usage, tip_usage, peak_usage, peace_usage, low_usage)
select r.new_id, r.tenant_id, r.meter_id, r.room_id, r.product_code, r.day_date, r.update_time, 'reading', 0,
       s.total, s.tip, s.peak, s.peace, s.low,
       r.total, r.tip, r.peak, r.peace, r.low,
       r.total - s.total, r.tip - s.tip, r.peak - s.peak, r.peace - s.peace, r.low - s.low
  from ${READ_UNNEST(true)}
  cross join lateral (
    select coalesce(y.end_value, r.total) as total, coalesce(y.end_tip, r.tip) as tip,
           coalesce(y.end_peak, r.peak) as peak, coalesce(y.end_peace, r.peace) as peace,
           coalesce(y.end_low, r.low) as low
      from (select 1) one
      left join pms_data_daily y
        on y.tenant_id = r.tenant_id and y.meter_id = r.meter_id and y.day_date = r.day_date - 1) s
on conflict (tenant_id, meter_id, day_date) do update set
  end_value = excluded.end_value, end_tip = excluded.end_tip, end_peak = excluded.end_peak,
  end_peace = excluded.end_peace, end_low = excluded.end_low,
  usage = excluded.end_value - d.start_value, tip_usage = excluded.end_tip - d.start_tip,
  peak_usage = excluded.end_peak - d.start_peak, peace_usage = excluded.end_peace - d.start_peace,
  low_usage = excluded.end_low - d.start_low,
  room_id = coalesce(excluded.room_id, d.room_id), update_time = excluded.update_time
where d.closed = 0 and d.update_time <= excluded.update_time
returning d.id::text as id, d.tenant_id, d.meter_id::text as meter_id, d.day_date::text as day`);

const WATER_READS = prepared(`
insert into pms_water_data_daily as d
  (id, tenant_id, meter_id, room_id, product_code, day_date, update_time, start_source, closed,
   start_value, end_value, usage)
select r.new_id, r.tenant_id, r.meter_id, r.room_id, r.product_code, r.day_date, r.update_time, 'reading', 0,
       s.total, r.total, r.total - s.total
  from ${READ_UNNEST(false)}
  cross join lateral (
    select coalesce(y.end_value, r.total) as total
      from (select 1) one
      left join pms_water_data_daily y
        on y.tenant_id = r.tenant_id and y.meter_id = r.meter_id and y.day_date = r.day_date - 1) s
on conflict (tenant_id, meter_id, day_date) do update set
  end_value = excluded.end_value, usage = excluded.end_value - d.start_value,
  room_id = coalesce(excluded.room_id, d.room_id), update_time = excluded.update_time
where d.closed = 0 and d.update_time <= excluded.update_time
returning d.id::text as id, d.tenant_id, d.meter_id::text as meter_id, d.day_date::text as day`);

const CLOSE_EARLIER_MANY = (table: DailyTable) =>
  prepared(`update ${table} d set closed = 1
     from unnest($1::varchar[], $2::bigint[], $3::date[]) as o(tenant_id, meter_id, day_date)
    where d.tenant_id = o.tenant_id and d.meter_id = o.meter_id and d.day_date < o.day_date and d.closed = 0`);

/**
 * The latest reads of many meters (one each) by one upsert, as `dayRead` does for one: a day's first
 * read opens its row (from yesterday's end), later reads move the end, and the days before a row
 * just opened are closed by one more statement.
 */
async function dayReads(db: Queryable, table: DailyTable, reads: readonly DayRead[]): Promise<void> {
  if (reads.length === 0) return;
  const ids = reads.map(() => nextId());
  const width = table === "pms_data_daily" ? 5 : 1;
  const rows = await db.query<{ id: string; tenant_id: string; meter_id: string; day: string }>(
    table === "pms_data_daily" ? ELECTRIC_READS : WATER_READS,
    [
      ids,
      reads.map((r) => r.target.tenantId),
      reads.map((r) => r.target.meterId),
      reads.map((r) => r.target.roomId),
      reads.map((r) => r.target.productCode),
      reads.map((r) => r.day),
      reads.map((r) => r.at.toISOString()),
      ...Array.from({ length: width }, (_, i) => reads.map((r) => r.registers[i] ?? null)),
    ],
  );
  const fresh = new Set(ids);
  const opened = rows.filter((row) => fresh.has(row.id));
  if (opened.length === 0) return;
  await db.query(CLOSE_EARLIER_MANY(table), [
    opened.map((o) => o.tenant_id),
    opened.map((o) => o.meter_id),
    opened.map((o) => o.day),
  ]);
}

/** The latest read of an electric meter on local day `day` (yyyy-MM-dd). */
export const electricDayRead = (
  db: Queryable,
  target: DailyTarget,
  day: string,
  registers: ElectricRegisters,
  at: Date,
) => electricDayReads(db, [{ target, day, at, registers }]);

/** The latest read of a water meter on local day `day`. */
export const waterDayRead = (db: Queryable, target: DailyTarget, day: string, total: string, at: Date) =>
  waterDayReads(db, [{ target, day, at, registers: [total] }]);

/** The latest reads of many electric meters, one per meter. */
export const electricDayReads = (db: Queryable, reads: readonly DayRead[]) =>
  dayReads(db, "pms_data_daily", reads);

/** The latest reads of many water meters, one per meter. */
export const waterDayReads = (db: Queryable, reads: readonly DayRead[]) =>
  dayReads(db, "pms_water_data_daily", reads);
