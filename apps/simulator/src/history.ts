import { REGISTER_MODULUS } from "./electric-meter.ts";
import type { PlannedMeter } from "./plan.ts";
import { accumulate, newAccumulator, SINGLE_BAND } from "./profile.ts";
import { bandAt, DEFAULT_SLOTS, nextSlotStart, type TariffSlot } from "./tariff.ts";

/** Rolling-over meters start this close below the top of their registers. */
const NEAR_TOP = REGISTER_MODULUS - 200;
/**
 * Electric meters start with a few thousand kWh in each tariff register, water meters with a few
 * hundred m³: enough that two months of history before the start never runs a register below zero.
 */
const ELECTRIC_START = [120_000, 380_000, 450_000, 300_000];
const WATER_START = 20_000;

/**
 * The registers a planned meter shows when a fleet starts (steps of 0.01 kWh per tariff band, or
 * the water volume in 0.01 m³): a pure function of the plan, so a history written elsewhere (the
 * demo's backfill) can end exactly where the running meter goes on.
 */
export function startingSteps(planned: PlannedMeter): number[] {
  if (planned.kind === "water") return [planned.rollover ? NEAR_TOP : WATER_START + planned.index * 37];
  return ELECTRIC_START.map((base, band) =>
    planned.rollover ? NEAR_TOP : base + planned.index * (97 + band),
  );
}

export interface HistoryOptions {
  /** The fleet's seed (the load profiles derive from it). */
  seed: string;
  /** Tenant UTC offset of the meters' clocks, as the fleet's utcOffsetMinutes (Asia/Shanghai: +480). */
  utcOffsetMinutes: number;
  slots?: readonly TariffSlot[];
  /** True time the fleet starts at with startingSteps: the history ends there. */
  startsAt: number;
}

/**
 * What a planned meter's registers showed at past instants (ascending, all at or before `startsAt`),
 * integrated with the same load profile and band schedule as the running meter: per band for
 * electricity (tip, peak, flat, valley), one volume for water. The last value before the start and
 * the first the running meter reports differ only by what it used in between.
 */
export function registerHistory(
  planned: PlannedMeter,
  times: readonly number[],
  options: HistoryOptions,
): number[][] {
  const first = times[0];
  if (first === undefined) return [];
  if (times.some((t, i) => t > options.startsAt || (i > 0 && t < times[i - 1]!)))
    throw new RangeError("history times must ascend and end by the start");
  const water = planned.kind === "water";
  const slots = options.slots ?? DEFAULT_SLOTS;
  const schedule = water
    ? SINGLE_BAND
    : { bandAt: (m: number) => bandAt(slots, m), nextChange: (m: number) => nextSlotStart(slots, m) };
  const profile = { mean: planned.meanRate, seed: `${options.seed}:${planned.address}` };
  const offset = options.utcOffsetMinutes * 60_000 + planned.clockDriftMs;
  const acc = newAccumulator(water ? 1 : 4);
  const used: number[][] = [];
  let at = first;
  for (const t of times) {
    accumulate(acc, profile, schedule, at, t, offset);
    used.push([...acc.steps]);
    at = t;
  }
  accumulate(acc, profile, schedule, at, options.startsAt, offset);
  const start = startingSteps(planned);
  // Counted back from the start: the registers then were the start less what was used since.
  return used.map((steps) =>
    steps.map((s, band) => (start[band]! - (acc.steps[band]! - s) + REGISTER_MODULUS) % REGISTER_MODULUS),
  );
}
