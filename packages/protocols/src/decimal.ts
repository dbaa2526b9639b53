import { fail } from "./errors.ts";

/**
 * Exact decimals for money and energy: a value is a decimal string ("123.45") plus the
 * same amount as a scaled integer in the smallest unit (12345n fen for scale 2). Binary
 * floats never appear (issue 4: "never binary floats for money").
 */

/** Format a scaled integer: (12345n, 2) → "123.45", (-5n, 3) → "-0.005", (7n, 0) → "7". */
export function formatScaled(scaled: bigint, scale: number): string {
  const negative = scaled < 0n;
  const digits = (negative ? -scaled : scaled).toString().padStart(scale + 1, "0");
  const integerPart = digits.slice(0, digits.length - scale);
  const fraction = scale > 0 ? `.${digits.slice(digits.length - scale)}` : "";
  return `${negative ? "-" : ""}${integerPart}${fraction}`;
}

/**
 * Parse a decimal string into a scaled integer at `scale` decimals. Rejects (never rounds)
 * values with more decimals than the scale allows, so a price of "0.52345" cannot silently
 * become 0.5234 when written to a meter.
 */
export function parseScaled(text: string, scale: number): bigint {
  const match = /^([+-]?)(\d+)(?:\.(\d+))?$/.exec(text.trim());
  if (!match) fail("bad-argument", `"${text}" is not a decimal number`);
  const [, sign, whole, fraction = ""] = match;
  const trimmedFraction = fraction.replace(/0+$/, "");
  if (trimmedFraction.length > scale) {
    fail("bad-argument", `"${text}" has more than ${scale} decimal places`);
  }
  const scaled = BigInt(`${whole}${trimmedFraction.padEnd(scale, "0")}`);
  return sign === "-" ? -scaled : scaled;
}

/** Scaled integer from the digit string of a BCD field ("00112280" → 112280n). */
export function scaledFromDigits(digits: string, negative: boolean): bigint {
  // Up to 15 digits are exact in a double, and BigInt(number) is much faster than parsing text.
  const value = digits.length <= 15 ? BigInt(Number(digits)) : BigInt(digits === "" ? "0" : digits);
  return negative ? -value : value;
}

/** Decimal text straight from BCD digits: ("00112280", 2) → "1122.80"; same result as formatScaled. */
export function formatDigits(digits: string, scale: number, negative: boolean): string {
  const padded = digits.length > scale ? digits : digits.padStart(scale + 1, "0");
  let start = 0;
  while (start < padded.length - scale - 1 && padded.charCodeAt(start) === 48) start++;
  const integerPart = padded.slice(start, padded.length - scale);
  const text = scale > 0 ? `${integerPart}.${padded.slice(padded.length - scale)}` : integerPart;
  // "-0.00" is not a value a meter means: a set sign bit on zero stays "0.00".
  return negative && /[1-9]/.test(padded) ? `-${text}` : text;
}
