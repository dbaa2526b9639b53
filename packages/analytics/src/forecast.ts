/**
 * Days until a prepaid balance is spent, from the account's daily charges: a room that uses twice
 * as much at weekends, or more each week as the heating season starts, runs out sooner than the
 * plain average says. Each weekday gets its share of a week (learned from the last weeks), and
 * the level is the last week's, moving on by the change from the week before, damped so that one
 * cold week does not project a runaway. Figures are estimates in fen as numbers: they decide when
 * to warn an owner, never what is booked.
 */

const DAY_MS = 86_400_000;

/** One closed day's usage charges in fen; `day` is its local date yyyy-MM-dd. */
export interface DaySpend {
  day: string;
  fen: number;
}

export interface ForecastOptions {
  /** Weeks of history the weekday shares are learned from. */
  weeks?: number;
  /** Per-day damping of the trend (1: none, 0: no trend). */
  damping?: number;
}

/** 0 = Monday … 6 = Sunday, of a yyyy-MM-dd date. */
export function weekdayOf(day: string): number {
  const at = Date.parse(`${day}T00:00:00Z`);
  if (Number.isNaN(at)) throw new RangeError(`not a date: ${day}`);
  return (new Date(at).getUTCDay() + 6) % 7;
}

/** The date `days` after `day`. */
export function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/**
 * Each weekday's share of a week, scaled so the seven average 1: the mean of that weekday's
 * charges over the weeks given, against the mean of all their days. Flat (all 1) without at
 * least one full week, or for a room that spent nothing.
 */
export function weekdayShares(history: readonly DaySpend[], weeks = 6): number[] {
  const recent = history.slice(-weeks * 7);
  const sums = new Array<number>(7).fill(0);
  const counts = new Array<number>(7).fill(0);
  for (const entry of recent) {
    const weekday = weekdayOf(entry.day);
    sums[weekday]! += entry.fen;
    counts[weekday]!++;
  }
  if (counts.some((count) => count === 0)) return new Array<number>(7).fill(1);
  const means = sums.map((sum, weekday) => sum / counts[weekday]!);
  const overall = means.reduce((a, b) => a + b, 0) / 7;
  if (!(overall > 0)) return new Array<number>(7).fill(1);
  return means.map((mean) => mean / overall);
}

/** The expected charges (fen) of each of the `horizon` days after the history's last day. */
export function forecastDaily(
  history: readonly DaySpend[],
  horizon: number,
  options: ForecastOptions = {},
): number[] {
  const { weeks = 6, damping = 0.9 } = options;
  if (history.length === 0) return new Array<number>(horizon).fill(0);
  const shares = weekdayShares(history, weeks);
  // Charges with the weekday taken out, so a week's days compare with each other.
  const level = (days: readonly DaySpend[]) =>
    days.reduce((sum, entry) => sum + entry.fen / Math.max(shares[weekdayOf(entry.day)]!, 0.05), 0) /
    Math.max(days.length, 1);
  const lastWeek = history.slice(-7);
  const weekBefore = history.slice(-14, -7);
  const now = level(lastWeek);
  const slope = weekBefore.length === 7 ? (now - level(weekBefore)) / 7 : 0;
  const last = history.at(-1)!.day;
  const forecast: number[] = [];
  let drift = 0;
  let step = 1;
  for (let ahead = 1; ahead <= horizon; ahead++) {
    step *= damping;
    drift += slope * step;
    const base = Math.max(now + drift, 0);
    forecast.push(base * shares[weekdayOf(addDays(last, ahead))]!);
  }
  return forecast;
}

/**
 * Whole days, counted from the day after the history's last, until `balanceFen` is spent on the
 * forecast: 1 when it is gone within the next day. 0 for a balance already spent; null when it
 * outlasts `maxDays` (or the room spends nothing).
 */
export function daysUntilSpent(
  balanceFen: number,
  history: readonly DaySpend[],
  options: ForecastOptions & { maxDays?: number } = {},
): number | null {
  if (balanceFen <= 0) return 0;
  const maxDays = options.maxDays ?? 120;
  const daily = forecastDaily(history, maxDays, options);
  let left = balanceFen;
  for (const [index, fen] of daily.entries()) {
    left -= fen;
    if (left <= 0) return index + 1;
  }
  return null;
}

/**
 * The forecast's error measured on a history: at each day from the `warmup`-th on, a balance of
 * `budgetDays` days of the room's average spend is set aside; the forecast's days until it is
 * spent are compared with the days the history actually took. Answers the mean absolute error in
 * days and how many cases it covers (cases running past the history's end are left out).
 */
export function backtest(
  history: readonly DaySpend[],
  options: ForecastOptions & { warmup?: number; budgetDays?: number } = {},
): { meanAbsoluteError: number; cases: number } {
  const { warmup = 28, budgetDays = 10 } = options;
  let errors = 0;
  let cases = 0;
  for (let start = warmup; start < history.length; start++) {
    const past = history.slice(0, start);
    const average = past.slice(-28).reduce((sum, entry) => sum + entry.fen, 0) / Math.min(past.length, 28);
    const balance = average * budgetDays;
    if (!(balance > 0)) continue;
    let left = balance;
    let actual: number | undefined;
    for (let index = start; index < history.length; index++) {
      left -= history[index]!.fen;
      if (left <= 0) {
        actual = index - start + 1;
        break;
      }
    }
    if (actual === undefined) continue;
    const predicted = daysUntilSpent(balance, past, options) ?? 120;
    errors += Math.abs(predicted - actual);
    cases++;
  }
  return { meanAbsoluteError: cases === 0 ? 0 : errors / cases, cases };
}
