import { hashUnit } from "./random.ts";

/**
 * Consumption profiles and exact register maths. A meter's rate (W for electricity, L/h for water)
 * is constant within each local hour: the hour's share of a daily shape (weekday or weekend),
 * scaled by the meter's mean and a per-hour wobble of ±20 % derived from its seed. Integration is in
 * integers only: rate × milliseconds accumulates, and every 36,000,000 of it is one register step
 * (0.01 kWh at W, 0.01 m³ at L/h), the remainder carried to the next call, so registers never drift.
 */
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
export const STEP = 36_000_000;

// Per-mille of the mean, per local hour: low at night, a morning bump, the evening peak.
const WEEKDAY = [
  450, 380, 350, 340, 350, 420, 700, 1100, 1050, 800, 700, 750, 950, 800, 700, 700, 800, 1150, 1600, 1900,
  1850, 1600, 1200, 750,
];
// Weekends: people at home, more use through the day.
const WEEKEND = [
  500, 420, 380, 360, 360, 400, 550, 800, 1100, 1250, 1200, 1150, 1250, 1100, 1000, 1000, 1050, 1300, 1700,
  1900, 1850, 1600, 1250, 800,
];

export interface Profile {
  /** Mean rate: W (electricity) or L/h (water); integer. */
  mean: number;
  seed: string;
}

/** 0 = Sunday … 6 = Saturday for a local time in ms since the epoch (1970-01-01 was a Thursday). */
export function weekday(localMs: number): number {
  return (Math.floor(localMs / DAY_MS) + 4) % 7;
}

/** The rate in force at a local time (integer). */
export function rateAt(profile: Profile, localMs: number): number {
  const hour = Math.floor((((localMs % DAY_MS) + DAY_MS) % DAY_MS) / HOUR_MS);
  const day = weekday(localMs);
  const shape = (day === 0 || day === 6 ? WEEKEND : WEEKDAY)[hour]!;
  const wobble = 800 + Math.floor(hashUnit(`${profile.seed}:${Math.floor(localMs / HOUR_MS)}`) * 400);
  return Math.floor((profile.mean * shape * wobble) / 1_000_000);
}

export interface Accumulator {
  /** Register steps per band (tariff), unbounded; the meter shows them modulo its digits. */
  steps: number[];
  /** rate × ms not yet worth a step, per band. */
  remainder: number[];
}

export function newAccumulator(bands: number, initialSteps: readonly number[] = []): Accumulator {
  return {
    steps: Array.from({ length: bands }, (_, i) => initialSteps[i] ?? 0),
    remainder: new Array(bands).fill(0),
  };
}

/** Band schedule: the band at a minute of the day and the minute it next changes. */
export interface BandSchedule {
  bandAt(minute: number): number;
  nextChange(minute: number): number;
}

export const SINGLE_BAND: BandSchedule = { bandAt: () => 0, nextChange: () => 1440 };

/**
 * Integrate the profile over [fromMs, toMs) of true time; `localOffsetMs` turns true time into the
 * meter's local clock (time zone plus its own drift), which decides hours and bands. Returns the
 * steps added per band.
 */
export function accumulate(
  acc: Accumulator,
  profile: Profile,
  schedule: BandSchedule,
  fromMs: number,
  toMs: number,
  localOffsetMs: number,
): number[] {
  const added = new Array(acc.steps.length).fill(0);
  let t = fromMs;
  while (t < toMs) {
    const local = t + localOffsetMs;
    const inDay = ((local % DAY_MS) + DAY_MS) % DAY_MS;
    const minute = Math.floor(inDay / 60_000);
    const hourEnd = (Math.floor(inDay / HOUR_MS) + 1) * HOUR_MS;
    const bandEnd = schedule.nextChange(minute) * 60_000;
    const end = Math.min(toMs, t + Math.min(hourEnd, bandEnd) - inDay);
    const band = schedule.bandAt(minute);
    const total = acc.remainder[band]! + rateAt(profile, local) * (end - t);
    const steps = Math.floor(total / STEP);
    acc.remainder[band] = total - steps * STEP;
    acc.steps[band]! += steps;
    added[band] += steps;
    t = end;
  }
  return added;
}
