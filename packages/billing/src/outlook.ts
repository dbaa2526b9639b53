import { shouldCut, type Thresholds } from "./levels.ts";
import type { Fen } from "./units.ts";

/** What an account was charged for usage over its recent closed days (pms_account_day). */
export interface RecentCharge {
  /** The usage charges of those days together, in fen. */
  charged: Fen;
  /** How many closed days they cover. */
  days: number;
}

/**
 * How long a balance lasts at the account's recent pace: whole days until it is spent
 * (daysUntilEmpty) and until supply is cut (daysUntilCut: the overdraft used up as well). Null
 * where no estimate holds: no recent charge to go by, or a scheme that never cuts. Both are
 * rounded up — "empty within 2 days" — and computed on the fen sums themselves, never on an
 * average rounded to fen, so the list's filter (charged × N ≥ left × days) and these figures agree.
 */
export interface BalanceOutlook {
  daysUntilEmpty: number | null;
  daysUntilCut: number | null;
}

/** Days, rounded up, until `left` fen are spent at `charged` fen per `days` days. */
function daysToSpend(left: Fen, recent: RecentCharge): number | null {
  if (left <= 0n) return 0;
  if (recent.charged <= 0n || recent.days <= 0) return null;
  const perDays = left * BigInt(recent.days);
  return Number((perDays + recent.charged - 1n) / recent.charged);
}

export function balanceOutlook(balance: Fen, recent: RecentCharge, t: Thresholds): BalanceOutlook {
  return {
    daysUntilEmpty: daysToSpend(balance, recent),
    daysUntilCut: !t.tripOnArrears
      ? null
      : shouldCut(balance, t)
        ? 0
        : daysToSpend(balance + t.arrearsLimit, recent),
  };
}

/**
 * Whether supply is cut within `days` days at the recent pace: already due, or the balance and
 * overdraft spent by then. The same test the attention list's SQL makes on its rows.
 */
export function cutWithin(balance: Fen, recent: RecentCharge, t: Thresholds, days: number): boolean {
  const until = balanceOutlook(balance, recent, t).daysUntilCut;
  return until !== null && until <= days;
}
