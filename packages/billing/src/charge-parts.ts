import { type CycleUsage, chargeBetween } from "./charges.ts";
import { BANDS, type Tariff } from "./tariff.ts";
import { type Fen, type Micro, microToFen } from "./units.ts";

/**
 * A share of one usage charge: the ladder tier ("tier1", "tier2" …), the time-of-use band ("tip",
 * "peak", "peace", "low") or "flat" it was priced in, with its usage (0.01 units) and its fen.
 */
export interface ChargePart {
  part: string;
  usage: bigint;
  charge: Fen;
}

/** Math.min and Math.max for bigints. */
const smaller = (a: bigint, b: bigint) => (b < a ? b : a);
const larger = (a: bigint, b: bigint) => (b > a ? b : a);

/** Usage and exact cost of each part between two positions of one cycle, before rounding. */
function exactParts(tariff: Tariff, before: CycleUsage, after: CycleUsage) {
  const parts: { part: string; usage: bigint; micro: Micro }[] = [];
  switch (tariff.mode) {
    case "flat": {
      const usage = after.total - before.total;
      parts.push({ part: "flat", usage, micro: usage * tariff.price });
      break;
    }
    case "ladder": {
      let floor = 0n;
      tariff.tiers.forEach((tier, i) => {
        // The usage of a position that falls within this tier's bounds.
        const within = (total: bigint) =>
          larger(0n, (tier.limit === null ? total : smaller(total, tier.limit)) - floor);
        const usage = within(after.total) - within(before.total);
        parts.push({ part: `tier${i + 1}`, usage, micro: usage * tier.price });
        if (tier.limit !== null) floor = tier.limit;
      });
      break;
    }
    case "tou":
      for (const band of BANDS) {
        const usage = (after.bands?.[band] ?? 0n) - (before.bands?.[band] ?? 0n);
        parts.push({ part: band, usage, micro: usage * tariff.prices[band] });
      }
      break;
  }
  return parts;
}

/**
 * The booked charge between two cycle positions (chargeBetween, or `booked` where the caller has
 * it already) split by tier or band. Each part is its exact cost rounded to the fen; the few fen
 * the cycle's own rounding differs by go to the part with the most usage, so the parts always add
 * up to the fen booked in the ledger.
 */
export function chargeParts(
  tariff: Tariff,
  before: CycleUsage,
  after: CycleUsage,
  booked: Fen = chargeBetween(tariff, before, after),
): ChargePart[] {
  // A flat price has one part, which the settling gives all of the booked fen: pricing takes this
  // for every reading of most sites, without the exact cost it would round only to give it back.
  if (tariff.mode === "flat") {
    const usage = after.total - before.total;
    return usage === 0n && booked === 0n ? [] : [{ part: "flat", usage, charge: booked }];
  }
  return settleParts(exactParts(tariff, before, after), booked);
}

/**
 * Parts whose exact costs are known, rounded each to the fen and made to add up to `booked`, the
 * fen the ledger took for them all (the remainder on the part with the most usage). Parts with
 * neither usage nor money are left out.
 */
export function settleParts(
  parts: readonly { part: string; usage: bigint; micro: Micro }[],
  booked: Fen,
): ChargePart[] {
  const rounded = parts.map((p) => ({ part: p.part, usage: p.usage, charge: microToFen(p.micro) }));
  const remainder = booked - rounded.reduce((sum, p) => sum + p.charge, 0n);
  if (remainder !== 0n && rounded.length > 0) {
    const most = rounded.reduce((best, p) => (p.usage > best.usage ? p : best), rounded[0]!);
    most.charge += remainder;
  }
  return rounded.filter((p) => p.usage !== 0n || p.charge !== 0n);
}
