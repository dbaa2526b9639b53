import { createHash, randomBytes, scrypt, timingSafeEqual } from "node:crypto";
import { promisify } from "node:util";

const scryptAsync = promisify(scrypt) as (
  password: string,
  salt: Buffer,
  keylen: number,
  options: { N: number; r: number; p: number; maxmem: number },
) => Promise<Buffer>;

// Interactive-login cost: ~50 ms and 16 MiB per hash on one core of the target machine.
const COST = { N: 16384, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };
const KEY_LENGTH = 32;

/** The console sends md5 hex of the password (contract §5.2); other clients may send the plain text. */
export const md5Hex = (plain: string) => createHash("md5").update(plain, "utf8").digest("hex");

/**
 * Stores a salted scrypt of the md5 hex the console sends. The md5 step is the wire format, not the
 * protection: the stored value is slow to brute-force and salted per user.
 */
export async function hashPassword(md5: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scryptAsync(md5.toLowerCase(), salt, KEY_LENGTH, COST);
  return `scrypt$${COST.N}$${COST.r}$${COST.p}$${salt.toString("base64")}$${key.toString("base64")}`;
}

export async function verifyPassword(md5: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, key] = stored.split("$");
  if (scheme !== "scrypt" || !salt || !key) return false;
  const expected = Buffer.from(key, "base64");
  const actual = await scryptAsync(md5.toLowerCase(), Buffer.from(salt, "base64"), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: COST.maxmem,
  });
  return timingSafeEqual(actual, expected);
}

/** A password field from the console is md5 hex already; anything else is treated as plain text. */
export const asMd5 = (value: string) => (/^[0-9a-f]{32}$/i.test(value) ? value.toLowerCase() : md5Hex(value));

/** The one place sign-in checks a password, so that tests can watch which hashes get checked. */
export const passwordVerifier = { verify: verifyPassword };
