import { createHash, timingSafeEqual } from "node:crypto";

/**
 * OAuth client secrets are stored as `sha256$<hex>`. A fast hash suffices: production refuses
 * client secrets that are not long and random (see secret-strength.ts), so there is nothing to
 * brute-force. Rows without the prefix hold the plain secret (the embedded default's seed).
 */
const PREFIX = "sha256$";

export const hashClientSecret = (secret: string) =>
  `${PREFIX}${createHash("sha256").update(secret, "utf8").digest("hex")}`;

/** Compares in constant time, whether the stored value is hashed or plain. */
export function clientSecretMatches(stored: string, given: string): boolean {
  const x = Buffer.from(stored);
  const y = Buffer.from(stored.startsWith(PREFIX) ? hashClientSecret(given) : given);
  return x.length === y.length && timingSafeEqual(x, y);
}
