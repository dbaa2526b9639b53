import { formatScaled } from "../decimal.ts";
import { fail } from "../errors.ts";
import { toHex } from "../hex.ts";
import type { Unit } from "../units.ts";
import type { NumberField } from "../values.ts";

/**
 * Register values as meters lay them out: 16-, 32- and 64-bit integers and IEEE 754 floats
 * over one to four registers, in either word order (most significant register first = "big")
 * and either byte order inside a register. Values come out as exact decimal text: integers
 * times a power-of-ten scale exactly, floats as the shortest decimal that reads back to the
 * same float (what the meter means by 1234.56, not 1234.56005859375).
 */
export type DataType = "int16" | "uint16" | "int32" | "uint32" | "float32" | "float64";
export type Order = "big" | "little";

export interface RegisterFormat {
  type: DataType;
  /** Power of ten the raw value is multiplied by: "0.01", "1", "10". */
  scale: string;
  unit: Unit;
  byteOrder: Order;
  wordOrder: Order;
}

export const DATA_TYPES: readonly DataType[] = ["int16", "uint16", "int32", "uint32", "float32", "float64"];

export function registerCount(type: DataType): number {
  return type === "float64" ? 4 : type.endsWith("16") ? 1 : 2;
}

/** "0.01" → -2, "1" → 0, "100" → 2; anything that is not a power of ten is refused. */
export function scaleExponent(scale: string): number {
  const fraction = /^0\.(0*)1$/.exec(scale);
  if (fraction) return -(fraction[1]!.length + 1);
  const whole = /^1(0*)$/.exec(scale);
  if (whole) return whole[1]!.length;
  fail("bad-argument", `scale "${scale}" is not a power of ten such as 0.01, 1 or 10`);
}

/** The value's bytes most significant first, from registers in wire order. */
function valueBytes(format: RegisterFormat, words: readonly number[]): Uint8Array {
  const ordered = format.wordOrder === "big" ? words : [...words].reverse();
  const out = new Uint8Array(ordered.length * 2);
  ordered.forEach((word, i) => {
    const high = (word >> 8) & 0xff;
    const low = word & 0xff;
    out[i * 2] = format.byteOrder === "big" ? high : low;
    out[i * 2 + 1] = format.byteOrder === "big" ? low : high;
  });
  return out;
}

function wordsFromValueBytes(format: RegisterFormat, bytes: Uint8Array): number[] {
  const words: number[] = [];
  for (let i = 0; i < bytes.length; i += 2) {
    const [first, second] = [bytes[i]!, bytes[i + 1]!];
    words.push(format.byteOrder === "big" ? (first << 8) | second : (second << 8) | first);
  }
  return format.wordOrder === "big" ? words : words.reverse();
}

/** Shortest decimal (digits × 10^exponent) that reads back to `value` at the float's width. */
function shortestDecimal(value: number, float32: boolean): { digits: string; exponent: number } {
  const same = (text: string) => (float32 ? Math.fround(Number(text)) : Number(text)) === value;
  for (let precision = 1; precision <= 17; precision++) {
    const text = Math.abs(value).toExponential(precision - 1);
    if (!same(value < 0 ? `-${text}` : text)) continue;
    const [mantissa, power] = text.split("e") as [string, string];
    return { digits: mantissa.replace(".", ""), exponent: Number(power) - (precision - 1) };
  }
  fail("bad-argument", `no decimal for ${value}`); // unreachable: 17 digits always round-trip
}

/** Decode one value from its registers (wire order) into a field like the other codecs give. */
export function decodeRegisterValue(
  name: string,
  format: RegisterFormat,
  words: readonly number[],
): NumberField {
  if (words.length !== registerCount(format.type))
    fail(
      "bad-argument",
      `${name}: ${format.type} takes ${registerCount(format.type)} registers, got ${words.length}`,
    );
  const bytes = valueBytes(format, words);
  const raw = toHex(bytes, "");
  const view = new DataView(bytes.buffer);
  const exponent = scaleExponent(format.scale);
  const base = { kind: "number" as const, name, raw, unit: format.unit };
  let negative = false;
  let digits: string;
  let power: number;
  switch (format.type) {
    case "int16":
    case "uint16":
    case "int32":
    case "uint32": {
      const integer =
        format.type === "int16"
          ? view.getInt16(0)
          : format.type === "uint16"
            ? view.getUint16(0)
            : format.type === "int32"
              ? view.getInt32(0)
              : view.getUint32(0);
      negative = integer < 0;
      digits = String(Math.abs(integer));
      power = exponent;
      break;
    }
    case "float32":
    case "float64": {
      const float = format.type === "float32" ? view.getFloat32(0) : view.getFloat64(0);
      if (!Number.isFinite(float)) return { ...base, status: "invalid", value: null, scaled: null, scale: 0 };
      negative = float < 0;
      const decimal =
        float === 0 ? { digits: "0", exponent: 0 } : shortestDecimal(float, format.type === "float32");
      digits = decimal.digits;
      power = decimal.exponent + exponent;
    }
  }
  // Trailing zeros of the digits only move the decimal point.
  while (power < 0 && digits.length > 1 && digits.endsWith("0")) {
    digits = digits.slice(0, -1);
    power++;
  }
  const scale = Math.max(0, -power, -exponent);
  const magnitude = BigInt(digits) * 10n ** BigInt(power + scale);
  const scaled = negative && magnitude !== 0n ? -magnitude : magnitude;
  return { ...base, status: "ok", value: formatScaled(scaled, scale), scaled, scale };
}

/**
 * Encode an exact decimal into registers (wire order), the way the meter stores it: for
 * recharge and parameter writes, and for the simulated meter. A value the type cannot hold
 * exactly (too many decimals for the scale, out of range) is refused, never rounded.
 */
export function encodeRegisterValue(format: RegisterFormat, value: string): number[] {
  const match = /^([+-]?)(\d+)(?:\.(\d+))?$/.exec(value.trim());
  if (!match) fail("bad-argument", `"${value}" is not a decimal number`);
  const [, sign, whole, fraction = ""] = match;
  const exponent = scaleExponent(format.scale);
  const bytes = new Uint8Array(registerCount(format.type) * 2);
  const view = new DataView(bytes.buffer);
  if (format.type === "float32" || format.type === "float64") {
    const float = Number(`${sign}${whole}.${fraction || "0"}e${-exponent}`);
    if (format.type === "float32") {
      if (!Number.isFinite(Math.fround(float))) fail("bad-argument", `${value} does not fit a float32`);
      view.setFloat32(0, float);
    } else view.setFloat64(0, float);
    return wordsFromValueBytes(format, bytes);
  }
  // raw = value / 10^exponent must be an integer.
  const digits = `${whole}${fraction}`;
  const shift = -exponent - fraction.length;
  if (shift < 0 && !/^0*$/.test(digits.slice(digits.length + shift)))
    fail("bad-argument", `${value} has more decimals than scale ${format.scale} can hold`);
  const magnitude =
    shift >= 0
      ? BigInt(digits) * 10n ** BigInt(shift)
      : BigInt(digits.slice(0, digits.length + shift) || "0");
  const raw = sign === "-" ? -magnitude : magnitude;
  const bits = format.type.endsWith("16") ? 16n : 32n;
  const signed = format.type.startsWith("int");
  const min = signed ? -(1n << (bits - 1n)) : 0n;
  const max = signed ? (1n << (bits - 1n)) - 1n : (1n << bits) - 1n;
  if (raw < min || raw > max)
    fail("bad-argument", `${value} does not fit ${format.type} at scale ${format.scale}`);
  const unsigned = raw < 0n ? raw + (1n << bits) : raw;
  if (bits === 16n) view.setUint16(0, Number(unsigned));
  else view.setUint32(0, Number(unsigned));
  return wordsFromValueBytes(format, bytes);
}
