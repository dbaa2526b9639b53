import { ALIPAY_STATE } from "./alipay.repository.ts";
import { type AlipayDeps, queryAlipayOrder } from "./alipay.service.ts";

/** An unpaid order is asked about once it is this old: a notification that has not come by then is late or lost. */
export const SWEEP_AFTER_MS = 5 * 60_000;

/**
 * Asks Alipay (alipay.trade.query) about the tenant's unpaid orders older than SWEEP_AFTER_MS, oldest
 * first: a trade paid there is booked once (a lost notification), an expired one is closed. An order
 * Alipay cannot answer for now is left for the next sweep. Answers how many orders were asked about.
 */
export async function sweepAlipayOrders(
  deps: AlipayDeps,
  tenantId: string,
  now: Date = new Date(),
  limit = 200,
) {
  const due = await deps.db.query<{ id: string }>(
    `select id::text as id from pms_alipay_pay
      where tenant_id = $1 and state = $2 and create_time < $3
      order by create_time, id limit $4`,
    [tenantId, ALIPAY_STATE.unpaid, new Date(now.getTime() - SWEEP_AFTER_MS), limit],
  );
  for (const { id } of due) {
    try {
      await queryAlipayOrder(deps, tenantId, id, now);
    } catch (error) {
      deps.log("alipay sweep query failed", { tenantId, id, error: String(error) });
    }
  }
  return due.length;
}
