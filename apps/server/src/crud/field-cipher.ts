import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

/**
 * Encryption of stored secrets (payment keys, relay passwords, DTU registration secrets) with
 * AES-256-GCM under the data-encryption key (DATA_ENCRYPTION_KEY), kept apart from the token
 * signing secret so either can be rotated alone. Older keys (a previous data key, and the signing
 * secret that keyed stored values before the data key existed) still read what they wrote, so a
 * rotation loses nothing; `reencrypt` moves such values to the current key. The stored text keeps
 * the last four characters in the clear so that answers can show a mask without holding the key.
 */
const PREFIX = "enc:v1";
export const MASK = "****";

const deriveKey = (secret: string) =>
  Buffer.from(hkdfSync("sha256", secret, "meterline", "stored field encryption", 32));

export class FieldCipher {
  private readonly key: Buffer;
  private readonly older: Buffer[];

  /** `current` encrypts; `older` keys only decrypt (tried in order after the current one). */
  constructor(current: string, older: readonly string[] = []) {
    this.key = deriveKey(current);
    this.older = older.filter((secret) => secret && secret !== current).map(deriveKey);
  }

  encrypt(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", this.key, iv);
    const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
    const tail = Buffer.from(plain.slice(-4), "utf8").toString("base64url");
    return [
      PREFIX,
      iv.toString("base64url"),
      cipher.getAuthTag().toString("base64url"),
      body.toString("base64url"),
      tail,
    ].join(":");
  }

  /** The plain text, or undefined when no key this server holds wrote it. */
  decrypt(stored: string): string | undefined {
    return this.open(stored)?.plain;
  }

  /**
   * The same value under the current key when an older key wrote it; undefined when it is already
   * current, or when no key here can read it (it is then left as it is, never dropped).
   */
  reencrypt(stored: string): string | undefined {
    const opened = this.open(stored);
    return opened && !opened.current ? this.encrypt(opened.plain) : undefined;
  }

  private open(stored: string): { plain: string; current: boolean } | undefined {
    const parts = stored.split(":");
    if (parts.length !== 6 || `${parts[0]}:${parts[1]}` !== PREFIX) return undefined;
    const [iv, tag, body] = parts.slice(2, 5).map((p) => Buffer.from(p, "base64url")) as [
      Buffer,
      Buffer,
      Buffer,
    ];
    for (const key of [this.key, ...this.older]) {
      try {
        const decipher = createDecipheriv("aes-256-gcm", key, iv);
        decipher.setAuthTag(tag);
        const plain = Buffer.concat([decipher.update(body), decipher.final()]).toString("utf8");
        return { plain, current: key === this.key };
      } catch {
        // not this key: try the next
      }
    }
    return undefined;
  }
}

/** The cipher of a server's configuration: the data key, then the keys that wrote older values. */
export function fieldCipherOf(config: {
  dataKey: string;
  previousDataKeys?: readonly string[];
  jwtSecret?: string;
}): FieldCipher {
  return new FieldCipher(config.dataKey, [
    ...(config.previousDataKeys ?? []),
    // Before the data key existed, values were keyed from the signing secret.
    ...(config.jwtSecret ? [config.jwtSecret] : []),
  ]);
}

/** What answers show of an encrypted value: a mask and its last four characters. */
export function maskOf(stored: string): string {
  if (!stored) return "";
  const parts = stored.split(":");
  const tail = parts.length === 6 ? Buffer.from(parts[5]!, "base64url").toString("utf8") : "";
  return `${MASK}${tail}`;
}

/** A value the console sends back unchanged from a masked answer. */
export const isMask = (value: unknown) => typeof value === "string" && value.startsWith(MASK);
