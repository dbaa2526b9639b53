/**
 * Exact amounts as scaled integers, never binary floats. Each quantity has its own scale:
 * prices are yuan per kWh or m³ to 4 decimals, usage is kWh or m³ to 2 decimals (the meters'
 * registers), money is booked in whole fen. Usage × price is therefore exact in 10⁻⁶ yuan.
 */
export const PRICE_SCALE = 4;
export const USAGE_SCALE = 2;
export const MONEY_SCALE = 2;

/** 10⁻⁶ yuan: the unit in which usage × price is exact. */
export type Micro = bigint;
/** Whole fen (10⁻² yuan): the unit every ledger entry is booked in. */
export type Fen = bigint;

export class BillingInputError extends Error {
  constructor(
    readonly field: string,
    reason: string,
  ) {
    super(`${field}: ${reason}`);
  }
}

const DECIMAL = /^(-?)(\d{1,15})(?:\.(\d+))?$/;

/**
 * Whether `text` is 1–15 digits, a point and exactly `scale` digits (no sign, no spaces): the form
 * meters' registers come in, which parsers may take without a match (DECIMAL takes it too).
 */
export function isPlainDecimal(text: string, scale: number): boolean {
  const point = text.length - scale - 1;
  if (scale < 1 || point < 1 || point > 15 || text.charCodeAt(point) !== 46) return false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (i !== point && (code < 48 || code > 57)) return false;
  }
  return true;
}

/** "12.3" at scale 2 → 1230n. More decimals than the scale allow are refused, never rounded away. */
export function toUnits(text: string, scale: number, field = "value"): bigint {
  // The common form, digits with exactly `scale` decimals ("10001.00" at scale 2: every register of
  // every reading priced), is its digits without the point, read without a match.
  if (isPlainDecimal(text, scale)) {
    const point = text.length - scale - 1;
    return BigInt(text.slice(0, point) + text.slice(point + 1));
  }
  const match = DECIMAL.exec(text.trim());
  if (!match) throw new BillingInputError(field, `"${text}" is not a decimal`);
  const [, sign, whole, fraction = ""] = match;
  // Trailing zeros are not precision ("1.2300" is 123 at scale 2); only digits beyond them count.
  const significant = fraction.length > scale ? fraction.replace(/0+$/, "") : fraction;
  if (significant.length > scale)
    throw new BillingInputError(field, `"${text}" has more than ${scale} decimals`);
  // The digits with the point moved `scale` places right, parsed once (pricing parses every
  // register of every reading: one BigInt instead of two, a power and a product).
  const units = BigInt(whole! + significant.padEnd(scale, "0"));
  return sign === "-" ? -units : units;
}

/** 1230n at scale 2 → "12.30"; the inverse of toUnits. */
export function fromUnits(units: bigint, scale: number): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, "0");
  const point = digits.length - scale;
  const text = scale === 0 ? digits : `${digits.slice(0, point)}.${digits.slice(point)}`;
  return negative ? `-${text}` : text;
}

/**
 * numerator / denominator rounded half away from zero (0.5 fen → 1 fen, −0.5 → −1): the rounding
 * a cashier expects, symmetric so a refund of a charge rounds like the charge.
 */
export function divideRounded(numerator: bigint, denominator: bigint): bigint {
  if (denominator <= 0n) throw new RangeError("denominator must be positive");
  const negative = numerator < 0n;
  const magnitude = negative ? -numerator : numerator;
  const rounded = (magnitude * 2n + denominator) / (denominator * 2n);
  return negative ? -rounded : rounded;
}

/** Micro-yuan per fen. */
const MICRO_PER_FEN = 10n ** BigInt(USAGE_SCALE + PRICE_SCALE - MONEY_SCALE);

/** An exact cost in 10⁻⁶ yuan, rounded to the fen. */
export const microToFen = (micro: Micro): Fen => divideRounded(micro, MICRO_PER_FEN);

/** A yuan amount as typed by an operator ("50", "12.5") in fen; more than 2 decimals refused. */
export const yuanToFen = (text: string, field = "amount"): Fen => toUnits(text, MONEY_SCALE, field);

export const fenToYuan = (fen: Fen): string => fromUnits(fen, MONEY_SCALE);
