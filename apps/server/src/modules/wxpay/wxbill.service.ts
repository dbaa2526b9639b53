import { ApiError } from "../../contract/errors.ts";
import type { Queryable } from "../../db/client.ts";
import { nextId } from "../../db/ids.ts";
import { type CounterRecharge, compareBill, type LocalOrder } from "./wxbill-compare.ts";
import { downloadTradeBill } from "./wxbill-download.ts";
import { DIFF_STATE_SQL } from "./wxbill-reads.ts";
import { loadMerchant, type WxpayDeps } from "./wxpay.service.ts";
import type { TradeBill } from "./wxpay-bill.ts";
import { type Merchant, WxpayCallError } from "./wxpay-client.ts";

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
 * The day's recharges the ledger records as paid by WeChat that no WeChat Pay order booked: PAYMENT_METHOD
 * 3 (微信, at the counter) and 5 (微信在线支付) whose payment is not an order's. Recharges only: refunds
 * and corrections (the reconciliation's own settlements among them) are not money that came in.
 */
async function counterRecharges(db: Queryable, tenantId: string, day: string) {
  return db.query<CounterRecharge>(
    `select r.id::text as id, r.receipt_no, r.amount::text as amount,
            to_char(r.create_time at time zone 'Asia/Shanghai', 'YYYY-MM-DD HH24:MI:SS') as booked_at
       from pms_recharge r
      where r.tenant_id = $1 and r.recharge_type = 1 and r.state = 1 and r.payment_method in (3, 5)
        and r.create_time >= ($2::date)::timestamp at time zone 'Asia/Shanghai'
        and r.create_time < ($2::date + 1)::timestamp at time zone 'Asia/Shanghai'
        and not exists (select 1 from pms_wx_pay w where w.payment_id = r.payment_id)
      order by r.create_time, r.id`,
    [tenantId, day],
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

/** Marks a day's run failed with why (a code the console words, and the message as it came). */
async function failDay(deps: WxpayDeps, billId: string, code: string, message: string) {
  await deps.db.query(
    "update pms_wx_bill set state = 'failed', error_code = $2, error = $3, update_time = now() where id = $1",
    [billId, code.slice(0, 32), message.slice(0, 255)],
  );
  return { billId, failed: true };
}

/** The day's bill a run wrote, and whether the run failed (its reason is on the bill). */
export interface ReconcileRun {
  billId: string;
  failed: boolean;
}

/** A merchant that cannot be loaded (none enabled, or its configuration incomplete) fails the day's run. */
const MERCHANT_FAILED = "MERCHANT";

/**
 * Reconciles a tenant's China day: downloads the bill (hash and totals checked), compares it with
 * the wxpay orders and the day's counter WeChat recharges, and stores the day's figures and
 * differences. Re-running replaces the open differences and keeps the settled ones. A run that
 * cannot be done (no usable merchant: stored under an empty merchant number) or a bill that cannot
 * be had or trusted marks the day failed with the reason and lists nothing; either way the day's
 * bill is answered, and only an unexpected error is thrown.
 */
export async function reconcileDay(
  deps: WxpayDeps,
  tenantId: string,
  day: string,
  merchant?: Merchant,
): Promise<ReconcileRun> {
  let m: Merchant;
  try {
    m = merchant ?? (await loadMerchant(deps.db, deps.cipher, tenantId));
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    const billId = await upsertBill(deps.db, tenantId, "", day);
    deps.log("wxpay bill failed", { tenantId, day, error: error.message });
    return failDay(deps, billId, MERCHANT_FAILED, error.message.replace(/^wxconfig: /, ""));
  }
  // A run without a merchant left its failure under no merchant number: this run of the day replaces it.
  await deps.db.query("delete from pms_wx_bill where tenant_id = $1 and bill_date = $2 and mchid = ''", [
    tenantId,
    day,
  ]);
  const billId = await upsertBill(deps.db, tenantId, m.mchid, day);
  let bill: TradeBill;
  try {
    bill = await downloadTradeBill(m, day);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    deps.log("wxpay bill failed", { tenantId, day, error: message });
    if (!(error instanceof WxpayCallError)) {
      await failDay(deps, billId, "ERROR", message);
      throw error;
    }
    return failDay(deps, billId, error.code, message);
  }
  const nos = [...new Set(bill.trades.map((t) => t.outTradeNo.slice(0, 32)))];
  await deps.db.transaction(async (tx) => {
    await tx.query("select id from pms_wx_bill where id = $1 for update", [billId]);
    const orders = await localOrders(tx, tenantId, m.mchid, day, nos);
    const counter = await counterRecharges(tx, tenantId, day);
    const diffs = compareBill(bill, m.mchid, orders, counter);
    await tx.query("delete from pms_wx_bill_diff where bill_id = $1 and state = 'open'", [billId]);
    for (const d of diffs) {
      await tx.query(
        `insert into pms_wx_bill_diff (id, tenant_id, bill_id, bill_date, kind, out_trade_no, transaction_id,
                                       wx_pay_id, wechat_amount, local_amount, trade_time, counter_recharge_id)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
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
          d.counterRechargeId,
        ],
      );
    }
    await confirmRefunds(tx, tenantId, bill);
    const paid = orders.filter((o) => o.in_day);
    const successes = bill.trades.filter((t) => t.tradeState === "SUCCESS");
    await tx.query(
      `update pms_wx_bill set trade_count = $2, success_count = $3, refund_count = $4, settlement_total = $5,
              refund_total = $6, local_count = $7, local_total = $8, counter_count = $9, counter_total = $10,
              downloaded_time = now(), error = '', error_code = ''
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
        counter.length,
        counter.reduce((sum, r) => sum + BigInt(r.amount), 0n).toString(),
      ],
    );
    await restate(tx, billId);
  });
  return { billId, failed: false };
}
