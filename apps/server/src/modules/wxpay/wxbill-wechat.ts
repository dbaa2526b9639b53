import type { Queryable } from "../../db/client.ts";
import { type BillChannel, type ChannelMerchant, counterRechargesOf, localOrdersOf } from "./bill-channel.ts";
import { downloadTradeBill } from "./wxbill-download.ts";
import { loadMerchant, settleTransaction } from "./wxpay.service.ts";
import type { TradeBill } from "./wxpay-bill.ts";
import { type Merchant, WxpayCallError } from "./wxpay-client.ts";

/**
 * Refunds left PROCESSING (WeChat Pay unreachable when asked, or its result not yet known) that the
 * bill lists as refunded are SUCCESS: their ledger refund was booked when they were made, so only
 * the status and WeChat Pay's refund id are written here.
 */
async function confirmRefunds(tx: Queryable, tenantId: string, bill: TradeBill) {
  for (const trade of bill.trades) {
    if (trade.tradeState !== "REFUND" || !trade.outRefundNo || trade.refundStatus !== "SUCCESS") continue;
    await tx.query(
      `update pms_wx_refund set status = 'SUCCESS', refund_id = $3, update_time = now()
        where tenant_id = $1 and out_refund_no = $2 and status = 'PROCESSING' and amount = $4`,
      [tenantId, trade.outRefundNo.slice(0, 64), trade.refundId.slice(0, 32), trade.refundFen.toString()],
    );
  }
}

/** A loaded merchant as the reconciliation uses it: its trade bill, hash and totals checked. */
export const wechatMerchant = (merchant: Merchant): ChannelMerchant => ({
  id: merchant.mchid,
  download: async (day) => {
    const bill = await downloadTradeBill(merchant, day);
    return {
      trades: bill.trades,
      count: bill.totals.count,
      refundFen: bill.totals.refundFen,
      confirmRefunds: (tx, tenantId) => confirmRefunds(tx, tenantId, bill),
    };
  },
});

/** WeChat Pay's side of the daily reconciliation (issue 20): pms_wx_pay orders, PAYMENT_METHOD 3 and 5. */
export const WECHAT_BILL: BillChannel = {
  name: "wechat",
  onlyKind: "wechat_only",
  merchantOf: async (deps, tenantId) => wechatMerchant(await loadMerchant(deps.db, deps.cipher, tenantId)),
  failureOf: (error) =>
    error instanceof WxpayCallError ? { code: error.code, message: error.message } : undefined,
  localOrders: (db, tenantId, merchantId, day, nos) =>
    localOrdersOf(
      db,
      { table: "pms_wx_pay", merchant: "mchid", tradeNo: "transaction_id" },
      tenantId,
      merchantId,
      day,
      nos,
    ),
  // 3 微信 at the counter, and 5 微信在线支付 whose payment is not an order's.
  counterRecharges: (db, tenantId, day) => counterRechargesOf(db, tenantId, day, [3, 5], "pms_wx_pay"),
  lockOrderAccount: async (tx, tenantId, orderId) => {
    const [order] = await tx.query<{ account_id: string; energy_type: 1 | 2 }>(
      `select w.account_id::text as account_id, a.energy_type
         from pms_wx_pay w join pms_account a on a.id = w.account_id and a.tenant_id = w.tenant_id
        where w.id = $1 and w.tenant_id = $2 for update of w`,
      [orderId, tenantId],
    );
    return order;
  },
  bookOrder: async (deps, tenantId, request) => {
    const [order] = await deps.db.query<{ appid: string; mchid: string }>(
      "select appid, mchid from pms_wx_pay where id = $1 and tenant_id = $2",
      [request.orderId, tenantId],
    );
    if (!order) return { refused: "unknown order" };
    const merchant = await loadMerchant(deps.db, deps.cipher, tenantId);
    const outcome = await settleTransaction(deps, merchant, {
      appid: order.appid,
      mchid: order.mchid,
      out_trade_no: request.outTradeNo,
      transaction_id: request.transactionId,
      trade_state: "SUCCESS",
      amount: { total: Number(request.billFen) },
    });
    if (!outcome.ok) return { refused: outcome.reason };
    const [paid] = await deps.db.query<{ recharge_id: string | null }>(
      "select recharge_id::text as recharge_id from pms_wx_pay where id = $1",
      [request.orderId],
    );
    return { rechargeId: paid?.recharge_id ?? null };
  },
  orderPaymentMethod: 5,
  labels: { reverse: "微信对账冲正", correct: "微信对账调整" },
  keyPrefix: "wxbill",
};
