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

/**
 * `yyyy-MM-dd HH:mm:ss` in the given zone, as Intl says it (slow: it builds an array of parts).
 * Exported as the reference formatDateTime is tested against.
 */
export function formatWithIntl(date: Date, timeZone: string): string {
  const parts = Object.fromEntries(
    formatterFor(timeZone)
      .formatToParts(date)
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second}`;
}

const DAY_MS = 86_400_000;
/** Per zone, per UTC day: the zone's offset in ms through that whole day, or null if it changes in it. */
const dayOffsets = new Map<string, Map<number, number | null>>();

/** The zone's offset at `ms` (whole seconds: old local mean times have seconds too), read from Intl. */
function offsetAt(ms: number, timeZone: string): number {
  const [day, time] = formatWithIntl(new Date(ms), timeZone).split(" ") as [string, string];
  const [y, mo, d] = day.split("-").map(Number) as [number, number, number];
  const [h, mi, s] = time.split(":").map(Number) as [number, number, number];
  return Date.UTC(y, mo - 1, d, h, mi, s) - Math.floor(ms / 1000) * 1000;
}

function dayOffset(ms: number, timeZone: string): number | null {
  let days = dayOffsets.get(timeZone);
  if (!days) {
    days = new Map();
    dayOffsets.set(timeZone, days);
  }
  const day = Math.floor(ms / DAY_MS);
  let offset = days.get(day);
  if (offset === undefined) {
    // The same offset at the first and the last second of the day: no change inside it (zones
    // change at most once a day).
    const first = offsetAt(day * DAY_MS, timeZone);
    offset = first === offsetAt(day * DAY_MS + DAY_MS - 1000, timeZone) ? first : null;
    if (days.size >= 4096) days.clear();
    days.set(day, offset);
  }
  return offset;
}

const two = (n: number) => (n < 10 ? `0${n}` : String(n));

/**
 * `yyyy-MM-dd HH:mm:ss` in the given zone: the contract's date format (contract §1). Every row of
 * a page or an export passes here; Intl is asked once per zone and day, the rest is arithmetic.
 */
export function formatDateTime(date: Date, timeZone = DEFAULT_TIME_ZONE): string {
  const ms = date.getTime();
  const offset = Number.isFinite(ms) ? dayOffset(ms, timeZone) : null;
  if (offset === null) return formatWithIntl(date, timeZone);
  const local = new Date(ms + offset);
  const year = local.getUTCFullYear();
  // Years Intl writes otherwise (before 1000, after 9999) keep its spelling.
  if (year < 1000 || year > 9999) return formatWithIntl(date, timeZone);
  return `${year}-${two(local.getUTCMonth() + 1)}-${two(local.getUTCDate())} ${two(local.getUTCHours())}:${two(local.getUTCMinutes())}:${two(local.getUTCSeconds())}`;
}

/** Per zone, the last local day formatDay wrote: its number (local days since 1970) and its text. */
const lastDays = new Map<string, { day: number; text: string }>();

/**
 * `yyyy-MM-dd` in the given zone: formatDateTime's first ten characters. Every reading asks for its
 * day (of usage, of pricing), and a wave's readings share one: the day's text is kept per zone and
 * written again only when the local day changes.
 */
export function formatDay(date: Date, timeZone = DEFAULT_TIME_ZONE): string {
  const ms = date.getTime();
  const offset = Number.isFinite(ms) ? dayOffset(ms, timeZone) : null;
  if (offset === null) return formatDateTime(date, timeZone).slice(0, 10);
  // formatDateTime writes the UTC date of ms + offset: the same local day number, the same text.
  const day = Math.floor((ms + offset) / DAY_MS);
  const last = lastDays.get(timeZone);
  if (last?.day === day) return last.text;
  const text = formatDateTime(date, timeZone).slice(0, 10);
  if (lastDays.size >= 64) lastDays.clear();
  lastDays.set(timeZone, { day, text });
  return text;
}

/** Offset of `timeZone` from UTC at `date`, in minutes. */
function offsetMinutes(date: Date, timeZone: string): number {
  const local = formatWithIntl(date, timeZone).replace(" ", "T");
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
