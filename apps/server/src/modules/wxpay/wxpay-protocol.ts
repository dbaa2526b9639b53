import {
  createCipheriv,
  createDecipheriv,
  createSign,
  createVerify,
  randomBytes,
  X509Certificate,
} from "node:crypto";

/**
 * WeChat Pay API v3, the protocol only (no I/O): request signing `WECHATPAY2-SHA256-RSA2048`,
 * verification of signed answers and notifications, AEAD_AES_256_GCM resources and the JSAPI
 * pay-sign. Node's own crypto does each of these in a few lines, so no SDK sits between the
 * merchant keys and the wire: both SDKs looked at wrap exactly these calls around an HTTP client of
 * their own, and the double in wxpay-double.ts speaks the same functions from the other side.
 */
export const SCHEME = "WECHATPAY2-SHA256-RSA2048";
/** Answers and notifications older or newer than this are refused (replays, clocks far apart). */
export const MAX_CLOCK_SKEW_SECONDS = 300;

/** The text every v3 signature covers: each part followed by a line feed. */
export const signedMessage = (...parts: string[]) => parts.map((part) => `${part}\n`).join("");

export const rsaSign = (message: string, privateKeyPem: string) =>
  createSign("RSA-SHA256").update(message, "utf8").sign(privateKeyPem, "base64");

export function rsaVerify(message: string, signature: string, publicKeyPem: string): boolean {
  try {
    return createVerify("RSA-SHA256").update(message, "utf8").verify(publicKeyPem, signature, "base64");
  } catch {
    // An unreadable key or signature is simply not a valid signature.
    return false;
  }
}

export const newNonce = () => randomBytes(16).toString("hex").toUpperCase();
export const unixSeconds = (at: Date = new Date()) => Math.floor(at.getTime() / 1000);

export interface MerchantCredentials {
  mchid: string;
  /** Serial number of the merchant API certificate whose private key signs. */
  serialNo: string;
  privateKey: string;
}

export interface RequestToSign {
  method: string;
  /** Path and query as sent, e.g. `/v3/pay/transactions/out-trade-no/X?mchid=1`. */
  url: string;
  /** The exact body sent; "" for GET. */
  body: string;
  timestamp?: number;
  nonce?: string;
}

/** The Authorization header of a merchant's request. */
export function authorization(merchant: MerchantCredentials, request: RequestToSign): string {
  const timestamp = String(request.timestamp ?? unixSeconds());
  const nonce = request.nonce ?? newNonce();
  const signature = rsaSign(
    signedMessage(request.method.toUpperCase(), request.url, timestamp, nonce, request.body),
    merchant.privateKey,
  );
  return `${SCHEME} mchid="${merchant.mchid}",nonce_str="${nonce}",signature="${signature}",timestamp="${timestamp}",serial_no="${merchant.serialNo}"`;
}

export interface AuthorizationFields {
  mchid: string;
  nonce_str: string;
  signature: string;
  timestamp: string;
  serial_no: string;
}

/** The fields of an Authorization header, or undefined when it is not a well-formed v3 one. */
export function parseAuthorization(header: string | undefined): AuthorizationFields | undefined {
  if (!header?.startsWith(`${SCHEME} `)) return undefined;
  const fields: Record<string, string> = {};
  for (const match of header.slice(SCHEME.length + 1).matchAll(/(\w+)="([^"]*)"/g)) {
    fields[match[1] as string] = match[2] as string;
  }
  const names = ["mchid", "nonce_str", "signature", "timestamp", "serial_no"] as const;
  if (!names.every((name) => fields[name])) return undefined;
  return fields as unknown as AuthorizationFields;
}

/** Whether a merchant request carries a valid signature of `merchantPublicKey` (what WeChat Pay checks). */
export function verifyAuthorization(
  header: string | undefined,
  request: { method: string; url: string; body: string },
  merchantPublicKey: string,
  now: number = unixSeconds(),
): AuthorizationFields | undefined {
  const fields = parseAuthorization(header);
  if (!fields || !fresh(fields.timestamp, now)) return undefined;
  const message = signedMessage(
    request.method.toUpperCase(),
    request.url,
    fields.timestamp,
    fields.nonce_str,
    request.body,
  );
  return rsaVerify(message, fields.signature, merchantPublicKey) ? fields : undefined;
}

function fresh(timestamp: string, now: number): boolean {
  if (!/^\d{1,12}$/.test(timestamp)) return false;
  return Math.abs(now - Number(timestamp)) <= MAX_CLOCK_SKEW_SECONDS;
}

/** The four Wechatpay-* headers of a signed answer or notification. */
export interface WechatpayHeaders {
  signature: string;
  timestamp: string;
  nonce: string;
  serial: string;
}

/** Reads the Wechatpay-* headers from Node's lower-cased header object. */
export function wechatpayHeaders(headers: Record<string, string | string[] | undefined>): WechatpayHeaders {
  const one = (name: string) => {
    const value = headers[name];
    return (Array.isArray(value) ? value[0] : value) ?? "";
  };
  return {
    signature: one("wechatpay-signature"),
    timestamp: one("wechatpay-timestamp"),
    nonce: one("wechatpay-nonce"),
    serial: one("wechatpay-serial"),
  };
}

/** What WeChat Pay's side sends with a body: signed by the platform key (used by the double). */
export function signAnswer(
  body: string,
  platform: { serial: string; privateKey: string },
  at: { timestamp?: number; nonce?: string } = {},
): Record<string, string> {
  const timestamp = String(at.timestamp ?? unixSeconds());
  const nonce = at.nonce ?? newNonce();
  return {
    "Wechatpay-Signature": rsaSign(signedMessage(timestamp, nonce, body), platform.privateKey),
    "Wechatpay-Timestamp": timestamp,
    "Wechatpay-Nonce": nonce,
    "Wechatpay-Serial": platform.serial,
    "Wechatpay-Signature-Type": SCHEME,
  };
}

export type AnswerCheck = { ok: true } | { ok: false; reason: "serial" | "stale" | "signature" };

/**
 * Verifies a signed answer or notification against the platform public key: the serial must be
 * the configured one, the timestamp within five minutes, the signature over timestamp, nonce, body.
 */
export function verifyAnswer(
  headers: WechatpayHeaders,
  body: string,
  platform: { serial: string; publicKey: string },
  now: number = unixSeconds(),
): AnswerCheck {
  if (!headers.serial || headers.serial !== platform.serial) return { ok: false, reason: "serial" };
  if (!fresh(headers.timestamp, now)) return { ok: false, reason: "stale" };
  if (!headers.nonce || !headers.signature) return { ok: false, reason: "signature" };
  const message = signedMessage(headers.timestamp, headers.nonce, body);
  return rsaVerify(message, headers.signature, platform.publicKey)
    ? { ok: true }
    : { ok: false, reason: "signature" };
}

/** An encrypted notification resource as sent (resource of the notification body). */
export interface EncryptedResource {
  algorithm: "AEAD_AES_256_GCM";
  ciphertext: string;
  associated_data: string;
  nonce: string;
  original_type?: string;
}

const v3Key = (apiV3Key: string) => {
  const key = Buffer.from(apiV3Key, "utf8");
  if (key.length !== 32) throw new Error("the API v3 key must be 32 bytes");
  return key;
};

/** AEAD_AES_256_GCM: ciphertext is base64 of the encrypted bytes followed by the 16-byte tag. */
export function encryptResource(
  plaintext: string,
  apiV3Key: string,
  associatedData: string,
  nonce: string = randomBytes(6).toString("hex"),
): EncryptedResource {
  const cipher = createCipheriv("aes-256-gcm", v3Key(apiV3Key), Buffer.from(nonce, "utf8"));
  cipher.setAAD(Buffer.from(associatedData, "utf8"));
  const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final(), cipher.getAuthTag()]);
  return {
    algorithm: "AEAD_AES_256_GCM",
    ciphertext: body.toString("base64"),
    associated_data: associatedData,
    nonce,
  };
}

/** The plaintext of a resource, or undefined when it does not decrypt (wrong key, altered bytes). */
export function decryptResource(resource: EncryptedResource, apiV3Key: string): string | undefined {
  try {
    if (resource.algorithm !== "AEAD_AES_256_GCM") return undefined;
    const bytes = Buffer.from(resource.ciphertext, "base64");
    if (bytes.length < 16) return undefined;
    const decipher = createDecipheriv("aes-256-gcm", v3Key(apiV3Key), Buffer.from(resource.nonce, "utf8"));
    decipher.setAAD(Buffer.from(resource.associated_data ?? "", "utf8"));
    decipher.setAuthTag(bytes.subarray(bytes.length - 16));
    return Buffer.concat([decipher.update(bytes.subarray(0, bytes.length - 16)), decipher.final()]).toString(
      "utf8",
    );
  } catch {
    return undefined;
  }
}

/** The parameters the owner's page hands to WeixinJSBridge getBrandWCPayRequest for a JSAPI order. */
export interface JsapiPayParams {
  appId: string;
  timeStamp: string;
  nonceStr: string;
  package: string;
  signType: "RSA";
  paySign: string;
}

export function jsapiPayParams(
  appId: string,
  prepayId: string,
  privateKey: string,
  at: { timestamp?: number; nonce?: string } = {},
): JsapiPayParams {
  const timeStamp = String(at.timestamp ?? unixSeconds());
  const nonceStr = at.nonce ?? newNonce();
  const pkg = `prepay_id=${prepayId}`;
  return {
    appId,
    timeStamp,
    nonceStr,
    package: pkg,
    signType: "RSA",
    paySign: rsaSign(signedMessage(appId, timeStamp, nonceStr, pkg), privateKey),
  };
}

/** Whether a JSAPI pay-sign is the merchant's (what the WeChat client checks). */
export const verifyPaySign = (params: JsapiPayParams, merchantPublicKey: string) =>
  rsaVerify(
    signedMessage(params.appId, params.timeStamp, params.nonceStr, params.package),
    params.paySign,
    merchantPublicKey,
  );

/** The public key of a PEM key or of a PEM certificate (WeChat Pay hands out either). */
export function publicKeyPem(keyOrCertificate: string): string {
  if (!keyOrCertificate.includes("BEGIN CERTIFICATE")) return keyOrCertificate;
  return new X509Certificate(keyOrCertificate).publicKey.export({ type: "spki", format: "pem" }).toString();
}
