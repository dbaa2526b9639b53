import { randomBytes } from "node:crypto";
import { badRequest } from "../../contract/errors.ts";
import type { CodePayTiming } from "../alipay/alipay-codepay.ts";
import { WECHAT_AUTH_CODE } from "../counter-pay/payment-code.ts";
import { closePaymentIn } from "../money/payment.service.ts";
import { lockOrder, setState, WXPAY_STATE } from "./wxpay.repository.ts";
import {
  type CreateOrderInput,
  getOrder,
  loadMerchant,
  type OrderView,
  openOrder,
  settleTransaction,
  type WxpayDeps,
  type WxTransaction,
} from "./wxpay.service.ts";
import { asApiError, callWxpay, type Merchant, WxpayCallError } from "./wxpay-client.ts";

/**
 * WeChat Pay's advice for a payment code: ask again every few seconds while the payer enters the
 * password, give up after about 30 s, and reverse no sooner than 15 s after the payment was sent.
 */
export const WECHAT_CODE_PAY_TIMING: CodePayTiming = { pollMs: 5_000, timeoutMs: 30_000 };

export type WechatCodeInput = Omit<CreateOrderInput, "channel" | "openid"> & { authCode: string };

/** The body of POST /v3/pay/transactions/codepay (APIv3 付款码支付), amounts in fen. */
export function codePayBody(
  merchant: Pick<Merchant, "appid" | "mchid" | "tenantId">,
  order: { outTradeNo: string; description: string; amountFen: bigint; authCode: string },
) {
  return {
    appid: merchant.appid,
    mchid: merchant.mchid,
    description: order.description,
    out_trade_no: order.outTradeNo,
    payer: { auth_code: order.authCode },
    amount: { total: Number(order.amountFen), currency: "CNY" },
    // The store is the tenant's counter; WeChat Pay requires a store id for a scanned code.
    scene_info: { store_info: { out_id: `counter-${merchant.tenantId}` } },
  };
}

/** Codes that leave the payment open: the payer is confirming, or WeChat Pay could not say. */
const STILL_OPEN = new Set(["USERPAYING", "SYSTEM_ERROR", "SYSTEMERROR", "BANK_ERROR", "BANKERROR"]);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A WeChat payment code scanned at the counter (APIv3 codepay). Paid at once books the recharge;
 * USERPAYING means the payer confirms on the phone: the order is queried until paid or the time is
 * up, then reversed (WeChat Pay closes it, or pays the money back if it was paid meanwhile). An
 * answer lost on the way is settled by a query, never by sending the code again. A code payment has
 * no notification: what the counter learns here, or the query job later, is all there is.
 */
export async function payWithWechatCode(
  deps: WxpayDeps,
  input: WechatCodeInput,
  timing: CodePayTiming = WECHAT_CODE_PAY_TIMING,
): Promise<OrderView> {
  const authCode = input.authCode.trim();
  if (!WECHAT_AUTH_CODE.test(authCode)) throw badRequest("authCode: 不是微信付款码");
  const merchant = await loadMerchant(deps.db, deps.cipher, input.tenantId);
  const outTradeNo = `MLM${Date.now()}${randomBytes(5).toString("hex").toUpperCase()}`;
  const { id, amount, description } = await openOrder(
    deps,
    merchant,
    { ...input, channel: "micropay" },
    outTradeNo,
  );
  let paid: WxTransaction | undefined;
  try {
    const { status, data } = await callWxpay<WxTransaction & { code?: string }>(
      merchant,
      "POST",
      "/v3/pay/transactions/codepay",
      codePayBody(merchant, { outTradeNo, description, amountFen: amount, authCode }),
    );
    if (status === 200 && data.trade_state === "SUCCESS") paid = data;
  } catch (error) {
    if (!(error instanceof WxpayCallError)) throw error;
    const refused = error.status >= 400 && error.status < 500 && !STILL_OPEN.has(error.code);
    if (refused) {
      // A bad or used code, too little money: nothing was paid and the order fails.
      await fail(deps, input.tenantId, id);
      throw asApiError(error);
    }
    // Unreachable, untrusted or a server error: it may have been paid. Follow it by query.
  }
  if (paid) await settle(deps, merchant, paid);
  else await follow(deps, merchant, outTradeNo, amount, timing);
  const view = await getOrder(deps.db, input.tenantId, { id });
  if (!view) throw new Error(`order ${id} vanished`);
  return view;
}

async function follow(
  deps: WxpayDeps,
  merchant: Merchant,
  outTradeNo: string,
  amount: bigint,
  timing: CodePayTiming,
) {
  const deadline = Date.now() + timing.timeoutMs;
  while (Date.now() < deadline) {
    await sleep(timing.pollMs);
    const trade = await queryTrade(merchant, outTradeNo);
    if (!trade) continue;
    if (["SUCCESS", "PAYERROR", "CLOSED", "REVOKED"].includes(trade.trade_state)) {
      await settle(deps, merchant, trade);
      return;
    }
  }
  // Time is up: reverse. WeChat Pay closes an unpaid order and pays back one paid meanwhile, so the
  // order is closed either way and nothing is booked. A failed reverse leaves the order unpaid for the
  // query job, which reverses it when it expires.
  const no = encodeURIComponent(outTradeNo);
  try {
    await callWxpay(merchant, "POST", `/v3/pay/transactions/out-trade-no/${no}/reverse`, {
      appid: merchant.appid,
      mchid: merchant.mchid,
    });
  } catch (error) {
    deps.log("wxpay reverse failed", { outTradeNo, error: String(error) });
    return;
  }
  await settle(deps, merchant, {
    appid: merchant.appid,
    mchid: merchant.mchid,
    out_trade_no: outTradeNo,
    trade_state: "REVOKED",
    amount: { total: Number(amount) },
  });
}

async function settle(deps: WxpayDeps, merchant: Merchant, trade: WxTransaction) {
  const outcome = await settleTransaction(deps, merchant, trade);
  if (!outcome.ok)
    deps.log("wxpay code payment refused", { outTradeNo: trade.out_trade_no, reason: outcome.reason });
}

async function queryTrade(merchant: Merchant, outTradeNo: string): Promise<WxTransaction | undefined> {
  try {
    const no = encodeURIComponent(outTradeNo);
    return (
      await callWxpay<WxTransaction>(
        merchant,
        "GET",
        `/v3/pay/transactions/out-trade-no/${no}?mchid=${merchant.mchid}`,
      )
    ).data;
  } catch (error) {
    // Not there yet (a lost request), or the network: ask again at the next turn.
    if (error instanceof WxpayCallError) return undefined;
    throw error;
  }
}

async function fail(deps: WxpayDeps, tenantId: string, id: string) {
  await deps.db.transaction(async (tx) => {
    const row = await lockOrder(tx, tenantId, id);
    if (row?.state !== WXPAY_STATE.unpaid) return;
    await setState(tx, id, WXPAY_STATE.failed);
    await closePaymentIn(tx, tenantId, row.payment_id);
  });
}
