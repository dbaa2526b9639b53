/** Default tenant time zone (design §5 Time). */
export const DEFAULT_TIME_ZONE = "Asia/Shanghai";

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-CA", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      hourCycle: "h23",
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** `yyyy-MM-dd HH:mm:ss` in the given zone: the contract's date format (contract §1). */
export function formatDateTime(date: Date, timeZone = DEFAULT_TIME_ZONE): string {
  const parts = Object.fromEntries(
    formatterFor(timeZone)
      .formatToParts(date)
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second}`;
}

/** Offset of `timeZone` from UTC at `date`, in minutes. */
function offsetMinutes(date: Date, timeZone: string): number {
  const local = formatDateTime(date, timeZone).replace(" ", "T");
  return Math.round((Date.parse(`${local}Z`) - date.getTime()) / 60_000);
}

/**
 * Reads `yyyy-MM-dd HH:mm:ss` (also `yyyy-MM-dd` alone, and the 12-hour typo some forms send) as a
 * wall-clock time in `timeZone`. Returns undefined for anything else.
 */
export function parseDateTime(text: string, timeZone = DEFAULT_TIME_ZONE): Date | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?$/.exec(text.trim());
  if (!m) return undefined;
  const [, y, mo, d, h = "00", mi = "00", s = "00"] = m;
  const asUtc = Date.UTC(+y!, +mo! - 1, +d!, +h, +mi, +s);
  const probe = new Date(asUtc);
  if (probe.getUTCMonth() !== +mo! - 1 || probe.getUTCDate() !== +d! || +h > 23 || +mi > 59 || +s > 59) {
    return undefined;
  }
  return new Date(asUtc - offsetMinutes(probe, timeZone) * 60_000);
}
