/**
 * Packed BCD helpers. Both standards send multi-byte BCD least significant byte first
 * (DL/T 645-2007 §5.1 / metering-domain.md §1.2; CJ/T 188-2004 "先传低位字节").
 */

/** True when both nibbles are decimal digits. */
export function isBcdByte(byte: number): boolean {
  return (byte & 0x0f) <= 9 && byte >> 4 <= 9;
}

export function bcdToNumber(byte: number): number {
  return (byte >> 4) * 10 + (byte & 0x0f);
}

export function numberToBcd(value: number): number {
  return ((Math.floor(value / 10) % 10) << 4) | (value % 10);
}

/** "00".."99" for valid packed-BCD bytes, undefined otherwise: one lookup per byte. */
const BCD_PAIRS: (string | undefined)[] = Array.from({ length: 256 }, (_, byte) =>
  isBcdByte(byte) ? `${byte >> 4}${byte & 0x0f}` : undefined,
);

/**
 * Digits of an LSB-first BCD field, most significant first ("26 80 22 11" → "11228026").
 * Returns null when a nibble is not a decimal digit. `topMask` lets signed formats clear the
 * sign bit of the most significant byte before reading it.
 */
export function bcdDigits(bytes: Uint8Array, topMask = 0xff): string | null {
  let out = "";
  for (let i = bytes.length - 1; i >= 0; i--) {
    const pair = BCD_PAIRS[i === bytes.length - 1 ? bytes[i]! & topMask : bytes[i]!];
    if (pair === undefined) return null;
    out += pair;
  }
  return out;
}

/** Inverse of bcdDigits: "11228026" → 26 80 22 11. `digits.length` must be 2 × byteCount. */
export function digitsToBcd(digits: string, byteCount: number): Uint8Array {
  const out = new Uint8Array(byteCount);
  for (let i = 0; i < byteCount; i++) {
    const pairStart = digits.length - 2 * (i + 1);
    const high = digits.charCodeAt(pairStart) - 48;
    const low = digits.charCodeAt(pairStart + 1) - 48;
    out[i] = (high << 4) | low;
  }
  return out;
}

/** Every byte equals `fill` (used for the "not present" fills 0xFF and 0xEE). */
export function isFilledWith(bytes: Uint8Array, fill: number): boolean {
  if (bytes.length === 0) return false;
  for (const byte of bytes) if (byte !== fill) return false;
  return true;
}
