import { type PlannedMeter, REGISTER_MODULUS, registerHistory } from "@meterline/simulator";
import type { Queryable } from "../db/client.ts";
import { nextId } from "../db/ids.ts";
import { insertRows } from "./bulk-insert.ts";

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** Days of history before the first start, and how often the gateway read each meter in them. */
export const HISTORY_DAYS = 60;
const READ_EVERY_MS = 6 * HOUR_MS;
/**
 * The last days are read every 6 hours; the days before at midnight and 18:00 only, which keeps
 * daily usage the same and the reading log (and first start) small.
 */
const RECENT_DAYS = 7;
const OLDER_READS = [0, 18 * HOUR_MS];
/**
 * Water meters are also read every hour of the quiet night (01:00–05:00) in the last days, as a
 * site watching for leaks polls them: night flow is judged hour by hour.
 */
const NIGHT_READS = [1, 2, 3, 4, 5].map((hour) => hour * HOUR_MS);
/** The demo's meters keep Beijing time, as the fleet's clocks do (utcOffsetMinutes 480). */
export const DEMO_UTC_OFFSET_MINUTES = 480;
const OFFSET_MS = DEMO_UTC_OFFSET_MINUTES * 60_000;

/** What a read row names: the meter, its address and the room it is installed in (none for a master). */
export interface ReadMeter {
  id: string;
  energyType: 1 | 2;
  roomId: string | null;
  planned: { address: string };
}

/** A meter of the demo site as seeded: its plan, its row and where it is installed. */
export interface DemoMeter extends ReadMeter {
  planned: PlannedMeter;
  roomId: string;
  /** The building (0-based) it is installed in. */
  building: number;
  ownerId: string | null;
  controlStatus: 0 | 1;
  chargingSchemeId: string;
  /** The alarm scheme of the meter's energy type. */
  alarmSchemeId: string;
}

/** A meter's backfilled reads: their instants and registers (0.01 steps per band, or [volume]). */
export interface MeterHistory<M extends ReadMeter = DemoMeter> {
  meter: M;
  times: number[];
  registers: number[][];
  /** Reads that found the relay tripped (a bridged relay's), by index; closed otherwise. */
  tripped?: boolean[];
}

/** The local day (yyyy-MM-dd) of an instant in the demo's zone. */
export const demoDay = (at: number) => new Date(at + OFFSET_MS).toISOString().slice(0, 10);

/** Every read instant of the history, from local midnight 60 days back to just before `startsAt`. */
export function readTimes(startsAt: number, energyType: 1 | 2 = 1): number[] {
  const today = Math.floor((startsAt + OFFSET_MS) / DAY_MS) * DAY_MS - OFFSET_MS;
  const times: number[] = [];
  for (let back = HISTORY_DAYS; back >= 0; back--) {
    const midnight = today - back * DAY_MS;
    let reads =
      back > RECENT_DAYS
        ? OLDER_READS
        : Array.from({ length: DAY_MS / READ_EVERY_MS }, (_, i) => i * READ_EVERY_MS);
    if (energyType === 2 && back <= RECENT_DAYS) reads = [...reads, ...NIGHT_READS].sort((a, b) => a - b);
    for (const offset of reads) if (midnight + offset < startsAt) times.push(midnight + offset);
  }
  return times;
}

/** Register steps as the tables keep them: decimal text with two places. */
export const stepsText = (steps: number) =>
  `${Math.floor(steps / 100)}.${String(steps % 100).padStart(2, "0")}`;
const totalOf = (registers: readonly number[]) => registers.reduce((sum, r) => sum + r, 0) % REGISTER_MODULUS;

/**
 * What the gateway would have read had it polled the demo's fleet every 6 hours for the 60 days
 * before the first start: registers from the same load profiles as the running fleet, ending
 * exactly where it starts, so the first live poll goes on from the last read here.
 */
export function meterHistories(
  meters: readonly DemoMeter[],
  options: { seed: string; startsAt: number },
): MeterHistory[] {
  const times = { 1: readTimes(options.startsAt, 1), 2: readTimes(options.startsAt, 2) };
  return meters.map((meter) => ({
    meter,
    times: times[meter.energyType],
    registers: registerHistory(meter.planned, times[meter.energyType], {
      seed: options.seed,
      utcOffsetMinutes: DEMO_UTC_OFFSET_MINUTES,
      startsAt: options.startsAt,
    }),
  }));
}

/** A balance in fen as the reading tables keep it (yuan with two places). */
const yuanText = (fen: bigint | null | undefined) =>
  fen === null || fen === undefined
    ? null
    : fen < 0n
      ? `-${stepsText(Number(-fen))}`
      : stepsText(Number(fen));

/**
 * Writes the histories as the readings sink would have: the reading log, each meter's daily usage
 * (electric days opened and closed by the meter's midnight freeze, water days from the day's
 * reads) and its current data. `balances` gives a local-prepaid meter's own balance at a read.
 */
export async function writeReadings(
  db: Queryable,
  tenantId: string,
  histories: readonly MeterHistory<ReadMeter>[],
  balances: ReadonlyMap<string, (at: number) => bigint | null>,
  options: { daily: boolean } = { daily: true },
): Promise<void> {
  const electric = histories.filter((h) => h.meter.energyType === 1);
  const water = histories.filter((h) => h.meter.energyType === 2);
  const readRow = (h: MeterHistory<ReadMeter>, i: number) => [
    nextId(),
    tenantId,
    h.meter.id,
    h.meter.roomId,
    h.meter.planned.address,
    new Date(h.times[i]!),
  ];
  await insertRows(db, "pms_data_read", READ_COLUMNS, electricReads());
  function electricReads() {
    const rows: unknown[][] = [];
    for (const h of electric) {
      const balanceAt = balances.get(h.meter.id);
      for (const [i, r] of h.registers.entries())
        rows.push([
          ...readRow(h, i),
          stepsText(totalOf(r)),
          ...r.map(stepsText),
          yuanText(balanceAt?.(h.times[i]!)),
          h.tripped?.[i] ? 1 : 0,
          "",
        ]);
    }
    return rows;
  }
  await insertRows(
    db,
    "pms_water_data_read",
    WATER_READ_COLUMNS,
    water.flatMap((h) => h.registers.map((r, i) => [...readRow(h, i), stepsText(r[0]!), 0, ""])),
  );
  // A master's or common-area meter's days are not a room's usage: the site's totals stay the rooms'.
  if (options.daily) {
    await insertRows(db, "pms_data_daily", ELECTRIC_DAILY_COLUMNS, electric.flatMap(electricDays(tenantId)));
    await insertRows(db, "pms_water_data_daily", WATER_DAILY_COLUMNS, water.flatMap(waterDays(tenantId)));
  }
  await insertRows(
    db,
    "pms_meter_current_data",
    CURRENT_COLUMNS,
    histories.map((h) => {
      const last = h.registers.length - 1;
      const r = h.registers[last]!;
      const bands = h.meter.energyType === 1 ? r.map(stepsText) : [null, null, null, null];
      const at = h.times[last]!;
      return [
        nextId(),
        tenantId,
        h.meter.energyType,
        h.meter.id,
        h.meter.planned.address,
        new Date(at),
        stepsText(totalOf(r)),
        ...bands,
        yuanText(balances.get(h.meter.id)?.(at)),
        0,
        "",
      ];
    }),
  );
}

const DAILY_KEY = [
  ["id", "bigint"],
  ["tenant_id", "text"],
  ["meter_id", "bigint"],
  ["room_id", "bigint"],
  ["product_code", "text"],
  ["day_date", "date"],
  ["update_time", "timestamptz"],
  ["start_source", "text"],
  ["closed", "int"],
] as const;
const numeric = (names: string[]) => names.map((name) => [name, "numeric"] as const);
const READ_COLUMNS = [
  ["id", "bigint"],
  ["tenant_id", "text"],
  ["meter_id", "bigint"],
  ["room_id", "bigint"],
  ["product_code", "text"],
  ["read_time", "timestamptz"],
  ...numeric(["total_value", "tip_value", "peak_value", "peace_value", "low_value", "balance"]),
  ["switch_status", "int"],
  ["missing", "text"],
] as const;
const WATER_READ_COLUMNS = [
  ...READ_COLUMNS.slice(0, 6),
  ["total_value", "numeric"] as const,
  ...READ_COLUMNS.slice(-2),
];
const ELECTRIC_DAILY_COLUMNS = [
  ...DAILY_KEY,
  ...numeric(["start_value", "start_tip", "start_peak", "start_peace", "start_low"]),
  ...numeric(["end_value", "end_tip", "end_peak", "end_peace", "end_low"]),
  ...numeric(["usage", "tip_usage", "peak_usage", "peace_usage", "low_usage"]),
];
const WATER_DAILY_COLUMNS = [...DAILY_KEY, ...numeric(["start_value", "end_value", "usage"])];
const CURRENT_COLUMNS = [
  ["id", "bigint"],
  ["tenant_id", "text"],
  ["energy_type", "int"],
  ["meter_id", "bigint"],
  ["product_code", "text"],
  ["read_time", "timestamptz"],
  ...numeric(["total_value", "tip_value", "peak_value", "peace_value", "low_value", "balance"]),
  ["switch_status", "int"],
  ["missing", "text"],
] as const;

/** The index of the first read of each local day, in order (every day starts with its midnight read). */
function dayStarts(times: readonly number[]): number[] {
  const starts: number[] = [];
  times.forEach((t, i) => {
    if (i === 0 || demoDay(t) !== demoDay(times[i - 1]!)) starts.push(i);
  });
  return starts;
}

const dailyKey = (
  tenantId: string,
  h: MeterHistory<ReadMeter>,
  first: number,
  updatedAt: number,
  source: string,
  closed: number,
) => [
  nextId(),
  tenantId,
  h.meter.id,
  h.meter.roomId,
  h.meter.planned.address,
  demoDay(h.times[first]!),
  new Date(updatedAt),
  source,
  closed,
];

/**
 * Electric days as the meter's freeze makes them: opened by the registers at local midnight and
 * closed by the next midnight's; today's row ends at the last read.
 */
const electricDays = (tenantId: string) => (h: MeterHistory<ReadMeter>) => {
  const rows: unknown[][] = [];
  const starts = dayStarts(h.times);
  for (const [day, first] of starts.entries()) {
    const next = starts[day + 1];
    const end = next ?? h.times.length - 1;
    const start = h.registers[first]!;
    const finish = h.registers[end]!;
    const registers = (r: number[]) => [stepsText(totalOf(r)), ...r.map(stepsText)];
    const used = [totalOf(finish) - totalOf(start), ...finish.map((v, band) => v - start[band]!)];
    rows.push([
      ...dailyKey(tenantId, h, first, h.times[end]!, "frozen", next === undefined ? 0 : 1),
      ...registers(start),
      ...registers(finish),
      ...used.map(stepsText),
    ]);
  }
  return rows;
};

/** Water days as reads make them: each day from the last read of the day before to its own last read. */
const waterDays = (tenantId: string) => (h: MeterHistory<ReadMeter>) => {
  const rows: unknown[][] = [];
  let previousEnd: number | undefined;
  const starts = dayStarts(h.times);
  for (const [day, first] of starts.entries()) {
    const next = starts[day + 1];
    const last = (next ?? h.times.length) - 1;
    const end = h.registers[last]![0]!;
    const start = previousEnd ?? h.registers[first]![0]!;
    rows.push([
      ...dailyKey(tenantId, h, first, h.times[last]!, "reading", next === undefined ? 0 : 1),
      stepsText(start),
      stepsText(end),
      stepsText(end - start),
    ]);
    previousEnd = end;
  }
  return rows;
};
