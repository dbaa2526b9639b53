/**
 * A node's normal band, learned from its own history: the median of its recent daily values and
 * their median absolute deviation (MAD), scaled to a standard deviation (×1.4826 for normal data).
 * Robust where a mean and standard deviation are not: a few days of theft or a faulty read in the
 * history barely move the band, so they do not hide the next ones.
 */

export interface Band {
  median: number;
  /** The MAD scaled to a standard deviation, never below the floor given. */
  spread: number;
  low: number;
  high: number;
  /** How many days the band was learned from. */
  days: number;
}

export interface BandOptions {
  /** Fewer days than this and there is no band yet (a new node): no alarm either. */
  minDays?: number;
  /** Half-width of the band in spreads. */
  width?: number;
  /**
   * The least spread, in the values' unit: a node whose loss was the same every day would otherwise
   * alarm on the smallest change (for loss in per cent, half a point).
   */
  floor?: number;
}

const MAD_TO_SIGMA = 1.4826;

export function median(values: readonly number[]): number {
  if (values.length === 0) throw new RangeError("the median of nothing");
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** The band of `history` (finite values only are counted), or undefined while it is too short. */
export function learnBand(history: readonly number[], options: BandOptions = {}): Band | undefined {
  const { minDays = 7, width = 3, floor = 0.5 } = options;
  const values = history.filter(Number.isFinite);
  if (values.length < minDays) return undefined;
  const centre = median(values);
  const mad = median(values.map((value) => Math.abs(value - centre)));
  const spread = Math.max(mad * MAD_TO_SIGMA, floor);
  return {
    median: centre,
    spread,
    low: centre - width * spread,
    high: centre + width * spread,
    days: values.length,
  };
}

/** Where a value lies against a band: inside, above or below it. */
export function againstBand(value: number, band: Band): "inside" | "above" | "below" {
  if (value > band.high) return "above";
  if (value < band.low) return "below";
  return "inside";
}
