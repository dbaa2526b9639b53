import type { DateTimeInput } from "@meterline/protocols";

/**
 * Simulated time. The fleet runs on true time scaled by `timeScale` (a demo can run a day in
 * minutes); each meter shows it on its own clock: the tenant's UTC offset plus the meter's drift.
 */
export interface SimClock {
  /** Simulated milliseconds since the epoch (UTC). */
  now(): number;
}

export function scaledClock(timeScale = 1, start = Date.now()): SimClock {
  const realStart = Date.now();
  return { now: () => start + Math.floor((Date.now() - realStart) * timeScale) };
}

/** A clock the tests move by hand. */
export class ManualClock implements SimClock {
  constructor(private current: number) {}
  now(): number {
    return this.current;
  }
  advance(ms: number): void {
    this.current += ms;
  }
}

/** Calendar fields of a local-time instant (ms of local time, read as if UTC). */
export function calendar(localMs: number): Required<Omit<DateTimeInput, "weekday">> {
  const date = new Date(localMs);
  return {
    year: date.getUTCFullYear(),
    month: date.getUTCMonth() + 1,
    day: date.getUTCDate(),
    hour: date.getUTCHours(),
    minute: date.getUTCMinutes(),
    second: date.getUTCSeconds(),
  };
}

/** "2026-11-22 10:00:00" (a meter's local time text, as the codec decodes it) → local ms. */
export function parseLocalText(text: string): number | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})(?: (\d{2}):(\d{2})(?::(\d{2}))?)?$/.exec(text);
  if (!match) return null;
  const [, y, mo, d, h = "0", mi = "0", s = "0"] = match;
  return Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
}

/** Start of the local day containing `localMs`. */
export function startOfDay(localMs: number): number {
  return Math.floor(localMs / 86_400_000) * 86_400_000;
}
