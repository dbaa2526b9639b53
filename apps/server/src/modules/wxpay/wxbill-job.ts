import { reconcileDay } from "./wxbill.service.ts";
import { chinaDay } from "./wxbill-compare.ts";
import type { WxpayDeps } from "./wxpay.service.ts";

/** WeChat Pay's bills of a day are ready from 10:00 the next day, Beijing time. */
export const BILL_READY_HOUR = 10;
/** A failed day is tried again after this long, at most this many times by the job. */
export const RETRY_AFTER_MS = 60 * 60_000;
export const MAX_ATTEMPTS = 6;

/**
 * The daily reconciliation: after 10:00 Beijing time, yesterday's bill of every tenant with an
 * enabled merchant, unless that day is already reconciled; a failed day again an hour later (up to
 * six tries; the operator's 对账 can always run it). Answers the tenants' days it reconciled.
 */
export async function reconcileYesterday(deps: WxpayDeps, now: Date = new Date()): Promise<number> {
  const beijingHour = new Date(now.getTime() + 8 * 3_600_000).getUTCHours();
  if (beijingHour < BILL_READY_HOUR) return 0;
  const day = chinaDay(new Date(now.getTime() - 24 * 3_600_000));
  const due = await deps.db.query<{ tenant_id: string }>(
    `select distinct c.tenant_id from pms_wx_config c
      where c.enabled = 1 and c.is_deleted = 0
        and not exists (
          select 1 from pms_wx_bill b
           where b.tenant_id = c.tenant_id and b.mchid = c.mch_id and b.bill_date = $1::date
             and (b.state <> 'failed' or b.attempts >= $2 or b.update_time > $3))`,
    [day, MAX_ATTEMPTS, new Date(now.getTime() - RETRY_AFTER_MS)],
  );
  let done = 0;
  for (const { tenant_id: tenantId } of due) {
    // A failure is recorded on the day's bill (state failed, its reason); the next run tries again.
    try {
      if (!(await reconcileDay(deps, tenantId, day)).failed) done++;
    } catch (error) {
      deps.log("wxpay bill job failed", { tenantId, day, error: String(error) });
    }
  }
  return done;
}
