import { createPrivateKey, createPublicKey, createSign, createVerify, type KeyObject } from "node:crypto";

/**
 * Alipay open platform (gateway.do), the protocol only (no I/O): RSA2 (SHA256withRSA) signing of
 * the sorted `key=value&...` string, verification of answers and asynchronous notifications with
 * Alipay's public key, the gateway's common parameters and yuan amounts. Node's crypto does RSA2
 * in a few lines; the official SDK (alipay-sdk) wraps the same calls around its own HTTP client and
 * adds nothing the server needs, so, as for WeChat Pay, no SDK sits between the keys and the wire.
 */
export const SIGN_TYPE = "RSA2";
export const CHARSET = "utf-8";
export const VERSION = "1.0";
export const GATEWAYS = {
  production: "https://openapi.alipay.com/gateway.do",
  sandbox: "https://openapi-sandbox.dl.alipaydev.com/gateway.do",
} as const;

export type Params = Record<string, string | undefined>;

/**
 * The text a signature covers: parameters sorted by name (ASCII), empty ones and `sign` left out
 * (and `sign_type` too for notifications), joined as `name=value` with `&`, values not encoded.
 */
export function signContent(params: Params, leaveOut: readonly string[] = ["sign"]): string {
  return Object.keys(params)
    .filter((name) => !leaveOut.includes(name) && params[name] !== undefined && params[name] !== "")
    .sort()
    .map((name) => `${name}=${params[name]}`)
    .join("&");
}

/** A key as Alipay's tools hand it out (bare base64) or as PEM; PKCS#8 or PKCS#1 private keys. */
export function privateKeyOf(key: string): KeyObject {
  if (key.includes("-----BEGIN")) return createPrivateKey(key);
  const der = Buffer.from(key.replace(/\s+/g, ""), "base64");
  try {
    return createPrivateKey({ key: der, format: "der", type: "pkcs8" });
  } catch {
    return createPrivateKey({ key: der, format: "der", type: "pkcs1" });
  }
}

export function publicKeyOf(key: string): KeyObject {
  if (key.includes("-----BEGIN")) return createPublicKey(key);
  return createPublicKey({
    key: Buffer.from(key.replace(/\s+/g, ""), "base64"),
    format: "der",
    type: "spki",
  });
}

export const rsa2Sign = (content: string, privateKey: string) =>
  createSign("RSA-SHA256").update(content, "utf8").sign(privateKeyOf(privateKey), "base64");

export function rsa2Verify(content: string, signature: string | undefined, publicKey: string): boolean {
  if (!signature) return false;
  try {
    return createVerify("RSA-SHA256")
      .update(content, "utf8")
      .verify(publicKeyOf(publicKey), signature, "base64");
  } catch {
    // An unreadable key or signature is simply not a valid signature.
    return false;
  }
}

/** `yyyy-MM-dd HH:mm:ss` in Asia/Shanghai (UTC+8 all year), the gateway's timestamp. */
export function shanghaiTime(at: Date = new Date()): string {
  const local = new Date(at.getTime() + 8 * 3600_000).toISOString();
  return `${local.slice(0, 10)} ${local.slice(11, 19)}`;
}

/** The instant of an Alipay time (`yyyy-MM-dd HH:mm:ss`, Asia/Shanghai), undefined if malformed. */
export function fromShanghaiTime(text: string | undefined): Date | undefined {
  const match = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})$/.exec(text ?? "");
  if (!match) return undefined;
  const at = new Date(`${match[1]}T${match[2]}+08:00`);
  return Number.isNaN(at.getTime()) ? undefined : at;
}

/** Whole fen as Alipay's yuan amount with two decimals (`total_amount`, `refund_amount`). */
export function yuan(fen: bigint): string {
  const sign = fen < 0n ? "-" : "";
  const abs = fen < 0n ? -fen : fen;
  return `${sign}${abs / 100n}.${String(abs % 100n).padStart(2, "0")}`;
}

/** A yuan amount as whole fen; undefined unless it is a plain decimal with at most two places. */
export function fen(amount: string | undefined): bigint | undefined {
  const match = /^(\d{1,12})(?:\.(\d{1,2}))?$/.exec(amount ?? "");
  if (!match) return undefined;
  return BigInt(match[1] as string) * 100n + BigInt((match[2] ?? "0").padEnd(2, "0"));
}

export interface AppCredentials {
  appId: string;
  /** The application's private key (RSA2048) that signs requests. */
  privateKey: string;
}

export interface GatewayRequest {
  method: string;
  bizContent: Record<string, unknown>;
  notifyUrl?: string;
  returnUrl?: string;
  timestamp?: Date;
}

/** The signed parameters of one gateway call (POSTed as a form, or put in a URL for page calls). */
export function signedRequest(app: AppCredentials, request: GatewayRequest): Record<string, string> {
  const params: Record<string, string> = {
    app_id: app.appId,
    method: request.method,
    format: "JSON",
    charset: CHARSET,
    sign_type: SIGN_TYPE,
    timestamp: shanghaiTime(request.timestamp),
    version: VERSION,
    biz_content: JSON.stringify(request.bizContent),
  };
  if (request.notifyUrl) params.notify_url = request.notifyUrl;
  if (request.returnUrl) params.return_url = request.returnUrl;
  params.sign = rsa2Sign(signContent(params), app.privateKey);
  return params;
}

export type RequestCheck =
  | { ok: true; method: string; bizContent: Record<string, unknown> }
  | { ok: false; code: string; reason: string };

/** What the gateway checks of a request (used by the double): app, sign type, signature, content. */
export function verifyRequest(params: Params, app: { appId: string; publicKey: string }): RequestCheck {
  if (params.app_id !== app.appId) return { ok: false, code: "isv.invalid-app-id", reason: "app_id" };
  if (params.sign_type !== SIGN_TYPE)
    return { ok: false, code: "isv.invalid-signature-type", reason: "sign_type" };
  if (!rsa2Verify(signContent(params), params.sign, app.publicKey)) {
    return { ok: false, code: "isv.invalid-signature", reason: "sign" };
  }
  try {
    const bizContent = JSON.parse(params.biz_content ?? "{}") as unknown;
    if (typeof bizContent !== "object" || bizContent === null || Array.isArray(bizContent)) throw new Error();
    return { ok: true, method: params.method ?? "", bizContent: bizContent as Record<string, unknown> };
  } catch {
    return { ok: false, code: "isv.invalid-biz-content", reason: "biz_content" };
  }
}

/** The name under which an answer comes: `alipay.trade.query` → `alipay_trade_query_response`. */
export const responseKey = (method: string) => `${method.replaceAll(".", "_")}_response`;

/**
 * The exact text of the value of `key` in a JSON object's text: Alipay signs those bytes as sent,
 * so they are cut out of the answer rather than re-serialised. Undefined when absent.
 */
export function rawMember(text: string, key: string): string | undefined {
  const needle = `"${key}"`;
  let at = text.indexOf(needle);
  while (at >= 0) {
    let i = at + needle.length;
    while (/\s/.test(text[i] ?? "")) i++;
    if (text[i] === ":") {
      i++;
      while (/\s/.test(text[i] ?? "")) i++;
      const end = valueEnd(text, i);
      return end === undefined ? undefined : text.slice(i, end);
    }
    at = text.indexOf(needle, at + 1);
  }
  return undefined;
}

/** Where a JSON object or string value starting at `start` ends (exclusive). */
function valueEnd(text: string, start: number): number | undefined {
  if (text[start] !== "{") return undefined;
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "{" || c === "[") depth++;
    else if (c === "}" || c === "]") {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return undefined;
}

/** What Alipay's side sends back for a method: the body signed over the answer object's text. */
export function signResponse(method: string, answer: object, alipayPrivateKey: string): string {
  const content = JSON.stringify(answer);
  return `{"${responseKey(method)}":${content},"sign":"${rsa2Sign(content, alipayPrivateKey)}"}`;
}

/** The gateway's unsigned answer when it cannot tell whose call it is (an unknown app id). */
export const errorResponse = (answer: object) => JSON.stringify({ error_response: answer });

export interface GatewayAnswer {
  code: string;
  msg: string;
  sub_code?: string;
  sub_msg?: string;
  [name: string]: unknown;
}

export type ResponseCheck =
  | { ok: true; answer: GatewayAnswer }
  | { ok: false; reason: "format" | "signature" };

/**
 * Reads and verifies a gateway answer: the `<method>_response` object's text must carry Alipay's
 * signature. An `error_response` (unknown app, for one) is unsigned and comes back as it is, since
 * the gateway could not know whose key to sign with; it only ever says "no".
 */
export function verifyResponse(text: string, method: string, alipayPublicKey: string): ResponseCheck {
  let parsed: { sign?: unknown };
  try {
    parsed = JSON.parse(text) as { sign?: unknown };
  } catch {
    return { ok: false, reason: "format" };
  }
  const raw = rawMember(text, responseKey(method));
  if (raw === undefined) {
    const error = rawMember(text, "error_response");
    if (error === undefined) return { ok: false, reason: "format" };
    const answer = JSON.parse(error) as GatewayAnswer;
    // A success must never be taken from an unsigned object.
    return answer.code === "10000" ? { ok: false, reason: "signature" } : { ok: true, answer };
  }
  const sign = typeof parsed.sign === "string" ? parsed.sign : undefined;
  if (!rsa2Verify(raw, sign, alipayPublicKey)) return { ok: false, reason: "signature" };
  return { ok: true, answer: JSON.parse(raw) as GatewayAnswer };
}

/** An asynchronous notification signed by Alipay's side (used by the double). */
export function signNotification(
  params: Record<string, string>,
  alipayPrivateKey: string,
): Record<string, string> {
  const body = { ...params, sign_type: SIGN_TYPE };
  return { ...body, sign: rsa2Sign(signContent(body, ["sign", "sign_type"]), alipayPrivateKey) };
}

export type NotificationCheck =
  | { ok: true }
  | { ok: false; reason: "sign_type" | "signature" | "app_id" | "amount" | "fields" };

/**
 * Whether an asynchronous notification is Alipay's for this application: sign type RSA2, the
 * signature over every field but `sign` and `sign_type`, and the app id the configured one.
 */
export function verifyNotification(
  params: Params,
  app: { appId: string; alipayPublicKey: string },
): NotificationCheck {
  if (params.sign_type !== SIGN_TYPE) return { ok: false, reason: "sign_type" };
  if (!rsa2Verify(signContent(params, ["sign", "sign_type"]), params.sign, app.alipayPublicKey)) {
    return { ok: false, reason: "signature" };
  }
  if (params.app_id !== app.appId) return { ok: false, reason: "app_id" };
  return { ok: true };
}

/** A verified notification of a trade, checked against the order it names (its amount in fen). */
export function checkTradeNotification(
  params: Params,
  app: { appId: string; alipayPublicKey: string },
  order: { outTradeNo: string; amountFen: bigint },
): NotificationCheck {
  const verified = verifyNotification(params, app);
  if (!verified.ok) return verified;
  if (params.out_trade_no !== order.outTradeNo || !params.trade_no) return { ok: false, reason: "fields" };
  if (fen(params.total_amount) !== order.amountFen) return { ok: false, reason: "amount" };
  return { ok: true };
}

/** A form body (application/x-www-form-urlencoded) as parameters; the last of a repeated name wins. */
export function formParams(body: string): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(body));
}

// The payment-code ranges live with the counter's code payment, which tells the channels apart.
export { ALIPAY_AUTH_CODE, paymentCodeChannel, WECHAT_AUTH_CODE } from "../counter-pay/payment-code.ts";
