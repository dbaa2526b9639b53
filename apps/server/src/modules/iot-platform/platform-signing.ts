import { createHash, createHmac, timingSafeEqual } from "node:crypto";

/** The three operators' platforms an NB-IoT meter may report through. */
export const PLATFORMS = ["ctwing", "onenet", "iotda"] as const;
export type Platform = (typeof PLATFORMS)[number];
export const isPlatform = (value: unknown): value is Platform =>
  typeof value === "string" && (PLATFORMS as readonly string[]).includes(value);

/** Equal texts in constant time; false for different lengths. */
export function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a, "utf8");
  const right = Buffer.from(b, "utf8");
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * CTWing (AEP) signature of an API call and of a signed push: HMAC-SHA1 under the application's
 * secret over "application:<key>\n", "timestamp:<ms>\n", the query parameters sorted by name as
 * "name:value\n", then the body and "\n" when there is a body; Base64 (the AEP SDK's AepSign).
 */
export function ctwingSignature(input: {
  application: string;
  timestamp: string;
  secret: string;
  params?: Record<string, string>;
  body?: string;
}): string {
  let text = `application:${input.application}\ntimestamp:${input.timestamp}\n`;
  for (const name of Object.keys(input.params ?? {}).sort())
    text += `${name}:${input.params?.[name] ?? ""}\n`;
  if (input.body) text += `${input.body}\n`;
  return createHmac("sha1", input.secret).update(text, "utf8").digest("base64");
}

/**
 * OneNET push signature: Base64(MD5(token + nonce + msg)), msg being the text of the pushed
 * message; the same scheme signs the URL verification (msg, nonce, signature in the query).
 */
export function onenetSignature(token: string, nonce: string, msg: string): string {
  return createHash("md5").update(`${token}${nonce}${msg}`, "utf8").digest("base64");
}

/**
 * OneNET API token (the Authorization header): version, res, et and method, and the sign
 * Base64(HMAC-<method>(Base64-decoded access key, et\nmethod\nres\nversion)), each value URL-encoded.
 */
export function onenetApiToken(input: { res: string; accessKey: string; expiresAt: number }): string {
  const version = "2018-10-31";
  const method = "sha1";
  const et = String(Math.floor(input.expiresAt / 1000));
  const sign = createHmac(method, Buffer.from(input.accessKey, "base64"))
    .update(`${et}\n${method}\n${input.res}\n${version}`, "utf8")
    .digest("base64");
  return [
    `version=${version}`,
    `res=${encodeURIComponent(input.res)}`,
    `et=${et}`,
    `method=${method}`,
    `sign=${encodeURIComponent(sign)}`,
  ].join("&");
}

/** A OneNET API token's parts, for the double that checks it; undefined when malformed. */
export function parseOnenetToken(header: string): Record<string, string> | undefined {
  const parts: Record<string, string> = {};
  for (const pair of header.split("&")) {
    const at = pair.indexOf("=");
    if (at <= 0) return undefined;
    parts[pair.slice(0, at)] = decodeURIComponent(pair.slice(at + 1));
  }
  return parts.version && parts.res && parts.et && parts.method && parts.sign ? parts : undefined;
}
