import type { Queryable } from "../../db/client.ts";
import { type BillChannel, counterRechargesOf, type DayBill, localOrdersOf } from "../wxpay/bill-channel.ts";
import type { BillLine } from "../wxpay/wxbill-compare.ts";
import { ALIPAY_PAYMENT_METHOD, settleAlipayTrade } from "./alipay.service.ts";
import type { AlipayApp } from "./alipay-app.ts";
import { loadAlipayApp } from "./alipay-app.ts";
import { type AlipayBillRow, downloadAlipayBill } from "./alipay-bill.ts";
import { AlipayCallError } from "./alipay-client.ts";
import { yuan } from "./alipay-protocol.ts";

/**
 * An Alipay detail row in the comparison's terms: a payment is a SUCCESS trade of what the merchant
 * received (商家实收), a refund a REFUND line (counted, not matched); the app id stands as the merchant.
 */
export const billLineOf = (appId: string, row: AlipayBillRow): BillLine => ({
  tradeState: row.kind === "payment" ? "SUCCESS" : "REFUND",
  mchid: appId,
  outTradeNo: row.outTradeNo,
  transactionId: row.tradeNo,
  orderFen: row.kind === "payment" ? row.receivedFen : 0n,
  tradeTime: row.finishTime,
});

/**
 * Refunds left PROCESSING (Alipay unreachable when asked, or its money not yet moved) that the bill
 * lists are done: their ledger refund was booked when they were made, so only the status changes.
 */
async function confirmRefunds(tx: Queryable, tenantId: string, rows: readonly AlipayBillRow[]) {
  for (const row of rows) {
    if (row.kind !== "refund" || !row.requestNo) continue;
    await tx.query(
      `update pms_alipay_refund set status = 'SUCCESS', update_time = now()
        where tenant_id = $1 and out_request_no = $2 and status = 'PROCESSING' and amount = $3`,
      [tenantId, row.requestNo.slice(0, 64), (-row.receivedFen).toString()],
    );
  }
}

/** Why a download failed, in the codes the day records (a business refusal by its sub code). */
const codeOf = (error: AlipayCallError) =>
  /^\d+$/.test(error.code) ? error.subCode || error.code : error.code;

/**
 * The application's trade bill of a day. Not there yet (Alipay writes it the next morning) fails the
 * run as BILL_NOT_READY, to be tried again; a detail line it cannot read fails it as BILL_FORMAT
 * rather than reconciling a day with a line unaccounted for.
 */
async function downloadDay(app: AlipayApp, day: string): Promise<DayBill> {
  let detail: Awaited<ReturnType<typeof downloadAlipayBill>>;
  try {
    detail = await downloadAlipayBill(app, day);
  } catch (error) {
    if (error instanceof AlipayCallError) throw error;
    // A zip that does not open is a file not to be trusted, not a fault of ours.
    throw new AlipayCallError("BILL_FORMAT", "", `支付宝账单无法解压: ${(error as Error).message}`);
  }
  if (!detail) throw new AlipayCallError("BILL_NOT_READY", "", `支付宝 ${day} 的账单尚未生成`);
  if (detail.unreadable.length > 0)
    throw new AlipayCallError("BILL_FORMAT", "", `支付宝账单有 ${detail.unreadable.length} 行无法识别`);
  const rows = detail.rows;
  return {
    trades: rows.map((row) => billLineOf(app.appId, row)),
    count: rows.length,
    refundFen: rows.filter((r) => r.kind === "refund").reduce((sum, r) => sum - r.receivedFen, 0n),
    confirmRefunds: (tx, tenantId) => confirmRefunds(tx, tenantId, rows),
  };
}

/** Alipay's side of the daily reconciliation: pms_alipay_pay orders, PAYMENT_METHOD 4 (支付宝). */
export const ALIPAY_BILL: BillChannel = {
  name: "alipay",
  onlyKind: "alipay_only",
  merchantOf: async (deps, tenantId) => {
    const app = await loadAlipayApp(deps.db, deps.cipher, tenantId);
    return { id: app.appId, download: (day) => downloadDay(app, day) };
  },
  failureOf: (error) =>
    error instanceof AlipayCallError ? { code: codeOf(error), message: error.message } : undefined,
  localOrders: (db, tenantId, merchantId, day, nos) =>
    localOrdersOf(
      db,
      { table: "pms_alipay_pay", merchant: "app_id", tradeNo: "trade_no" },
      tenantId,
      merchantId,
      day,
      nos,
    ),
  // 支付宝 is both the counter's method and the Alipay orders' (online and scanned codes): a counter
  // recharge is one whose payment no order made.
  counterRecharges: (db, tenantId, day) =>
    counterRechargesOf(db, tenantId, day, [ALIPAY_PAYMENT_METHOD], "pms_alipay_pay"),
  lockOrderAccount: async (tx, tenantId, orderId) => {
    const [order] = await tx.query<{ account_id: string; energy_type: 1 | 2 }>(
      `select account_id::text as account_id, energy_type from pms_alipay_pay
        where id = $1 and tenant_id = $2 for update`,
      [orderId, tenantId],
    );
    return order;
  },
  bookOrder: async (deps, tenantId, request) => {
    const app = await loadAlipayApp(deps.db, deps.cipher, tenantId);
    // What a TRADE_SUCCESS notification of the billed trade would say: booked once, amount checked.
    const outcome = await settleAlipayTrade(deps, app, {
      app_id: app.appId,
      out_trade_no: request.outTradeNo,
      trade_no: request.transactionId,
      trade_status: "TRADE_SUCCESS",
      total_amount: yuan(request.billFen),
      gmt_payment: request.tradeTime,
    });
    if (!outcome.ok) return { refused: outcome.reason };
    const [paid] = await deps.db.query<{ recharge_id: string | null }>(
      "select recharge_id::text as recharge_id from pms_alipay_pay where id = $1 and tenant_id = $2",
      [request.orderId, tenantId],
    );
    return { rechargeId: paid?.recharge_id ?? null };
  },
  orderPaymentMethod: ALIPAY_PAYMENT_METHOD,
  labels: { reverse: "支付宝对账冲正", correct: "支付宝对账调整" },
  keyPrefix: "alipaybill",
};
