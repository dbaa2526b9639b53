import { BANDS, type Band, type LadderCycle, type Tariff } from "./tariff.ts";
import { type Fen, type Micro, microToFen } from "./units.ts";

/**
 * Usage since the start of the current billing cycle, in units of 0.01 kWh or m³. Time-of-use
 * tariffs price the bands (from the meter's tariff registers); the others price the total.
 */
export interface CycleUsage {
  total: bigint;
  bands?: Partial<Record<Band, bigint>>;
}

export const NO_USAGE: CycleUsage = { total: 0n, bands: { tip: 0n, peak: 0n, peace: 0n, low: 0n } };

/** Math.min for bigints. */
const smaller = (a: bigint, b: bigint) => (b < a ? b : a);

/** The exact cost, in 10⁻⁶ yuan, of a cycle's usage so far: tiers split where the usage crosses them. */
export function cycleCost(tariff: Tariff, usage: CycleUsage): Micro {
  switch (tariff.mode) {
    case "flat":
      return usage.total * tariff.price;
    case "ladder": {
      let cost = 0n;
      let floor = 0n;
      for (const tier of tariff.tiers) {
        const ceiling = tier.limit ?? usage.total;
        const inTier = smaller(usage.total, ceiling) - floor;
        if (inTier > 0n) cost += inTier * tier.price;
        if (tier.limit === null || usage.total <= tier.limit) break;
        floor = tier.limit;
      }
      return cost;
    }
    case "tou":
      return BANDS.reduce((sum, band) => sum + (usage.bands?.[band] ?? 0n) * tariff.prices[band], 0n);
  }
}

/**
 * The rounding rule. Money is booked in whole fen, but a reading's usage rarely costs whole fen.
 * So a charge is never rounded on its own: the cycle-to-date cost is rounded (half away from zero)
 * and each charge is the step of that rounded total. Charges therefore telescope: whatever way a
 * cycle's usage is split across readings or days, the charges booked from the cycle's start to any
 * point add up to the usage up to that point priced at once and rounded once. No fen is lost or made.
 */
export const bookedToDate = (tariff: Tariff, usage: CycleUsage): Fen => microToFen(cycleCost(tariff, usage));

/** The charge, in fen, for the usage between two cycle-to-date positions of the same cycle. */
export function chargeBetween(tariff: Tariff, before: CycleUsage, after: CycleUsage): Fen {
  return bookedToDate(tariff, after) - bookedToDate(tariff, before);
}

/** The monthly fixed fee in fen (the fee has 4 decimals like the prices). */
export const monthlyFeeFen = (tariff: Tariff): Fen => microToFen(tariff.monthlyFee * 100n);

/**
 * Usage between two register readings. A register that went backwards was replaced, reset or
 * rolled over: that step is not charged (metering-domain §4.6) and is reported so it can be flagged.
 */
export function registerStep(previous: bigint, next: bigint): { usage: bigint; reset: boolean } {
  return next >= previous ? { usage: next - previous, reset: false } : { usage: 0n, reset: true };
}

/** Adds a reading's usage to the cycle-to-date position. */
export function advance(position: CycleUsage, step: CycleUsage): CycleUsage {
  const bands: Partial<Record<Band, bigint>> = {};
  for (const band of BANDS) bands[band] = (position.bands?.[band] ?? 0n) + (step.bands?.[band] ?? 0n);
  return { total: position.total + step.total, bands };
}

/**
 * The billing cycle a local day ("yyyy-MM-dd" in the tenant's zone) belongs to: "2026-11" for a
 * monthly ladder (and for flat and time-of-use prices, whose rounding also restarts monthly),
 * "2026" for a yearly one. A new key means the cycle-to-date usage starts again from zero.
 */
export function cycleKey(localDay: string, cycle: LadderCycle): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(localDay)) throw new RangeError(`not a day: ${localDay}`);
  return cycle === "year" ? localDay.slice(0, 4) : localDay.slice(0, 7);
}

/** The cycle a tariff's charges accumulate over. */
export const cycleOf = (tariff: Tariff): LadderCycle => (tariff.mode === "ladder" ? tariff.cycle : "month");
