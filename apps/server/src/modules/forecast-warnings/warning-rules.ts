import { addDays, type DaySpend, daysUntilSpent } from "@meterline/analytics";

/**
 * The pure rules of owner warnings before the forecast cut: the warning days a tenant may set, the
 * history a forecast reads, and when a warning episode opens and ends. No I/O here.
 */

/** Weeks of daily charges a forecast reads (the forecast's weekday shares learn from six). */
export const HISTORY_DAYS = 42;
/** The most warning days a tenant may set: beyond a month a forecast says little. */
export const MAX_WARN_DAYS = 30;
/** Forecasts further out than this are "plenty" (null). */
const HORIZON_DAYS = 120;

/** A stored warning-days value: "" or 0 is off; anything unreadable is off too (never a guess). */
export function storedWarnDays(text: string | undefined): number {
  const trimmed = text?.trim() ?? "";
  if (!/^\d{1,3}$/.test(trimmed)) return 0;
  const days = Number(trimmed);
  return days <= MAX_WARN_DAYS ? days : 0;
}

/** The local days a forecast made on `today` reads: up to HISTORY_DAYS closed days, none before the account opened. */
export function historyWindow(today: string, openedDay: string): { from: string; to: string } | undefined {
  const to = addDays(today, -1);
  const earliest = addDays(to, -(HISTORY_DAYS - 1));
  const from = openedDay > earliest ? openedDay : earliest;
  return from <= to ? { from, to } : undefined;
}

/** Each day of the window with its charges in fen; a day without charges spent 0. */
export function dailyHistory(
  window: { from: string; to: string },
  charges: ReadonlyMap<string, number>,
): DaySpend[] {
  const history: DaySpend[] = [];
  for (let day = window.from; day <= window.to; day = addDays(day, 1))
    history.push({ day, fen: Math.max(charges.get(day) ?? 0, 0) });
  return history;
}

/**
 * Whole days from today until the balance is spent on the forecast (1: gone by the end of today),
 * 0 for a balance already spent, null when it outlasts the horizon, the room spends nothing or
 * there is no closed day to learn from yet.
 */
export function forecastDays(
  balanceFen: bigint,
  today: string,
  openedDay: string,
  charges: ReadonlyMap<string, number>,
): number | null {
  if (balanceFen <= 0n) return 0;
  const window = historyWindow(today, openedDay);
  if (!window) return null;
  return daysUntilSpent(Number(balanceFen), dailyHistory(window, charges), { maxDays: HORIZON_DAYS });
}

/** Whether a forecast is one the owner is warned of: within the warning days, balance not yet spent. */
export const withinWarning = (days: number | null, warnDays: number): days is number =>
  warnDays > 0 && days !== null && days > 0 && days <= warnDays;

/**
 * What a daily run does with an account's warning episode. "warn" opens one and texts the owner;
 * "end" closes it (a recharge lifted the forecast above the warning days, or warnings were turned
 * off), so that the next fall warns again; "stay" changes nothing. A balance already spent (0)
 * neither warns (the arrears alarm and the cut speak then) nor ends the episode: a small
 * recharge that leaves the forecast within the warning days is the same episode.
 */
export function episodeStep(open: boolean, days: number | null, warnDays: number): "warn" | "end" | "stay" {
  if (days === 0 && warnDays > 0) return "stay";
  if (withinWarning(days, warnDays)) return open ? "stay" : "warn";
  return open ? "end" : "stay";
}
