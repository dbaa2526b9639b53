/**
 * Protection windows (保电, metering-domain §4.3): times of day and dates when supply is never cut
 * for arrears. A cut that falls inside one waits for its end.
 */
export interface ProtectionWindows {
  /** `[{start:"22:00", end:"07:00"}]`; an end before the start wraps past midnight. */
  times: { start: string; end: string }[];
  /** `"yyyy-MM-dd"` days, or `"weekend"` for every Saturday and Sunday. */
  dates: string[];
}

/** A wall-clock moment in the tenant's zone. */
export interface LocalMoment {
  day: string;
  /** Minutes since local midnight. */
  minute: number;
  /** 0 Sunday … 6 Saturday. */
  weekday: number;
}

const MINUTES_PER_DAY = 1440;
const minuteOf = (time: string): number => {
  const [h, m] = time.split(":").map(Number) as [number, number];
  return h * 60 + m;
};

const formatters = new Map<string, Intl.DateTimeFormat>();

/** The wall clock of an instant in a time zone. */
export function localMoment(at: Date, timeZone: string): LocalMoment {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-CA", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      weekday: "short",
    });
    formatters.set(timeZone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(at).map((p) => [p.type, p.value]));
  const weekday = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"].indexOf(parts.weekday ?? "");
  return {
    day: `${parts.year}-${parts.month}-${parts.day}`,
    minute: Number(parts.hour) * 60 + Number(parts.minute),
    weekday,
  };
}

const protectedDay = (moment: LocalMoment, w: ProtectionWindows) =>
  w.dates.includes(moment.day) ||
  (w.dates.includes("weekend") && (moment.weekday === 0 || moment.weekday === 6));

/** Minutes from the moment until the end of the time window that holds it; 0 when none does. */
function minutesLeftInWindow(minute: number, w: ProtectionWindows): number {
  let left = 0;
  for (const { start, end } of w.times) {
    const from = minuteOf(start);
    const to = minuteOf(end) % MINUTES_PER_DAY;
    const span = (to - from + MINUTES_PER_DAY) % MINUTES_PER_DAY || MINUTES_PER_DAY;
    const into = (minute - from + MINUTES_PER_DAY) % MINUTES_PER_DAY;
    if (into < span) left = Math.max(left, span - into);
  }
  return left;
}

export function isProtected(moment: LocalMoment, w: ProtectionWindows): boolean {
  return protectedDay(moment, w) || minutesLeftInWindow(moment.minute, w) > 0;
}

/**
 * The first instant at or after `at` outside every window: when a held cut may go ahead. Steps
 * from window end to window end (a protected day ends at local midnight), so a year of protected
 * dates costs a few hundred steps, not a minute-by-minute walk. Windows that cover all time
 * (every time of day protected) answer null: the cut never goes ahead by itself.
 */
export function protectionEnds(at: Date, timeZone: string, w: ProtectionWindows): Date | null {
  // Windows are whole minutes: work from the start of the minute that holds `at`.
  let instant = new Date(Math.floor(at.getTime() / 60_000) * 60_000);
  for (let step = 0; step < 2000; step++) {
    const moment = localMoment(instant, timeZone);
    let wait = minutesLeftInWindow(moment.minute, w);
    if (wait >= MINUTES_PER_DAY) return null;
    if (protectedDay(moment, w)) wait = Math.max(wait, MINUTES_PER_DAY - moment.minute);
    if (wait === 0) return step === 0 ? at : instant;
    // Wall-clock minutes ahead; a daylight-saving jump on the way is caught by the next check.
    instant = new Date(instant.getTime() + wait * 60_000);
  }
  return null;
}
