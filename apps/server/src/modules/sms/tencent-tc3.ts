import { createHash, createHmac } from "node:crypto";

/**
 * Tencent Cloud API 3.0 request signature, TC3-HMAC-SHA256, for a JSON POST (SendSms). Pure: the
 * timestamp is an input, so the vectors Tencent publishes can be replayed.
 */

export const TC3_ALGORITHM = "TC3-HMAC-SHA256";

export interface Tc3Request {
  /** The service name, first label of the host (sms for sms.tencentcloudapi.com). */
  service: string;
  host: string;
  /** Seconds since the epoch; its UTC date is part of the credential scope. */
  timestamp: number;
  payload: string;
  contentType?: string;
  method?: string;
  path?: string;
  query?: string;
}

const sha256Hex = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");
const hmac = (key: string | Buffer, text: string) => createHmac("sha256", key).update(text, "utf8").digest();

export const JSON_CONTENT_TYPE = "application/json; charset=utf-8";
export const SIGNED_HEADERS = "content-type;host";

/** The UTC calendar date of a timestamp, yyyy-mm-dd. */
export const utcDate = (timestamp: number) => new Date(timestamp * 1000).toISOString().slice(0, 10);

export const credentialScope = (timestamp: number, service: string) =>
  `${utcDate(timestamp)}/${service}/tc3_request`;

/** Method, path, query, the signed headers (lower case, trimmed) and the payload's hash. */
export function canonicalRequest(request: Tc3Request): string {
  const contentType = (request.contentType ?? JSON_CONTENT_TYPE).trim().toLowerCase();
  return [
    request.method ?? "POST",
    request.path ?? "/",
    request.query ?? "",
    `content-type:${contentType}\nhost:${request.host.trim().toLowerCase()}\n`,
    SIGNED_HEADERS,
    sha256Hex(request.payload),
  ].join("\n");
}

export function tc3StringToSign(request: Tc3Request): string {
  return [
    TC3_ALGORITHM,
    String(request.timestamp),
    credentialScope(request.timestamp, request.service),
    sha256Hex(canonicalRequest(request)),
  ].join("\n");
}

/** Hex HMAC-SHA256 of the string to sign under the key derived from date, service and "tc3_request". */
export function tc3Signature(request: Tc3Request, secretKey: string): string {
  const dateKey = hmac(`TC3${secretKey}`, utcDate(request.timestamp));
  const serviceKey = hmac(dateKey, request.service);
  const signingKey = hmac(serviceKey, "tc3_request");
  return createHmac("sha256", signingKey).update(tc3StringToSign(request), "utf8").digest("hex");
}

/** The Authorization header's value. */
export function tc3Authorization(request: Tc3Request, secretId: string, secretKey: string): string {
  return `${TC3_ALGORITHM} Credential=${secretId}/${credentialScope(request.timestamp, request.service)}, SignedHeaders=${SIGNED_HEADERS}, Signature=${tc3Signature(request, secretKey)}`;
}
