import type { UsageSum } from "@meterline/contracts";
import { formatDay } from "../../contract/dates.ts";
import { badRequest } from "../../contract/errors.ts";
import { optionalString } from "../../contract/params.ts";

const DAY_MS = 24 * 3600_000;

/** yyyy-MM-dd of a UTC midnight. */
export const isoDay = (at: number) => new Date(at).toISOString().slice(0, 10);
/** A yyyy-MM-dd day as its UTC midnight (days are calendar days; the zone was applied before). */
export const dayAt = (day: string) => Date.parse(`${day}T00:00:00Z`);

/** Whether `text` is a real calendar day as yyyy-MM-dd (2025-02-30 is not, though Date.parse rolls it on). */
export function isDay(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const at = dayAt(text);
  return !Number.isNaN(at) && isoDay(at) === text;
}

/** A yyyy-MM-dd parameter, or a 400 naming it. */
export function dayParam(params: Record<string, unknown>, name: string): string | undefined {
  const text = optionalString(params, name);
  if (text === undefined) return undefined;
  if (!isDay(text)) throw badRequest(`${name}: 日期格式应为 yyyy-MM-dd`);
  return text;
}

/**
 * The calendar day (yyyy-MM-dd) of an instant in a time zone. Every reading asks (its day of usage,
 * its day of pricing): the contract's formatter asks Intl once per zone and day and keeps the last
 * day's text, the rest is arithmetic.
 */
export const localDay = (at: Date, timeZone: string): string => formatDay(at, timeZone);

/** The day `n − 1` days before `day`, so that the two bound `n` days. */
export const daysBack = (day: string, n: number) => isoDay(dayAt(day) - (n - 1) * DAY_MS);

/** The first day of the month `n − 1` months before the month of `day`. */
export function monthsBack(day: string, n: number): string {
  const at = new Date(dayAt(day));
  return isoDay(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() - (n - 1), 1));
}

/** Every day from `from` to `to`, with the row found or an empty one: charts need a continuous axis. */
export function everyDay<T extends { day: string }>(
  from: string,
  to: string,
  rows: readonly T[],
  empty: (day: string) => T,
): T[] {
  const found = new Map(rows.map((r) => [r.day, r]));
  const out: T[] = [];
  for (let at = dayAt(from); at <= dayAt(to); at += DAY_MS) {
    const day = isoDay(at);
    out.push(found.get(day) ?? empty(day));
  }
  return out;
}

/** Every day from `from` to `to`, with the sums found or zero. */
export const fillDays = (from: string, to: string, rows: readonly UsageSum[]): UsageSum[] =>
  everyDay(from, to, rows, (day) => ({ day, usage: "0.00", meters: 0 }));

/** Every month from the month of `from` to that of `to` (keyed by first days), sums or zero. */
export function fillMonths(from: string, to: string, rows: readonly UsageSum[]): UsageSum[] {
  const found = new Map(rows.map((r) => [r.day, r]));
  const out: UsageSum[] = [];
  const start = new Date(dayAt(from));
  const end = new Date(dayAt(to));
  // Months counted from year 0, so stepping across a new year is plain addition.
  const last = end.getUTCFullYear() * 12 + end.getUTCMonth();
  for (let month = start.getUTCFullYear() * 12 + start.getUTCMonth(); month <= last; month++) {
    const day = isoDay(Date.UTC(Math.floor(month / 12), month % 12, 1));
    out.push(found.get(day) ?? { day, usage: "0.00", meters: 0 });
  }
  return out;
}
