import { BillingInputError, PRICE_SCALE, toUnits, USAGE_SCALE } from "./units.ts";

/** Time-of-use bands in the order DL/T 645 numbers its tariff registers (1 tip … 4 valley). */
export const BANDS = ["tip", "peak", "peace", "low"] as const;
export type Band = (typeof BANDS)[number];

export type LadderCycle = "month" | "year";

export interface LadderTier {
  /** Upper bound of the tier in usage units (0.01 kWh or m³) per cycle; null for the open last tier. */
  limit: bigint | null;
  /** Price in 10⁻⁴ yuan per unit of usage. */
  price: bigint;
}

/** How usage is priced, in exact units. The monthly fee is in 10⁻⁴ yuan like the prices. */
export type Tariff = { monthlyFee: bigint } & (
  | { mode: "flat"; price: bigint }
  | { mode: "ladder"; cycle: LadderCycle; tiers: LadderTier[] }
  | { mode: "tou"; prices: Record<Band, bigint> }
);

/** A charging scheme as stored (price_mode 1 flat, 2 ladder, 3 time of use; ladder_cycle 1 month, 2 year). */
export interface SchemeRow {
  priceMode: number;
  price?: string | null;
  ladderCycle?: number | null;
  /** JSON `[{"limit":"2880","price":"0.4883"},{"limit":null,"price":"0.7883"}]`. */
  ladder?: string | null;
  tipPrice?: string | null;
  peakPrice?: string | null;
  peacePrice?: string | null;
  lowPrice?: string | null;
  monthlyFee?: string | null;
}

const price = (value: string | null | undefined, field: string): bigint => {
  if (value === null || value === undefined || value === "") throw new BillingInputError(field, "missing");
  const units = toUnits(value, PRICE_SCALE, field);
  if (units < 0n) throw new BillingInputError(field, "negative");
  return units;
};

/** The tariff of a stored scheme; the scheme's own checks already ran, this refuses what would misprice. */
export function tariffOf(row: SchemeRow): Tariff {
  const monthlyFee = row.monthlyFee ? price(row.monthlyFee, "monthlyFee") : 0n;
  switch (row.priceMode) {
    case 1:
      return { mode: "flat", price: price(row.price, "price"), monthlyFee };
    case 2: {
      const parsed = JSON.parse(row.ladder ?? "[]") as { limit: string | null; price: string }[];
      if (!Array.isArray(parsed) || parsed.length === 0) throw new BillingInputError("ladder", "no tiers");
      const tiers = parsed.map((tier, i) => ({
        limit:
          tier.limit === null || i === parsed.length - 1 ? null : toUnits(tier.limit, USAGE_SCALE, "ladder"),
        price: price(tier.price, "ladder"),
      }));
      return { mode: "ladder", cycle: row.ladderCycle === 2 ? "year" : "month", tiers, monthlyFee };
    }
    case 3: {
      // A meter's own band table may use a band the scheme does not price; that usage is charged
      // at the flat band's price rather than for nothing.
      const peace = price(row.peacePrice, "peacePrice");
      const band = (value: string | null | undefined, field: string) => (value ? price(value, field) : peace);
      return {
        mode: "tou",
        prices: {
          tip: band(row.tipPrice, "tipPrice"),
          peak: band(row.peakPrice, "peakPrice"),
          peace,
          low: band(row.lowPrice, "lowPrice"),
        },
        monthlyFee,
      };
    }
    default:
      throw new BillingInputError("priceMode", `unknown price mode ${row.priceMode}`);
  }
}
