import { BillingInputError } from "./units.ts";

/**
 * Shared-cost apportionment (公摊): an amount (whole fen, or a usage in 0.01 kWh / m³) shared out
 * to the rooms under a node in proportion to weights, exactly: the shares add up to the amount to
 * the last unit. Largest remainder (Hamilton): each room first gets the floor of its exact share,
 * then the units left over go one each to the rooms with the largest remainders. Unlike rounding
 * each share, it never books a fen more or less than the bill, and unlike "the last room takes the
 * difference" it treats every room alike.
 */

/** How a node shares its common-area amount: by floor area, by the rooms' own usage, or equally. */
export type ApportionRule = "area" | "usage" | "equal";

export const APPORTION_RULES: readonly ApportionRule[] = ["area", "usage", "equal"];

export interface ApportionShare {
  /** The room (or account) the share goes to. */
  id: string;
  /** Non-negative, in any fixed unit (area in 0.01 m², usage in 0.01 kWh); ignored by "equal". */
  weight: bigint;
}

/** One room's part: its exact share floored, plus one unit where its remainder ranked high enough. */
export interface Apportioned {
  id: string;
  amount: bigint;
}

/**
 * Shares `amount` (any sign: a negative amount is the exact mirror of the positive one, so a
 * reversal computed afresh undoes the booking) among `shares` by their weights. Ties between equal
 * remainders go to the earlier share in the given order, so the result is the same on every run
 * for the same input. Answers the shares in the given order.
 */
export function apportion(
  amount: bigint,
  shares: readonly ApportionShare[],
  rule: ApportionRule,
): Apportioned[] {
  if (shares.length === 0) throw new BillingInputError("rooms", "no room to share the amount among");
  const ids = new Set<string>();
  for (const share of shares) {
    if (ids.has(share.id)) throw new BillingInputError("rooms", `room ${share.id} is listed twice`);
    ids.add(share.id);
    if (share.weight < 0n) throw new BillingInputError("weight", `room ${share.id} has a negative weight`);
  }
  const weights = shares.map((share) => (rule === "equal" ? 1n : share.weight));
  const total = weights.reduce((sum, weight) => sum + weight, 0n);
  if (total === 0n) {
    throw new BillingInputError(
      "weight",
      rule === "area" ? "no room under the node has a floor area" : "no room under the node used anything",
    );
  }
  if (amount < 0n) {
    return apportion(-amount, shares, rule).map((part) => ({ id: part.id, amount: -part.amount }));
  }
  const floors = weights.map((weight) => (amount * weight) / total);
  // Remainders as numerators over the common denominator `total`: compared exactly, no fractions.
  const remainders = weights.map((weight, index) => amount * weight - floors[index]! * total);
  let left = amount - floors.reduce((sum, floor) => sum + floor, 0n);
  const ranked = remainders
    .map((remainder, index) => ({ remainder, index }))
    .sort((a, b) => (a.remainder === b.remainder ? a.index - b.index : a.remainder > b.remainder ? -1 : 1));
  const extra = new Array<bigint>(shares.length).fill(0n);
  for (const { index } of ranked) {
    if (left === 0n) break;
    extra[index] = 1n;
    left -= 1n;
  }
  return shares.map((share, index) => ({ id: share.id, amount: floors[index]! + extra[index]! }));
}
