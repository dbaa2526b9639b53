import { ApiError } from "../../contract/errors.ts";
import { authorization, publicKeyPem, verifyAnswer, wechatpayHeaders } from "./wxpay-protocol.ts";

/** A tenant's merchant, with its secrets decrypted (never leaves the server). */
export interface Merchant {
  tenantId: string;
  appid: string;
  mchid: string;
  serialNo: string;
  privateKey: string;
  apiV3Key: string;
  platformSerial: string;
  platformPublicKey: string;
  apiBase: string;
  notifyUrl: string;
  /** The tenant's limit of one payment, in fen. */
  maxAmountFen: bigint;
}

/** WeChat Pay answered with an error (its code and message), or could not be reached or trusted. */
export class WxpayCallError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "WxpayCallError";
  }
}

/** For answers that reach the console: a WeChat Pay refusal is the caller's 400, anything else a 502. */
export const asApiError = (error: WxpayCallError) =>
  new ApiError(
    error.status >= 400 && error.status < 500 ? 400 : 502,
    `wxpay: ${error.code} ${error.message}`,
  );

/**
 * Calls WeChat Pay API v3 (or its double) as the merchant: the request signed, the answer's
 * signature verified against the platform key before anything in it is believed.
 */
export async function callWxpay<T>(
  merchant: Merchant,
  method: "GET" | "POST",
  url: string,
  payload?: unknown,
): Promise<{ status: number; data: T }> {
  const body = payload === undefined ? "" : JSON.stringify(payload);
  const headers: Record<string, string> = {
    accept: "application/json",
    "user-agent": "Meterline",
    authorization: authorization(
      { mchid: merchant.mchid, serialNo: merchant.serialNo, privateKey: merchant.privateKey },
      { method, url, body },
    ),
  };
  if (body) headers["content-type"] = "application/json";
  let res: Response;
  try {
    res = await fetch(new URL(url, merchant.apiBase), {
      method,
      headers,
      ...(body ? { body } : {}),
      signal: AbortSignal.timeout(10_000),
    });
  } catch (error) {
    throw new WxpayCallError(0, "NETWORK", `微信支付不可达: ${(error as Error).message}`);
  }
  const text = await res.text();
  const check = verifyAnswer(wechatpayHeaders(Object.fromEntries(res.headers)), text, {
    serial: merchant.platformSerial,
    publicKey: publicKeyPem(merchant.platformPublicKey),
  });
  if (!check.ok) throw new WxpayCallError(0, "ANSWER_NOT_TRUSTED", `微信支付应答验签失败 (${check.reason})`);
  const data = (text ? JSON.parse(text) : {}) as T & { code?: string; message?: string };
  if (res.status >= 300) throw new WxpayCallError(res.status, data.code ?? "ERROR", data.message ?? "");
  return { status: res.status, data };
}
