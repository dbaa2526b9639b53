import pg from "pg";

/** PostgreSQL's type id of timestamptz, whose text this reads. */
export const TIMESTAMPTZ = 1184;

/** The driver's own reading of a timestamptz's text (postgres-date): what the fast way must equal. */
const driverDate = pg.types.getTypeParser(TIMESTAMPTZ, "text") as (text: string) => Date | number | null;

/**
 * A timestamptz column's text as PostgreSQL writes it (DateStyle ISO: `2026-12-02 08:15:00.123+08`,
 * `…+05:30`, `…-00:44:30`) read into a Date by its characters, without the driver's regular
 * expressions: the alarm pass reads three or more times for every meter of every wave, and each
 * cost a match, its array and a split. Anything else (years before 100 or past 9999, BC, infinity)
 * goes to the driver's reader, and this way answers exactly what that one does.
 */
export function timestamptzOfText(text: string): Date | number | null {
  const at = fastTimestamptz(text);
  return at === undefined ? driverDate(text) : new Date(at);
}

/** Milliseconds since the epoch of the common form, or undefined for any other. */
function fastTimestamptz(text: string): number | undefined {
  const n = text.length;
  if (n < 22 || text.charCodeAt(4) !== 45 || text.charCodeAt(7) !== 45 || text.charCodeAt(10) !== 32)
    return undefined;
  if (text.charCodeAt(13) !== 58 || text.charCodeAt(16) !== 58) return undefined;
  const year = digits(text, 0, 4);
  const month = digits(text, 5, 2);
  const day = digits(text, 8, 2);
  const hour = digits(text, 11, 2);
  const minute = digits(text, 14, 2);
  const second = digits(text, 17, 2);
  // Years 0–99 the driver moves out of the 1900s again; a NaN marks a non-digit.
  if (!(year >= 100 && month >= 0 && day >= 0 && hour >= 0 && minute >= 0 && second >= 0)) return undefined;
  let i = 19;
  let ms = 0;
  if (text.charCodeAt(i) === 46) {
    const start = i;
    i++;
    while (i < n && isDigit(text.charCodeAt(i))) i++;
    if (i === start + 1) return undefined;
    // As the driver computes it (a thousand times the fraction read as a float), so that the two
    // agree to the last millisecond whatever the float makes of it.
    ms = 1000 * Number.parseFloat(text.slice(start, i));
  }
  const sign = text.charCodeAt(i);
  if (sign !== 43 && sign !== 45) return undefined;
  const zoneHours = digits(text, i + 1, 2);
  if (!(zoneHours >= 0)) return undefined;
  i += 3;
  let zoneMinutes = 0;
  let zoneSeconds = 0;
  if (i < n) {
    if (text.charCodeAt(i) !== 58) return undefined;
    zoneMinutes = digits(text, i + 1, 2);
    i += 3;
    if (i < n) {
      if (text.charCodeAt(i) !== 58) return undefined;
      zoneSeconds = digits(text, i + 1, 2);
      i += 3;
    }
    if (!(zoneMinutes >= 0 && zoneSeconds >= 0) || i !== n) return undefined;
  }
  const offset = (zoneHours * 3600 + zoneMinutes * 60 + zoneSeconds) * 1000;
  return Date.UTC(year, month - 1, day, hour, minute, second, ms) - (sign === 45 ? -offset : offset);
}

const isDigit = (code: number) => code >= 48 && code <= 57;

/** The number written by `length` digits from `start`; NaN if any is not a digit or the text ends. */
function digits(text: string, start: number, length: number): number {
  if (start + length > text.length) return Number.NaN;
  let value = 0;
  for (let i = start; i < start + length; i++) {
    const code = text.charCodeAt(i);
    if (!isDigit(code)) return Number.NaN;
    value = value * 10 + (code - 48);
  }
  return value;
}
