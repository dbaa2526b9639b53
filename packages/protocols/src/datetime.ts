import { bcdToNumber, isBcdByte, isFilledWith, numberToBcd } from "./bcd.ts";
import { fail } from "./errors.ts";

/**
 * BCD date/time fields. Layouts are named in display order (most significant first) as the
 * standards print them; on the wire the bytes travel reversed, e.g. DL/T 645 04000101
 * YYMMDDWW is sent WW DD MM YY and the broadcast time YYMMDDhhmmss is sent ss mm hh DD MM YY
 * (metering-domain.md §1.3, §1.5). CJ/T 188 real time carries a 4-digit year (§2.2).
 */
export type DateLayout = "YYMMDDWW" | "hhmmss" | "YYMMDDhhmm" | "YYMMDDhhmmss" | "YYYYMMDDhhmmss";

export interface DateTimeInput {
  year: number;
  month: number;
  day: number;
  hour?: number;
  minute?: number;
  second?: number;
  /** 0 = Sunday … 6 = Saturday; computed from the date when omitted. */
  weekday?: number;
}

const LAYOUT_TOKENS: Record<DateLayout, readonly string[]> = {
  YYMMDDWW: ["YY", "MM", "DD", "WW"],
  hhmmss: ["hh", "mm", "ss"],
  YYMMDDhhmm: ["YY", "MM", "DD", "hh", "mm"],
  YYMMDDhhmmss: ["YY", "MM", "DD", "hh", "mm", "ss"],
  YYYYMMDDhhmmss: ["CC", "YY", "MM", "DD", "hh", "mm", "ss"],
};

export function layoutBytes(layout: DateLayout): number {
  return LAYOUT_TOKENS[layout].length;
}

const RANGES: Record<string, [number, number]> = {
  CC: [0, 99],
  YY: [0, 99],
  MM: [1, 12],
  DD: [1, 31],
  WW: [0, 6],
  hh: [0, 23],
  mm: [0, 59],
  ss: [0, 59],
};

export interface DecodedDateTime {
  status: "ok" | "absent" | "invalid";
  value: string | null;
  weekday?: number;
}

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/** Decode an LSB-first BCD date/time. All 00, FF or EE means "not present". */
export function decodeDateTime(layout: DateLayout, wire: Uint8Array): DecodedDateTime {
  if (isFilledWith(wire, 0xff) || isFilledWith(wire, 0xee) || isFilledWith(wire, 0x00)) {
    return { status: "absent", value: null };
  }
  const tokens = LAYOUT_TOKENS[layout];
  const parts: Record<string, number> = {};
  for (let i = 0; i < tokens.length; i++) {
    const byte = wire[tokens.length - 1 - i]!;
    const token = tokens[i]!;
    const [min, max] = RANGES[token]!;
    if (!isBcdByte(byte)) return { status: "invalid", value: null };
    const value = bcdToNumber(byte);
    if (value < min || value > max) return { status: "invalid", value: null };
    parts[token] = value;
  }
  const year = (parts.CC ?? 20) * 100 + (parts.YY ?? 0);
  if (parts.DD !== undefined && parts.DD > daysInMonth(year, parts.MM ?? 1))
    return { status: "invalid", value: null };
  const date = `${year}-${pad(parts.MM ?? 0)}-${pad(parts.DD ?? 0)}`;
  const clock =
    parts.ss === undefined
      ? `${pad(parts.hh ?? 0)}:${pad(parts.mm ?? 0)}`
      : `${pad(parts.hh ?? 0)}:${pad(parts.mm ?? 0)}:${pad(parts.ss)}`;
  if (layout === "hhmmss") return { status: "ok", value: clock };
  if (layout === "YYMMDDWW") return { status: "ok", value: date, weekday: parts.WW ?? 0 };
  return { status: "ok", value: `${date} ${clock}` };
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** Weekday of a calendar date (0 = Sunday), computed in UTC so no time zone leaks in. */
export function weekdayOf(year: number, month: number, day: number): number {
  return new Date(Date.UTC(year, month - 1, day)).getUTCDay();
}

/** Encode a date/time into LSB-first BCD, validating every component. */
export function encodeDateTime(layout: DateLayout, input: DateTimeInput): Uint8Array {
  const tokens = LAYOUT_TOKENS[layout];
  const fourDigitYear = layout === "YYYYMMDDhhmmss";
  if (
    layout !== "hhmmss" &&
    !(fourDigitYear ? input.year >= 0 && input.year <= 9999 : input.year >= 2000 && input.year <= 2099)
  ) {
    fail("bad-argument", `year ${input.year} cannot be encoded in ${layout}`);
  }
  const values: Record<string, number | undefined> = {
    CC: Math.floor(input.year / 100),
    YY: input.year % 100,
    MM: input.month,
    DD: input.day,
    WW: input.weekday ?? weekdayOf(input.year, input.month, input.day),
    hh: input.hour ?? 0,
    mm: input.minute ?? 0,
    ss: input.second ?? 0,
  };
  const out = new Uint8Array(tokens.length);
  tokens.forEach((token, i) => {
    const value = values[token]!;
    const [min, max] = RANGES[token]!;
    if (!Number.isInteger(value) || value < min || value > max) {
      fail("bad-argument", `${token}=${value} is out of range ${min}..${max}`);
    }
    out[tokens.length - 1 - i] = numberToBcd(value);
  });
  if (layout !== "hhmmss" && input.day > daysInMonth(input.year, input.month)) {
    fail("bad-argument", `${input.year}-${input.month} has no day ${input.day}`);
  }
  return out;
}

/** "2017-06-05 10:22:51", "2017-06-05T10:22", "2017-06-05" → DateTimeInput (no time zone applied). */
export function parseDateTimeText(text: string): DateTimeInput {
  const match = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?)?$/.exec(text.trim());
  if (!match) fail("bad-argument", `"${text}" is not a date-time like 2017-06-05 10:22:51`);
  const [, year, month, day, hour = "0", minute = "0", second = "0"] = match;
  return {
    year: Number(year),
    month: Number(month),
    day: Number(day),
    hour: Number(hour),
    minute: Number(minute),
    second: Number(second),
  };
}
