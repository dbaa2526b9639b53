import { createHmac } from "node:crypto";

/**
 * Aliyun's RPC-style request signature (signature version 1.0, HMAC-SHA1), as the SMS API
 * (dysmsapi SendSms) checks it. Pure: no clock, no randomness, so it can be tested with the
 * vectors Aliyun publishes.
 */

/**
 * Aliyun's percent-encoding: RFC 3986 unreserved characters (A-Z a-z 0-9 - _ . ~) stay, every
 * other UTF-8 byte becomes %XX in upper case. encodeURIComponent leaves ! ' ( ) * alone, so those
 * are encoded here by hand.
 */
export function percentEncode(value: string): string {
  return encodeURIComponent(value).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

/** Parameters sorted by name (code unit order, as Aliyun sorts), encoded and joined with &. */
export function canonicalQuery(params: Readonly<Record<string, string>>): string {
  return Object.keys(params)
    .filter((name) => name !== "Signature")
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    .map((name) => `${percentEncode(name)}=${percentEncode(params[name] as string)}`)
    .join("&");
}

/** METHOD & encoded "/" & the encoded canonical query. */
export function stringToSign(method: string, params: Readonly<Record<string, string>>): string {
  return `${method.toUpperCase()}&${percentEncode("/")}&${percentEncode(canonicalQuery(params))}`;
}

/** Base64 HMAC-SHA1 of the string to sign, keyed with the secret followed by "&". */
export function aliyunSignature(
  method: string,
  params: Readonly<Record<string, string>>,
  accessKeySecret: string,
): string {
  return createHmac("sha1", `${accessKeySecret}&`)
    .update(stringToSign(method, params), "utf8")
    .digest("base64");
}
