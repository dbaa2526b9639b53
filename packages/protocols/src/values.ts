import { bcdDigits, digitsToBcd, isFilledWith } from "./bcd.ts";
import {
  type DateLayout,
  type DateTimeInput,
  decodeDateTime,
  encodeDateTime,
  layoutBytes,
} from "./datetime.ts";
import { formatDigits, formatScaled, parseScaled, scaledFromDigits } from "./decimal.ts";
import { fail } from "./errors.ts";
import { copyBytes, toHex } from "./hex.ts";
import type { Unit } from "./units.ts";

/**
 * Value formats of data-identifier tables (metering-domain.md §1.5, §6 item 4): a field is
 * BCD with implied decimals (optionally signed in the top bit), a BCD date/time, a BCD digit
 * string (addresses, meter numbers), a status word, or raw bytes.
 */
export type FieldFormat =
  | { kind: "number"; bytes: number; decimals: number; signed?: boolean; unit: Unit }
  | { kind: "datetime"; layout: DateLayout }
  | { kind: "digits"; bytes: number }
  | { kind: "word"; bytes: number }
  | { kind: "raw"; bytes: number };

/** "ok"; "absent" = the meter filled the field with FF/EE (not present); "invalid" = not BCD. */
export type FieldStatus = "ok" | "absent" | "invalid";

interface FieldBase {
  name: string;
  status: FieldStatus;
  /** The field's bytes in wire order (DL/T 645: after removing the 0x33 offset). */
  raw: string;
}
export interface NumberField extends FieldBase {
  kind: "number";
  /** Exact decimal text, e.g. "112280.26"; null unless status is "ok". */
  value: string | null;
  /** The same value in the smallest unit (value × 10^scale). */
  scaled: bigint | null;
  scale: number;
  unit: Unit;
}
export interface DateTimeField extends FieldBase {
  kind: "datetime";
  value: string | null;
  weekday?: number;
}
export interface TextField extends FieldBase {
  kind: "digits" | "word" | "raw";
  value: string | null;
}
export type DecodedField = NumberField | DateTimeField | TextField;

/** What a builder accepts for one field. */
export type FieldInput = string | bigint | DateTimeInput | Uint8Array | null;

export function formatBytes(format: FieldFormat): number {
  return format.kind === "datetime" ? layoutBytes(format.layout) : format.bytes;
}

export function decodeField(name: string, format: FieldFormat, wire: Uint8Array): DecodedField {
  const raw = toHex(wire, "");
  const absent = isFilledWith(wire, 0xff) || isFilledWith(wire, 0xee);
  switch (format.kind) {
    case "number": {
      const scale = format.decimals;
      const unit = format.unit;
      if (absent)
        return { kind: "number", name, raw, scale, unit, status: "absent", value: null, scaled: null };
      const top = wire[wire.length - 1] ?? 0;
      const negative = format.signed === true && (top & 0x80) !== 0;
      const digits = bcdDigits(wire, format.signed ? 0x7f : 0xff);
      if (digits === null)
        return { kind: "number", name, raw, scale, unit, status: "invalid", value: null, scaled: null };
      const scaled = scaledFromDigits(digits, negative);
      const value = formatDigits(digits, scale, negative);
      return { kind: "number", name, raw, scale, unit, status: "ok", value, scaled };
    }
    case "datetime": {
      const decoded = decodeDateTime(format.layout, wire);
      return { kind: "datetime", name, raw, ...decoded };
    }
    case "digits": {
      if (absent) return { kind: "digits", name, raw, status: "absent", value: null };
      const digits = bcdDigits(wire);
      return { kind: "digits", name, raw, status: digits === null ? "invalid" : "ok", value: digits };
    }
    case "word":
      // Status words are bit fields: shown most significant byte first, never "absent".
      return { kind: "word", name, raw, status: "ok", value: toHex(copyBytes(wire).reverse(), "") };
    case "raw":
      return { kind: "raw", name, raw, status: "ok", value: raw };
  }
}

/** Encode one field value into wire-order bytes (before any 0x33 offset). null → FF fill. */
export function encodeField(format: FieldFormat, input: FieldInput): Uint8Array {
  const size = formatBytes(format);
  if (input === null) return new Uint8Array(size).fill(0xff);
  if (input instanceof Uint8Array) {
    if (input.length !== size) fail("bad-argument", `expected ${size} raw bytes, got ${input.length}`);
    return input;
  }
  switch (format.kind) {
    case "number":
      return encodeNumber(format, input);
    case "datetime":
      if (typeof input !== "object") fail("bad-argument", "a date-time field needs a DateTimeInput");
      return encodeDateTime(format.layout, input);
    case "digits":
    case "word": {
      const text = typeof input === "bigint" ? input.toString() : String(input);
      const pattern = format.kind === "digits" ? /^\d+$/ : /^[0-9a-fA-F]+$/;
      if (!pattern.test(text) || text.length > size * 2) {
        fail("bad-argument", `"${text}" does not fit ${size} bytes of ${format.kind}`);
      }
      const padded = text.padStart(size * 2, "0");
      if (format.kind === "digits") return digitsToBcd(padded, size);
      const out = new Uint8Array(size);
      for (let i = 0; i < size; i++) out[size - 1 - i] = Number.parseInt(padded.slice(i * 2, i * 2 + 2), 16);
      return out;
    }
    case "raw":
      fail("bad-argument", "raw fields take a Uint8Array");
  }
}

function encodeNumber(format: Extract<FieldFormat, { kind: "number" }>, input: FieldInput): Uint8Array {
  let scaled: bigint;
  if (typeof input === "bigint") scaled = input;
  else if (typeof input === "string") scaled = parseScaled(input, format.decimals);
  else fail("bad-argument", "a number field takes a decimal string or a scaled bigint");
  const negative = scaled < 0n;
  if (negative && !format.signed) fail("bad-argument", "this field cannot hold a negative value");
  const digits = (negative ? -scaled : scaled).toString();
  const capacity = format.bytes * 2;
  // Signed formats keep the top bit of the most significant byte for the sign, so its high
  // digit can only be 0..7.
  const fits =
    digits.length < capacity ||
    (digits.length === capacity && (!format.signed || digits.charCodeAt(0) <= 55));
  if (!fits)
    fail("bad-argument", `${formatScaled(scaled, format.decimals)} does not fit ${format.bytes} BCD bytes`);
  const out = digitsToBcd(digits.padStart(capacity, "0"), format.bytes);
  if (negative) out[format.bytes - 1] = out[format.bytes - 1]! | 0x80;
  return out;
}
