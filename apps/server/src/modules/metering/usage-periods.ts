import type { UsageSum } from "@meterline/contracts";

const DAY_MS = 24 * 3600_000;

/** yyyy-MM-dd of a UTC midnight. */
export const isoDay = (at: number) => new Date(at).toISOString().slice(0, 10);
/** A yyyy-MM-dd day as its UTC midnight (days are calendar days; the zone was applied before). */
export const dayAt = (day: string) => Date.parse(`${day}T00:00:00Z`);

/** The day `n − 1` days before `day`, so that the two bound `n` days. */
export const daysBack = (day: string, n: number) => isoDay(dayAt(day) - (n - 1) * DAY_MS);

/** The first day of the month `n − 1` months before the month of `day`. */
export function monthsBack(day: string, n: number): string {
  const at = new Date(dayAt(day));
  return isoDay(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() - (n - 1), 1));
}

/** Every day from `from` to `to`, with the sums found or zero. */
export function fillDays(from: string, to: string, rows: readonly UsageSum[]): UsageSum[] {
  const found = new Map(rows.map((r) => [r.day, r]));
  const out: UsageSum[] = [];
  for (let at = dayAt(from); at <= dayAt(to); at += DAY_MS) {
    const day = isoDay(at);
    out.push(found.get(day) ?? { day, usage: "0.00", meters: 0 });
  }
  return out;
}

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
