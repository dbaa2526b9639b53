import { advance, bookedToDate, type CycleUsage, cycleKey, cycleOf, registerStep } from "./charges.ts";
import { BANDS, type Band, type Tariff } from "./tariff.ts";
import type { Fen } from "./units.ts";

/** A meter's registers in units of 0.01 kWh or m³; a band the meter did not report is null. */
export interface Registers {
  total: bigint;
  bands: Record<Band, bigint | null>;
}

/** One counted reading: its local day (yyyy-MM-dd in the tenant's zone) and its registers. */
export interface SeriesRead extends Registers {
  day: string;
}

/** The registers pricing continues from: each band keeps the last value reported for it. */
export type RegisterState = { total: bigint | null; bands: Record<Band, bigint | null> };

/**
 * The usage between the registers priced so far and the next reading, exactly as pricing takes it
 * as readings arrive: a register that ran backwards adds nothing; a band never seen before adds
 * nothing; a single-rate reading (no band at all) puts its usage in the flat band.
 */
export function usageStep(
  before: RegisterState,
  next: Registers,
): { step: CycleUsage; after: RegisterState } {
  const total = before.total === null ? 0n : registerStep(before.total, next.total).usage;
  const bands: Partial<Record<Band, bigint>> = {};
  let hasBands = false;
  const after: RegisterState = { total: next.total, bands: { ...before.bands } };
  for (const band of BANDS) {
    const now = next.bands[band];
    if (now === null) continue;
    hasBands = true;
    const was = before.bands[band];
    bands[band] = was === null ? 0n : registerStep(was, now).usage;
    after.bands[band] = now;
  }
  return { step: { total, bands: hasBands ? bands : { peace: total } }, after };
}

export interface SeriesPricing {
  /** Usage charged over the series, in fen (whole cycles rounded once each, as charges telescope). */
  charged: Fen;
  /** Usage over the series, 0.01 units. */
  usage: bigint;
  /** The registers after the last reading, where pricing goes on from. */
  registers: RegisterState;
  /** The cycle of the last reading and its usage to date; undefined without a reading. */
  cycle?: { key: string; position: CycleUsage };
}

/**
 * Prices a series of readings from scratch, oldest first, from the registers before the first
 * (`start`; all null when pricing starts at the first reading itself). Each cycle's usage starts
 * from zero and its charges are its usage priced once and rounded once — what the readings'
 * charges add up to whichever way they came in (see bookedToDate). Used to re-price a span after a
 * correction: the difference between the span priced before and after is what the ledger owes.
 */
export function priceSeries(
  tariff: Tariff,
  start: RegisterState,
  reads: readonly SeriesRead[],
): SeriesPricing {
  const cycle = cycleOf(tariff);
  let registers = start;
  let charged = 0n;
  let usage = 0n;
  let current: { key: string; position: CycleUsage } | undefined;
  for (const read of reads) {
    const { step, after } = usageStep(registers, read);
    registers = after;
    const key = cycleKey(read.day, cycle);
    if (current?.key !== key) {
      if (current) charged += bookedToDate(tariff, current.position);
      current = { key, position: { total: 0n, bands: { tip: 0n, peak: 0n, peace: 0n, low: 0n } } };
    }
    current.position = advance(current.position, step);
    usage += step.total;
  }
  if (current) charged += bookedToDate(tariff, current.position);
  return { charged, usage, registers, ...(current ? { cycle: current } : {}) };
}

export const NO_REGISTERS: RegisterState = {
  total: null,
  bands: { tip: null, peak: null, peace: null, low: null },
};
