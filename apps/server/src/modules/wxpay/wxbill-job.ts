import { sweepAlipayOrders } from "../alipay/alipay-sweep.ts";
import type { BillChannel } from "./bill-channel.ts";
import { BILL_CHANNEL_OF } from "./bill-channels.ts";
import { reconcileChannelDay } from "./wxbill.service.ts";
import { chinaDay } from "./wxbill-compare.ts";
import type { WxpayDeps } from "./wxpay.service.ts";

/** WeChat Pay's bills of a day are ready from 10:00 the next day, Beijing time (Alipay's earlier). */
export const BILL_READY_HOUR = 10;
/** A failed day is tried again after this long, at most this many times by the job. */
export const RETRY_AFTER_MS = 60 * 60_000;
export const MAX_ATTEMPTS = 6;

/**
 * The tenants whose enabled merchant at the channel has no reconciled `day` yet (or a failed one due
 * again). Each channel's configuration table names the merchant its bills are stored under.
 */
const DUE_SQL: Record<BillChannel["name"], string> = {
  wechat: `select distinct c.tenant_id from pms_wx_config c
            where c.enabled = 1 and c.is_deleted = 0
              and not exists (
                select 1 from pms_wx_bill b
                 where b.tenant_id = c.tenant_id and b.channel = 'wechat' and b.mchid = c.mch_id
                   and b.bill_date = $1::date
                   and (b.state <> 'failed' or b.attempts >= $2 or b.update_time > $3))`,
  alipay: `select distinct c.tenant_id from pms_alipay_config c
            where c.enabled = 1 and c.is_deleted = 0
              and not exists (
                select 1 from pms_wx_bill b
                 where b.tenant_id = c.tenant_id and b.channel = 'alipay' and b.mchid = c.app_id
                   and b.bill_date = $1::date
                   and (b.state <> 'failed' or b.attempts >= $2 or b.update_time > $3))`,
};

async function reconcileDue(deps: WxpayDeps, channel: BillChannel, day: string, now: Date) {
  const due = await deps.db.query<{ tenant_id: string }>(DUE_SQL[channel.name], [
    day,
    MAX_ATTEMPTS,
    new Date(now.getTime() - RETRY_AFTER_MS),
  ]);
  let done = 0;
  for (const { tenant_id: tenantId } of due) {
    // A failure is recorded on the day's bill (state failed, its reason); the next run tries again.
    try {
      if (!(await reconcileChannelDay(deps, channel, tenantId, day)).failed) done++;
    } catch (error) {
      deps.log(`${channel.name} bill job failed`, { tenantId, day, error: String(error) });
    }
  }
  return done;
}

/**
 * Every tenant with an enabled Alipay application has its unpaid Alipay orders asked about (a lost
 * notification booked, an expired order closed), at every run of the job: before a day is compared
 * its orders are as settled as they can be.
 */
async function sweepAlipayTenants(deps: WxpayDeps, now: Date) {
  const tenants = await deps.db.query<{ tenant_id: string }>(
    "select distinct tenant_id from pms_alipay_config where enabled = 1 and is_deleted = 0",
  );
  for (const { tenant_id: tenantId } of tenants) await sweepAlipayOrders(deps, tenantId, now);
}

/**
 * The daily reconciliation: after 10:00 Beijing time, yesterday's bill of every tenant with an
 * enabled WeChat Pay merchant, and of every tenant with an enabled Alipay application, unless that
 * day of that channel is already reconciled; a failed day again an hour later (up to six tries; the
 * operator's 对账 can always run it). Unpaid Alipay orders are swept first, at any hour
 * (sweepAlipayTenants). Answers the tenants' days it reconciled.
 */
export async function reconcileYesterday(deps: WxpayDeps, now: Date = new Date()): Promise<number> {
  await sweepAlipayTenants(deps, now);
  const beijingHour = new Date(now.getTime() + 8 * 3_600_000).getUTCHours();
  if (beijingHour < BILL_READY_HOUR) return 0;
  const day = chinaDay(new Date(now.getTime() - 24 * 3_600_000));
  let done = 0;
  for (const channel of [BILL_CHANNEL_OF.wechat, BILL_CHANNEL_OF.alipay])
    done += await reconcileDue(deps, channel, day, now);
  return done;
}
