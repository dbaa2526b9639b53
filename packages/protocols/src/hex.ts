import { fail } from "./errors.ts";

const HEX_DIGITS = "0123456789ABCDEF";

/**
 * Parse hex text as field engineers paste it from logs: "68 AA AA", "68AAAA", "0x68,0xAA",
 * "68-AA-AA" or with line breaks. Separators are any non-hex characters; a `0x` prefix is
 * dropped. Each group must have an even number of digits.
 */
export function parseHex(text: string): Uint8Array {
  const cleaned = text.replace(/0x/gi, " ");
  const groups = cleaned.split(/[^0-9a-fA-F]+/).filter((group) => group.length > 0);
  const digits = groups.join("");
  if (groups.some((group) => group.length % 2 !== 0)) {
    fail("bad-hex", "hex input has a group with an odd number of digits");
  }
  if (/[g-zG-Z]/.test(cleaned)) {
    fail("bad-hex", "hex input contains letters that are not hex digits");
  }
  const out = new Uint8Array(digits.length / 2);
  for (let i = 0; i < out.length; i++) {
    out[i] = Number.parseInt(digits.slice(i * 2, i * 2 + 2), 16);
  }
  return out;
}

const BYTE_HEX = Array.from({ length: 256 }, (_, byte) => HEX_DIGITS[byte >> 4]! + HEX_DIGITS[byte & 0x0f]!);

/** Upper-case hex, bytes separated by `separator` (a space by default). */
export function toHex(bytes: Uint8Array, separator = " "): string {
  let out = "";
  for (let i = 0; i < bytes.length; i++) {
    if (i > 0) out += separator;
    out += BYTE_HEX[bytes[i]!]!;
  }
  return out;
}

/** One byte as two upper-case hex digits. */
export function byteHex(byte: number): string {
  return BYTE_HEX[byte & 0xff]!;
}

/** Arithmetic sum mod 256 of bytes[from..to) — the checksum of both DL/T 645 and CJ/T 188. */
export function sum8(bytes: Uint8Array, from: number, to: number): number {
  let sum = 0;
  for (let i = from; i < to; i++) sum += bytes[i]!;
  return sum & 0xff;
}

/** Reverse a byte array into a new one (wire order is least significant byte first). */
export function reversed(bytes: Uint8Array): Uint8Array {
  const out = new Uint8Array(bytes.length);
  for (let i = 0; i < bytes.length; i++) out[i] = bytes[bytes.length - 1 - i]!;
  return out;
}

export function concatBytes(...parts: Uint8Array[]): Uint8Array {
  let length = 0;
  for (const part of parts) length += part.length;
  const out = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/**
 * A copy of `bytes[start, end)` as a plain Uint8Array. `Buffer#slice` shares memory (unlike
 * `Uint8Array#slice`), and callers hand us Buffers from sockets and MQTT: never mutate theirs.
 */
export function copyBytes(bytes: Uint8Array, start = 0, end = bytes.length): Uint8Array {
  return new Uint8Array(bytes.subarray(start, end));
}
