import type { Queryable } from "../../db/client.ts";
import { nextId } from "../../db/ids.ts";
import { compareBill, type LocalOrder } from "./wxbill-compare.ts";
import { downloadTradeBill } from "./wxbill-download.ts";
import { DIFF_STATE_SQL } from "./wxbill-reads.ts";
import { loadMerchant, type WxpayDeps } from "./wxpay.service.ts";
import type { TradeBill } from "./wxpay-bill.ts";
import { asApiError, type Merchant, WxpayCallError } from "./wxpay-client.ts";

async function upsertBill(db: Queryable, tenantId: string, mchid: string, day: string): Promise<string> {
  const [row] = await db.query<{ id: string }>(
    `insert into pms_wx_bill (id, tenant_id, mchid, bill_date, attempts) values ($1, $2, $3, $4, 1)
     on conflict (tenant_id, mchid, bill_date)
     do update set attempts = pms_wx_bill.attempts + 1, update_time = now()
     returning id::text as id`,
    [nextId(), tenantId, mchid, day],
  );
  return (row as { id: string }).id;
}

async function localOrders(db: Queryable, tenantId: string, mchid: string, day: string, nos: string[]) {
  return db.query<LocalOrder>(
    `select id::text as id, out_trade_no, amount::text as amount, state, transaction_id, paid_time,
            (state = 1 and paid_time >= ($3::date)::timestamp at time zone 'Asia/Shanghai'
              and paid_time < ($3::date + 1)::timestamp at time zone 'Asia/Shanghai') as in_day
       from pms_wx_pay
      where tenant_id = $1 and mchid = $2
        and (out_trade_no = any($4::varchar[])
             or (state = 1 and paid_time >= ($3::date)::timestamp at time zone 'Asia/Shanghai'
                 and paid_time < ($3::date + 1)::timestamp at time zone 'Asia/Shanghai'))`,
    [tenantId, mchid, day, nos],
  );
}

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

/** Recounts a bill's open differences and its state from them. */
export async function restate(tx: Queryable, billId: string) {
  await tx.query(
    `update pms_wx_bill b set open_count = d.n,
            state = case when d.n > 0 then 'differences' else 'balanced' end, update_time = now()
       from (select count(*)::int as n from pms_wx_bill_diff
              where bill_id = $1 and ${DIFF_STATE_SQL} <> 'settled') d
      where b.id = $1`,
    [billId],
  );
}

/**
 * Reconciles a tenant's China day: downloads the bill (hash and totals checked), compares it with
 * the wxpay orders, and stores the day's figures and differences. Re-running replaces the open
 * differences and keeps the settled ones. A bill that cannot be had or trusted marks the day failed
 * (with the reason) and lists nothing; the caller gets the error.
 */
export async function reconcileDay(deps: WxpayDeps, tenantId: string, day: string, merchant?: Merchant) {
  const m = merchant ?? (await loadMerchant(deps.db, deps.cipher, tenantId));
  const billId = await upsertBill(deps.db, tenantId, m.mchid, day);
  let bill: TradeBill;
  try {
    bill = await downloadTradeBill(m, day);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    await deps.db.query(
      "update pms_wx_bill set state = 'failed', error = $2, update_time = now() where id = $1",
      [billId, message.slice(0, 255)],
    );
    deps.log("wxpay bill failed", { tenantId, day, error: message });
    if (error instanceof WxpayCallError) throw asApiError(error);
    throw error;
  }
  const nos = [...new Set(bill.trades.map((t) => t.outTradeNo.slice(0, 32)))];
  await deps.db.transaction(async (tx) => {
    await tx.query("select id from pms_wx_bill where id = $1 for update", [billId]);
    const orders = await localOrders(tx, tenantId, m.mchid, day, nos);
    const diffs = compareBill(bill, m.mchid, orders);
    await tx.query("delete from pms_wx_bill_diff where bill_id = $1 and state = 'open'", [billId]);
    for (const d of diffs) {
      await tx.query(
        `insert into pms_wx_bill_diff (id, tenant_id, bill_id, bill_date, kind, out_trade_no, transaction_id,
                                       wx_pay_id, wechat_amount, local_amount, trade_time)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
         on conflict (bill_id, kind, out_trade_no) do nothing`,
        [
          nextId(),
          tenantId,
          billId,
          day,
          d.kind,
          d.outTradeNo,
          d.transactionId,
          d.wxPayId,
          d.wechatFen?.toString() ?? null,
          d.localFen?.toString() ?? null,
          d.tradeTime,
        ],
      );
    }
    await confirmRefunds(tx, tenantId, bill);
    const paid = orders.filter((o) => o.in_day);
    const successes = bill.trades.filter((t) => t.tradeState === "SUCCESS");
    await tx.query(
      `update pms_wx_bill set trade_count = $2, success_count = $3, refund_count = $4, settlement_total = $5,
              refund_total = $6, local_count = $7, local_total = $8, downloaded_time = now(), error = ''
        where id = $1`,
      [
        billId,
        bill.totals.count,
        successes.length,
        bill.trades.filter((t) => t.tradeState === "REFUND").length,
        successes.reduce((sum, t) => sum + t.orderFen, 0n).toString(),
        bill.totals.refundFen.toString(),
        paid.length,
        paid.reduce((sum, o) => sum + BigInt(o.amount), 0n).toString(),
      ],
    );
    await restate(tx, billId);
  });
  return billId;
}
