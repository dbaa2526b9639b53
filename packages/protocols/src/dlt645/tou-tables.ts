import type { DecodedField } from "../values.ts";
import { type DataItem, num } from "./data-item.ts";

/**
 * Time-of-use tables of DL/T 645-2007 (Appendix A, parameter class 04): which tariff (1 tip,
 * 2 peak, 3 flat, 4 valley by State Grid convention) is in force at each time of the year.
 *  - 04000201..04000205: number of year zones (≤ 14), day tables (≤ 8), periods per day (≤ 14),
 *    tariffs (≤ 63) and public holidays (≤ 254);
 *  - 04010000 / 04020000: the first (running) / second (standby) set's year zone table, one
 *    MMDDNN entry per zone: from month MM day DD, day table NN applies;
 *  - 04010001..04010008 / 04020001..: day table n of the first / second set, one hhmmNN entry
 *    per period: from hh:mm, tariff NN applies. Before the first entry the last one is still in
 *    force (the table is a cycle over the day, as meter firmware reads it).
 * Each entry is 3 BCD bytes sent low byte first (NN first), entries in table order. The second
 * set and its switch-over times (04000106 zones, 04000107 day tables) exist for scheduled changes;
 * writing the first set takes effect at once, which is what a price write wants.
 * As the meter writes and answers them, the value of a table is its entries in the standard's
 * notation joined by commas: "000004,080003,100002" (00:00 valley, 08:00 flat, 10:00 peak).
 */
export const TOU_COUNT_DI = {
  zones: "04000201",
  dayTables: "04000202",
  periods: "04000203",
  tariffs: "04000204",
  holidays: "04000205",
} as const;

/** Largest counts the standard allows (04000201..04000204). */
export const TOU_LIMITS = { zones: 14, dayTables: 8, periods: 14, tariffs: 63 } as const;

/** Year zone table of price set 1 (running) or 2 (standby). */
export function zoneTableDi(set: 1 | 2 = 1): string {
  return `040${set}0000`;
}

/** Day table n (1..8) of price set 1 or 2. */
export function dayTableDi(table: number, set: 1 | 2 = 1): string {
  if (!Number.isInteger(table) || table < 1 || table > TOU_LIMITS.dayTables)
    throw new RangeError(`day table ${table} is not 1..${TOU_LIMITS.dayTables}`);
  return `040${set}000${table}`;
}

export type TouTableKind = "zones" | "periods";

/** Which table a DI is, or undefined for any other DI. */
export function touTableKind(di: string): TouTableKind | undefined {
  const match = /^040([12])000([0-8])$/.exec(di.toUpperCase());
  if (!match) return undefined;
  return match[2] === "0" ? "zones" : "periods";
}

const ENTRY = num(3, 0, "count");

/** The codec's table row for a table DI: a block of 3-byte entries, as many as the data holds. */
export function touTableItem(di: string): DataItem | undefined {
  const kind = touTableKind(di);
  if (!kind) return undefined;
  const set = di[3] === "1" ? "first" : "second";
  const setZh = di[3] === "1" ? "一" : "二";
  if (kind === "zones")
    return {
      di,
      name: `${set} set year zone table`,
      zh: `第${setZh}套时区表数据`,
      fields: [],
      repeat: { format: ENTRY, label: (i) => `zone ${i + 1}` },
    };
  const n = Number(di[7]);
  return {
    di,
    name: `${set} set day table ${n}`,
    zh: `第${setZh}套第${n}日时段表数据`,
    fields: [],
    repeat: { format: ENTRY, label: (i) => `period ${i + 1}` },
  };
}

/** One period of a day table: from `start` (minute of the day) tariff `tariff` applies. */
export interface DayPeriod {
  start: number;
  tariff: number;
}

/** One zone of a year zone table: from month/day, day table `table` applies. */
export interface YearZone {
  month: number;
  day: number;
  table: number;
}

const two = (n: number) => String(n).padStart(2, "0");

function checkEntries(kind: TouTableKind, parts: [number, number, number][]): void {
  const limit = kind === "zones" ? TOU_LIMITS.zones : TOU_LIMITS.periods;
  if (parts.length === 0 || parts.length > limit)
    throw new RangeError(`a ${kind === "zones" ? "zone" : "day"} table has 1..${limit} entries`);
  for (const [a, b, n] of parts) {
    const ok =
      kind === "zones"
        ? a >= 1 && a <= 12 && b >= 1 && b <= 31 && n >= 1 && n <= TOU_LIMITS.dayTables
        : a <= 23 && b <= 59 && n >= 1 && n <= TOU_LIMITS.tariffs;
    if (!ok) throw new RangeError(`${two(a)}${two(b)}${two(n)} is not a valid ${kind} entry`);
  }
}

/** The value of a day table ("000004,080003"); refuses what no meter holds. */
export function dayTableValue(periods: readonly DayPeriod[]): string {
  const parts = periods.map((p): [number, number, number] => [
    Math.floor(p.start / 60),
    p.start % 60,
    p.tariff,
  ]);
  checkEntries("periods", parts);
  return parts.map(([h, m, n]) => `${two(h)}${two(m)}${two(n)}`).join(",");
}

/** The value of a year zone table ("010101"). */
export function zoneTableValue(zones: readonly YearZone[]): string {
  const parts = zones.map((z): [number, number, number] => [z.month, z.day, z.table]);
  checkEntries("zones", parts);
  return parts.map(([m, d, n]) => `${two(m)}${two(d)}${two(n)}`).join(",");
}

function entries(kind: TouTableKind, value: string): [number, number, number][] {
  if (!/^\d{6}(,\d{6}){0,13}$/.test(value)) throw new RangeError(`not a table value: ${value.slice(0, 100)}`);
  const parts = value
    .split(",")
    .map((e): [number, number, number] => [Number(e.slice(0, 2)), Number(e.slice(2, 4)), Number(e.slice(4))]);
  checkEntries(kind, parts);
  return parts;
}

/** The periods of a day table value; throws RangeError when it is not one. */
export function parseDayTable(value: string): DayPeriod[] {
  return entries("periods", value).map(([h, m, tariff]) => ({ start: h * 60 + m, tariff }));
}

/** The zones of a year zone table value; throws RangeError when it is not one. */
export function parseZoneTable(value: string): YearZone[] {
  return entries("zones", value).map(([month, day, table]) => ({ month, day, table }));
}

/** The field inputs of a table write (encodeDataItem with touTableItem), checked. */
export function touTableInputs(di: string, value: string): string[] {
  const kind = touTableKind(di);
  if (!kind) throw new RangeError(`${di} is not a time-of-use table`);
  return entries(kind, value).map(([a, b, n]) => `${two(a)}${two(b)}${two(n)}`);
}

/** A table's value from its decoded fields (a reply or a write request); null when any entry is unreadable. */
export function touTableValue(di: string, fields: readonly DecodedField[]): string | null {
  const kind = touTableKind(di);
  if (!kind || fields.length === 0) return null;
  const texts: string[] = [];
  for (const field of fields) {
    if (field.kind !== "number" || field.scaled === null) return null;
    texts.push(field.scaled.toString().padStart(6, "0"));
  }
  try {
    return touTableInputs(di, texts.join(",")).join(",");
  } catch {
    return null;
  }
}

/** The tariff a day table puts in force at a minute of the day (the last entry before the first start). */
export function tariffAt(periods: readonly DayPeriod[], minute: number): number {
  let tariff = periods[periods.length - 1]!.tariff;
  for (const period of periods) if (period.start <= minute) tariff = period.tariff;
  return tariff;
}
