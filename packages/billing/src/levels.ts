import type { Fen } from "./units.ts";

/** ALARM_LEVEL of spec §3: 0 normal, 1 low balance, 2 severely low balance, 3 arrears. */
export type BalanceLevel = 0 | 1 | 2 | 3;

/** An alarm scheme in fen (metering-domain §4.2): first alarm > second alarm ≥ 0, overdraft ≥ 0. */
export interface Thresholds {
  firstAlarm: Fen;
  secondAlarm: Fen;
  /** How far below zero the balance may go before supply is cut (the overdraft). */
  arrearsLimit: Fen;
  tripOnArrears: boolean;
}

/**
 * normal above the first alarm, low down to the second, severely low down to zero, arrears at
 * zero and below (the meter has nothing left to spend; the overdraft only delays the cut).
 */
export function balanceLevel(balance: Fen, t: Thresholds): BalanceLevel {
  if (balance <= 0n) return 3;
  if (balance <= t.secondAlarm) return 2;
  if (balance <= t.firstAlarm) return 1;
  return 0;
}

/** Supply is cut once the overdraft is used up, if the scheme trips on arrears at all. */
export const shouldCut = (balance: Fen, t: Thresholds): boolean =>
  t.tripOnArrears && balance <= -t.arrearsLimit;

/**
 * Supply cut for arrears comes back once a recharge lifts the balance above the cut line. The same
 * line in both directions: a balance either holds supply or it does not, so nothing flaps.
 */
export const mayRestore = (balance: Fen, t: Thresholds): boolean => !shouldCut(balance, t);

/** What a recharge must bring to restore supply cut for arrears (restoreAmount). */
export interface RestoreAmount {
  /** The least amount: one fen lifts the balance above the cut line. */
  leastFen: Fen;
  /** The least amount rounded up to whole yuan: what the owner is offered to pay. */
  offerFen: Fen;
}

/**
 * The recharge that brings supply back to a balance at or below the cut line (the overdraft's
 * end): the debt beyond the overdraft plus one fen, and that rounded up to whole yuan. Null for a
 * balance that holds supply (nothing to restore).
 */
export function restoreAmount(balance: Fen, t: Thresholds): RestoreAmount | null {
  if (!shouldCut(balance, t)) return null;
  const leastFen = -t.arrearsLimit - balance + 1n;
  return { leastFen, offerFen: ((leastFen + 99n) / 100n) * 100n };
}
