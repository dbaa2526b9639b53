import { ApiError } from "../../contract/errors.ts";
import type { AlipayApp } from "./alipay-app.ts";
import { type GatewayAnswer, signedRequest, verifyResponse } from "./alipay-protocol.ts";

/** Alipay refused (its code and sub code), or could not be reached or trusted. */
export class AlipayCallError extends Error {
  constructor(
    readonly code: string,
    readonly subCode: string,
    message: string,
  ) {
    super(message);
    this.name = "AlipayCallError";
  }
}

/** For answers that reach the console: a business refusal is the caller's 400, anything else a 502. */
export const asApiError = (error: AlipayCallError) =>
  new ApiError(error.code === "40004" ? 400 : 502, `alipay: ${error.subCode || error.code} ${error.message}`);

/** Answers that carry a trade still in progress rather than a refusal (a code payment awaiting the owner). */
const IN_PROGRESS = new Set(["10000", "10003"]);

/**
 * Calls a gateway method as the tenant's application: parameters signed with its private key and
 * form-posted; the answer's signature checked with Alipay's public key before anything in it is
 * believed. `10000` (and `10003`, a payment the owner still confirms) come back; any other code throws.
 */
export async function callAlipay(
  app: AlipayApp,
  method: string,
  bizContent: Record<string, unknown>,
  options: { notify?: boolean } = {},
): Promise<GatewayAnswer> {
  const params = signedRequest(
    { appId: app.appId, privateKey: app.privateKey },
    { method, bizContent, ...(options.notify ? { notifyUrl: app.notifyUrl } : {}) },
  );
  let text: string;
  try {
    const res = await fetch(`${app.gateway}?charset=utf-8`, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded;charset=utf-8",
        "user-agent": "Meterline",
      },
      body: new URLSearchParams(params).toString(),
      signal: AbortSignal.timeout(10_000),
    });
    text = await res.text();
  } catch (error) {
    throw new AlipayCallError("NETWORK", "", `支付宝不可达: ${(error as Error).message}`);
  }
  const check = verifyResponse(text, method, app.alipayPublicKey);
  if (!check.ok) throw new AlipayCallError("ANSWER_NOT_TRUSTED", "", `支付宝应答验签失败 (${check.reason})`);
  const answer = check.answer;
  if (!IN_PROGRESS.has(answer.code)) {
    throw new AlipayCallError(answer.code, answer.sub_code ?? "", answer.sub_msg ?? answer.msg ?? "");
  }
  return answer;
}

/** The URL a phone browser opens for `alipay.trade.wap.pay`: every parameter signed, in the query. */
export function wapPayUrl(app: AlipayApp, bizContent: Record<string, unknown>, returnUrl: string): string {
  const params = signedRequest(
    { appId: app.appId, privateKey: app.privateKey },
    { method: "alipay.trade.wap.pay", bizContent, notifyUrl: app.notifyUrl, returnUrl },
  );
  return `${app.gateway}?${new URLSearchParams(params).toString()}`;
}
