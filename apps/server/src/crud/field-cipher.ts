import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

/**
 * Encryption of stored secrets (payment keys) with AES-256-GCM under a key derived from the
 * server's signing secret. The stored text keeps the last four characters in the clear so that
 * answers can show a mask without holding the key.
 */
const PREFIX = "enc:v1";
export const MASK = "****";

export class FieldCipher {
  private readonly key: Buffer;
  constructor(secret: string) {
    this.key = Buffer.from(hkdfSync("sha256", secret, "meterline", "stored field encryption", 32));
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

  /** The plain text, or undefined when the text was not written by this key (rotated secret). */
  decrypt(stored: string): string | undefined {
    const parts = stored.split(":");
    if (parts.length !== 6 || `${parts[0]}:${parts[1]}` !== PREFIX) return undefined;
    const [iv, tag, body] = parts.slice(2, 5).map((p) => Buffer.from(p, "base64url")) as [
      Buffer,
      Buffer,
      Buffer,
    ];
    try {
      const decipher = createDecipheriv("aes-256-gcm", this.key, iv);
      decipher.setAuthTag(tag);
      return Buffer.concat([decipher.update(body), decipher.final()]).toString("utf8");
    } catch {
      return undefined;
    }
  }
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
