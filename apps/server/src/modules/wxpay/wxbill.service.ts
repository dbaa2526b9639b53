import { ApiError } from "../../contract/errors.ts";
import type { Queryable } from "../../db/client.ts";
import { nextId } from "../../db/ids.ts";
import type { BillChannel, ChannelMerchant, DayBill } from "./bill-channel.ts";
import { BILL_CHANNEL_OF } from "./bill-channels.ts";
import { type BillChannelName, compareBill } from "./wxbill-compare.ts";
import { DIFF_STATE_SQL } from "./wxbill-reads.ts";
import { wechatMerchant } from "./wxbill-wechat.ts";
import type { WxpayDeps } from "./wxpay.service.ts";
import type { Merchant } from "./wxpay-client.ts";

async function upsertBill(
  db: Queryable,
  tenantId: string,
  channel: BillChannelName,
  mchid: string,
  day: string,
): Promise<string> {
  const [row] = await db.query<{ id: string }>(
    `insert into pms_wx_bill (id, tenant_id, channel, mchid, bill_date, attempts) values ($1, $2, $3, $4, $5, 1)
     on conflict (tenant_id, channel, mchid, bill_date)
     do update set attempts = pms_wx_bill.attempts + 1, update_time = now()
     returning id::text as id`,
    [nextId(), tenantId, channel, mchid, day],
  );
  return (row as { id: string }).id;
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

/** WeChat Pay's day (the merchant when the caller has it loaded): reconcileChannelDay of WeChat Pay. */
export function reconcileDay(
  deps: WxpayDeps,
  tenantId: string,
  day: string,
  merchant?: Merchant,
): Promise<ReconcileRun> {
  return reconcileChannelDay(
    deps,
    BILL_CHANNEL_OF.wechat,
    tenantId,
    day,
    merchant && wechatMerchant(merchant),
  );
}

/**
 * Reconciles a tenant's China day of a channel: downloads the channel's bill (checked as the channel
 * checks it), compares it with the channel's orders and the day's counter recharges of its payment
 * methods, and stores the day's figures and differences. Re-running replaces the open differences and
 * keeps the settled ones. A run that cannot be done (no usable merchant: stored under an empty
 * merchant id) or a bill that cannot be had or trusted marks the day failed with the reason and lists
 * nothing; either way the day's bill is answered, and only an unexpected error is thrown.
 */
export async function reconcileChannelDay(
  deps: WxpayDeps,
  channel: BillChannel,
  tenantId: string,
  day: string,
  merchant?: ChannelMerchant,
): Promise<ReconcileRun> {
  const name = channel.name;
  let m: ChannelMerchant;
  try {
    m = merchant ?? (await channel.merchantOf(deps, tenantId));
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    const billId = await upsertBill(deps.db, tenantId, name, "", day);
    deps.log(`${name} bill failed`, { tenantId, day, error: error.message });
    return failDay(deps, billId, MERCHANT_FAILED, error.message.replace(/^\w+: /, ""));
  }
  // A run without a merchant left its failure under no merchant id: this run of the day replaces it.
  await deps.db.query(
    "delete from pms_wx_bill where tenant_id = $1 and channel = $2 and bill_date = $3 and mchid = ''",
    [tenantId, name, day],
  );
  const billId = await upsertBill(deps.db, tenantId, name, m.id, day);
  let bill: DayBill;
  try {
    bill = await m.download(day);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    deps.log(`${name} bill failed`, { tenantId, day, error: message });
    const failure = channel.failureOf(error);
    if (!failure) {
      await failDay(deps, billId, "ERROR", message);
      throw error;
    }
    return failDay(deps, billId, failure.code, failure.message);
  }
  const nos = [...new Set(bill.trades.map((t) => t.outTradeNo.slice(0, 32)))];
  await deps.db.transaction(async (tx) => {
    await tx.query("select id from pms_wx_bill where id = $1 for update", [billId]);
    const orders = await channel.localOrders(tx, tenantId, m.id, day, nos);
    const counter = await channel.counterRecharges(tx, tenantId, day);
    const diffs = compareBill(bill, m.id, orders, counter, channel.onlyKind);
    await tx.query("delete from pms_wx_bill_diff where bill_id = $1 and state = 'open'", [billId]);
    for (const d of diffs) {
      await tx.query(
        `insert into pms_wx_bill_diff (id, tenant_id, channel, bill_id, bill_date, kind, out_trade_no, transaction_id,
                                       wx_pay_id, wechat_amount, local_amount, trade_time, counter_recharge_id)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
         on conflict (bill_id, channel, kind, out_trade_no) do nothing`,
        [
          nextId(),
          tenantId,
          name,
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
    await bill.confirmRefunds(tx, tenantId);
    const paid = orders.filter((o) => o.in_day);
    const successes = bill.trades.filter((t) => t.tradeState === "SUCCESS");
    await tx.query(
      `update pms_wx_bill set trade_count = $2, success_count = $3, refund_count = $4, settlement_total = $5,
              refund_total = $6, local_count = $7, local_total = $8, counter_count = $9, counter_total = $10,
              downloaded_time = now(), error = '', error_code = ''
        where id = $1`,
      [
        billId,
        bill.count,
        successes.length,
        bill.trades.filter((t) => t.tradeState === "REFUND").length,
        successes.reduce((sum, t) => sum + t.orderFen, 0n).toString(),
        bill.refundFen.toString(),
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
