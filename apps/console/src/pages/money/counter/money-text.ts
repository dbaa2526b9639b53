/**
 * Money as the counter types and shows it: yuan text with at most two decimals, held as whole fen
 * (bigint) so no floating point ever touches an amount.
 */

/** The server's bound on one operation (a typo of three zeros is caught, not booked). */
export const MAX_AMOUNT_FEN = 100_000_000n;

export type AmountProblem = "empty" | "format" | "precision" | "zero" | "tooLarge";

const YUAN = /^-?\d+(\.\d+)?$/;

/** Yuan text ("12", "12.5", "-0.30") to fen; undefined when it is not a number with ≤ 2 decimals. */
export function yuanToFen(text: string): bigint | undefined {
  const trimmed = text.trim();
  if (!YUAN.test(trimmed)) return undefined;
  const negative = trimmed.startsWith("-");
  const [whole = "0", fraction = ""] = trimmed.replace("-", "").split(".");
  if (fraction.length > 2) return undefined;
  const fen = BigInt(whole) * 100n + BigInt(fraction.padEnd(2, "0") || "0");
  return negative ? -fen : fen;
}

/** Fen to yuan text with two decimals: 12345n → "123.45", -5n → "-0.05". */
export function fenToYuan(fen: bigint): string {
  const negative = fen < 0n;
  const digits = (negative ? -fen : fen).toString().padStart(3, "0");
  return `${negative ? "-" : ""}${digits.slice(0, -2)}.${digits.slice(-2)}`;
}

/** What is wrong with an amount typed at the counter, or undefined when it can be sent. */
export function amountProblem(text: string): AmountProblem | undefined {
  const trimmed = text.trim();
  if (trimmed === "") return "empty";
  if (!/^\d+(\.\d+)?$/.test(trimmed)) return "format";
  const fen = yuanToFen(trimmed);
  if (fen === undefined) return "precision";
  if (fen <= 0n) return "zero";
  if (fen > MAX_AMOUNT_FEN) return "tooLarge";
  return undefined;
}

/** The exact sum of two-place decimal texts (yuan, kWh, m³); texts that are not such numbers count as zero. */
export function sumTwoPlaces(values: readonly string[]): string {
  return fenToYuan(values.reduce((sum, value) => sum + (yuanToFen(value) ?? 0n), 0n));
}
