import { bcdDigits, digitsToBcd, isFilledWith } from "../bcd.ts";
import { type DateTimeInput, decodeDateTime, encodeDateTime } from "../datetime.ts";
import { fail } from "../errors.ts";
import { toHex } from "../hex.ts";
import {
  type DateTimeField,
  decodeField,
  encodeField,
  type FieldFormat,
  type NumberField,
} from "../values.ts";

/**
 * The appendix A data formats of Q/GDW 1376.1 that the decoded classes use. Numbers are BCD,
 * low byte first, the sign (when there is one) in D7 of the last byte, like DL/T 645.
 */
export const A5 = { kind: "number", bytes: 2, decimals: 1, signed: true, unit: "" } as const; // ±XXX.X (%)
export const A7 = { kind: "number", bytes: 2, decimals: 1, unit: "V" } as const; // XXX.X V
export const A9 = { kind: "number", bytes: 3, decimals: 4, signed: true, unit: "kW" } as const; // ±XX.XXXX
export const A9_KVAR = { ...A9, unit: "kvar" } as const;
export const A9_KVA = { ...A9, unit: "kVA" } as const;
export const A11 = { kind: "number", bytes: 4, decimals: 2, unit: "kWh" } as const; // XXXXXX.XX
export const A11_KVARH = { ...A11, unit: "kvarh" } as const;
export const A14 = { kind: "number", bytes: 5, decimals: 4, unit: "kWh" } as const; // XXXXXX.XXXX
export const A14_YUAN = { ...A14, unit: "yuan" } as const;
export const A25 = { kind: "number", bytes: 3, decimals: 3, signed: true, unit: "A" } as const; // ±XXX.XXX
/** A.15: minute, hour, day, month, year (mm hh DD MM YY on the wire). */
export const A15 = { kind: "datetime", layout: "YYMMDDhhmm" } as const;

export type NumberFormat = Extract<FieldFormat, { kind: "number" }>;

export function numberAt(name: string, format: NumberFormat, bytes: Uint8Array, at: number): NumberField {
  return decodeField(name, format, bytes.subarray(at, at + format.bytes)) as NumberField;
}

export function a15At(name: string, bytes: Uint8Array, at: number): DateTimeField {
  return decodeField(name, A15, bytes.subarray(at, at + 5)) as DateTimeField;
}

/**
 * A.1, 6 bytes: ss mm hh DD, then the month with the weekday in D7..D5 (1 = Monday … 7 =
 * Sunday, 0 = not given), then YY. `weekday` is returned the library's way (0 = Sunday).
 */
export function decodeA1(name: string, wire: Uint8Array): DateTimeField {
  const raw = toHex(wire, "");
  const week = wire[4]! >> 5;
  const plain = Uint8Array.from(wire);
  plain[4] = wire[4]! & 0x1f;
  const decoded = decodeDateTime("YYMMDDhhmmss", plain);
  const field: DateTimeField = { kind: "datetime", name, raw, status: decoded.status, value: decoded.value };
  if (decoded.status === "ok" && week >= 1 && week <= 7) field.weekday = week % 7;
  return field;
}

export function encodeA1(input: DateTimeInput): Uint8Array {
  const out = encodeDateTime("YYMMDDhhmmss", input);
  // Library weekday 0 = Sunday; A.1 counts 1 = Monday … 7 = Sunday.
  const weekday = input.weekday ?? new Date(Date.UTC(input.year, input.month - 1, input.day)).getUTCDay();
  out[4] = out[4]! | ((weekday === 0 ? 7 : weekday) << 5);
  return out;
}

/** A.20, 3 bytes DD MM YY: the day of a daily freeze (Td_d). */
export function decodeA20(name: string, wire: Uint8Array): DateTimeField {
  const raw = toHex(wire, "");
  if (isFilledWith(wire, 0xff) || isFilledWith(wire, 0xee))
    return { kind: "datetime", name, raw, status: "absent", value: null };
  const decoded = decodeDateTime("YYMMDDWW", Uint8Array.of(0, wire[0]!, wire[1]!, wire[2]!));
  return { kind: "datetime", name, raw, status: decoded.status, value: decoded.value };
}

/** A.21, 2 bytes MM YY: the month of a monthly freeze (Td_m). */
export function decodeA21(name: string, wire: Uint8Array): DateTimeField {
  const raw = toHex(wire, "");
  if (isFilledWith(wire, 0xff) || isFilledWith(wire, 0xee))
    return { kind: "datetime", name, raw, status: "absent", value: null };
  const decoded = decodeDateTime("YYMMDDWW", Uint8Array.of(0, 1, wire[0]!, wire[1]!));
  return { kind: "datetime", name, raw, status: decoded.status, value: decoded.value?.slice(0, 7) ?? null };
}

export function encodeA20(input: DateTimeInput): Uint8Array {
  return encodeDateTime("YYMMDDWW", { ...input, weekday: 0 }).subarray(1);
}

export function encodeA21(input: { year: number; month: number }): Uint8Array {
  return encodeDateTime("YYMMDDWW", { ...input, day: 1, weekday: 0 }).subarray(2);
}

export function encodeA15(input: DateTimeInput): Uint8Array {
  return encodeDateTime("YYMMDDhhmm", input);
}

export function encodeNumber(format: NumberFormat, value: string | null): Uint8Array {
  return encodeField(format, value);
}

/** A.8: 2 bytes BCD, 0..9999 (counts such as the purchase count); null when not BCD. */
export function decodeA8(bytes: Uint8Array, at: number): number | null {
  const text = bcdDigits(bytes.subarray(at, at + 2));
  return text === null ? null : Number(text);
}

export function encodeA8(value: number, what: string): Uint8Array {
  if (!Number.isInteger(value) || value < 0 || value > 9999)
    fail("bad-argument", `${what} ${value} is not 0..9999`);
  return digitsToBcd(String(value).padStart(4, "0"), 2);
}

/** Little-endian unsigned binary of 1, 2 or 4 bytes. */
export function binAt(bytes: Uint8Array, at: number, size: 1 | 2 | 4): number {
  let value = 0;
  for (let i = size - 1; i >= 0; i--) value = value * 256 + bytes[at + i]!;
  return value;
}

export function encodeBin(value: number, size: 1 | 2 | 4, what: string): Uint8Array {
  if (!Number.isInteger(value) || value < 0 || value >= 256 ** size)
    fail("bad-argument", `${what} ${value} does not fit ${size} byte(s)`);
  const out = new Uint8Array(size);
  for (let i = 0; i < size; i++) out[i] = Math.floor(value / 256 ** i) % 256;
  return out;
}
