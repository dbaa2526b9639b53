import type { Queryable } from "../../db/client.ts";

/** The reading log and daily usage tables of one energy type. */
export interface ReadingTables {
  log: "pms_data_read" | "pms_water_data_read";
  daily: "pms_data_daily" | "pms_water_data_daily";
  /** The band registers the tables keep beside the total (electric only). */
  bands: readonly { read: string; start: string; end: string; usage: string }[];
}

const ELECTRIC_BANDS = ["tip", "peak", "peace", "low"].map((band) => ({
  read: `${band}_value`,
  start: `start_${band}`,
  end: `end_${band}`,
  usage: `${band}_usage`,
}));

export const ELECTRIC_TABLES: ReadingTables = {
  log: "pms_data_read",
  daily: "pms_data_daily",
  bands: ELECTRIC_BANDS,
};
export const WATER_TABLES: ReadingTables = {
  log: "pms_water_data_read",
  daily: "pms_water_data_daily",
  bands: [],
};

/**
 * Recomputes one meter's daily usage row for local day `day` from the reads that still count (not
 * voided), after a correction: the end is the latest such read of the day, unless the next day opens
 * with the meter's own freeze (then that freeze closed this day and stays its end); a day opened
 * from its own first read reopens from the first read left. A day with no read left keeps its start
 * and ends there (no usage). The next day, when it opened from this day's end, follows it.
 * `timeZone`: the tenant's zone, whose midnights bound the day.
 */
export async function recomputeDay(
  tx: Queryable,
  tables: ReadingTables,
  tenantId: string,
  meterId: string,
  day: string,
  timeZone: string,
): Promise<void> {
  const { log, daily, bands } = tables;
  const counted = `tenant_id = $1 and meter_id = $2 and coalesce(voided, 0) = 0
    and read_time >= ($3::date)::timestamp at time zone $4 and read_time < ($3::date + 1)::timestamp at time zone $4`;
  const registers = ["total_value", ...bands.map((b) => b.read)].join(", ");
  const [first] = await tx.query<Record<string, string | null>>(
    `select ${registers} from ${log} where ${counted} order by read_time, id limit 1`,
    [tenantId, meterId, day, timeZone],
  );
  const [last] = await tx.query<Record<string, string | null>>(
    `select ${registers} from ${log} where ${counted} order by read_time desc, id desc limit 1`,
    [tenantId, meterId, day, timeZone],
  );
  const pairs = [{ read: "total_value", start: "start_value", end: "end_value", usage: "usage" }, ...bands];
  // Values as parameters: $4.. the last read's registers, then the first read's.
  const lastValues = pairs.map((p) => last?.[p.read] ?? null);
  const firstValues = pairs.map((p) => first?.[p.read] ?? null);
  const n = pairs.length;
  const sets = pairs.map((p, i) => {
    const lastRead = `$${4 + i}::numeric`;
    const firstRead = `$${4 + n + i}::numeric`;
    // A day opened from its own first read (no yesterday to continue from) reopens from the first read left.
    const start = `case when d.start_source = 'reading' and y.${p.end} is null then coalesce(${firstRead}, d.${p.start}) else d.${p.start} end`;
    const end = `case when nx.start_source = 'frozen' then nx.${p.start} else coalesce(${lastRead}, ${start}) end`;
    return `${p.start} = ${start}, ${p.end} = ${end}, ${p.usage} = (${end}) - (${start})`;
  });
  await tx.query(
    `update ${daily} d set ${sets.join(", ")}
       from (select 1) one
       left join ${daily} y on y.tenant_id = $1 and y.meter_id = $2 and y.day_date = $3::date - 1
       left join ${daily} nx on nx.tenant_id = $1 and nx.meter_id = $2 and nx.day_date = $3::date + 1
      where d.tenant_id = $1 and d.meter_id = $2 and d.day_date = $3::date`,
    [tenantId, meterId, day, ...lastValues, ...firstValues],
  );
  // The next day continued from this day's end: it starts where this day now ends.
  const follow = pairs
    .map((p) => `${p.start} = t.${p.end}, ${p.usage} = nx.${p.end} - t.${p.end}`)
    .join(", ");
  await tx.query(
    `update ${daily} nx set ${follow}
       from ${daily} t
      where t.tenant_id = $1 and t.meter_id = $2 and t.day_date = $3::date
        and nx.tenant_id = $1 and nx.meter_id = $2 and nx.day_date = $3::date + 1 and nx.start_source = 'reading'`,
    [tenantId, meterId, day],
  );
}
