import { randomBytes } from "node:crypto";
import { badRequest } from "../../contract/errors.ts";
import { closePaymentIn } from "../money/payment.service.ts";
import { ALIPAY_STATE, lockAlipayOrder, setAlipayState } from "./alipay.repository.ts";
import {
  type AlipayDeps,
  type AlipayOrderInput,
  type AlipayTrade,
  getAlipayOrder,
  openAlipayOrder,
  settleAlipayTrade,
} from "./alipay.service.ts";
import { type AlipayApp, loadAlipayApp } from "./alipay-app.ts";
import { AlipayCallError, asApiError, callAlipay } from "./alipay-client.ts";
import { ALIPAY_AUTH_CODE, yuan } from "./alipay-protocol.ts";

/** How the counter follows a payment the owner must still confirm on the phone. */
export interface CodePayTiming {
  pollMs: number;
  timeoutMs: number;
}
/** Alipay's advice for face-to-face payment: ask every few seconds, give up (cancel) after 30 s. */
export const CODE_PAY_TIMING: CodePayTiming = { pollMs: 3_000, timeoutMs: 30_000 };

export type CodePayInput = Omit<AlipayOrderInput, "channel" | "returnUrl"> & { authCode: string };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A payment code scanned at the counter (alipay.trade.pay, scene bar_code). Paid at once (10000)
 * books the recharge; 10003 means the owner confirms on the phone: the trade is queried until paid
 * or the time is up, then cancelled (Alipay closes it, or refunds it if it was paid meanwhile). An
 * answer lost on the way is settled by a query, never by paying again.
 */
export async function payWithAlipayCode(deps: AlipayDeps, input: CodePayInput, timing = CODE_PAY_TIMING) {
  const authCode = input.authCode.trim();
  if (!ALIPAY_AUTH_CODE.test(authCode)) throw badRequest("authCode: 不是支付宝付款码");
  const app = await loadAlipayApp(deps.db, deps.cipher, input.tenantId);
  const outTradeNo = `MLA${Date.now()}${randomBytes(5).toString("hex").toUpperCase()}`;
  const { id, amount, subject } = await openAlipayOrder(deps, app, { ...input, channel: "code" }, outTradeNo);
  let answer: AlipayTrade & { code?: string };
  try {
    answer = await callAlipay(
      app,
      "alipay.trade.pay",
      {
        out_trade_no: outTradeNo,
        scene: "bar_code",
        auth_code: authCode,
        total_amount: yuan(amount),
        subject,
      },
      { notify: true },
    );
  } catch (error) {
    if (!(error instanceof AlipayCallError)) throw error;
    if (error.code === "40004" || error.code === "40002") {
      // Refused (a used code, no balance): nothing was paid, the order fails.
      await fail(deps, input.tenantId, id);
      throw asApiError(error);
    }
    // Unreachable or untrusted: it may have been paid. Follow it by query as a payment in progress.
    answer = { code: "10003" };
  }
  if (answer.code === "10000") {
    await settleAlipayTrade(deps, app, {
      ...answer,
      out_trade_no: outTradeNo,
      trade_status: "TRADE_SUCCESS",
    });
  } else {
    await follow(deps, app, outTradeNo, amount, timing);
  }
  const view = await getAlipayOrder(deps.db, input.tenantId, id);
  if (!view) throw new Error(`order ${id} vanished`);
  return view;
}

async function follow(
  deps: AlipayDeps,
  app: AlipayApp,
  outTradeNo: string,
  amount: bigint,
  timing: CodePayTiming,
) {
  const deadline = Date.now() + timing.timeoutMs;
  while (Date.now() < deadline) {
    await sleep(timing.pollMs);
    const trade = await queryTrade(app, outTradeNo);
    if (trade?.trade_status === "TRADE_SUCCESS" || trade?.trade_status === "TRADE_FINISHED") {
      await settleAlipayTrade(deps, app, { ...trade, out_trade_no: outTradeNo });
      return;
    }
    if (trade?.trade_status === "TRADE_CLOSED") break;
  }
  // Time is up: cancel. Alipay closes an unpaid trade and refunds one paid in the meantime, so the
  // order is closed either way and nothing is booked.
  const cancelled = await callAlipay(app, "alipay.trade.cancel", { out_trade_no: outTradeNo }).catch(
    (error: unknown) => {
      deps.log("alipay cancel failed", { outTradeNo, error: String(error) });
      return undefined;
    },
  );
  if (!cancelled) return;
  await settleAlipayTrade(deps, app, {
    out_trade_no: outTradeNo,
    trade_status: "TRADE_CLOSED",
    total_amount: yuan(amount),
  });
}

async function queryTrade(app: AlipayApp, outTradeNo: string): Promise<AlipayTrade | undefined> {
  try {
    return (await callAlipay(app, "alipay.trade.query", { out_trade_no: outTradeNo })) as AlipayTrade;
  } catch (error) {
    // Not there yet, or the network: ask again at the next turn.
    if (error instanceof AlipayCallError) return undefined;
    throw error;
  }
}

async function fail(deps: AlipayDeps, tenantId: string, id: string) {
  await deps.db.transaction(async (tx) => {
    const row = await lockAlipayOrder(tx, tenantId, id);
    if (row?.state !== ALIPAY_STATE.unpaid) return;
    await setAlipayState(tx, id, ALIPAY_STATE.failed);
    await closePaymentIn(tx, tenantId, row.payment_id);
  });
}
