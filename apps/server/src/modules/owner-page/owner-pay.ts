import { yuanToFen } from "@meterline/billing";
import { notFound } from "../../contract/errors.ts";
import type { Db } from "../../db/client.ts";
import { demoPayUrl } from "../wxpay/demo-cashier.ts";
import { storedMerchant, WXPAY_STATE } from "../wxpay/wxpay.repository.ts";
import { getOrder, type OrderView } from "../wxpay/wxpay.service.ts";
import { receiptOf } from "./owner-reads.ts";
import { OWNER_BASE } from "./owner-sign-in.routes.ts";

/** Where this server passes on the demo double's cashier page (see ownerPayRoutes). */
export const DEMO_CASHIER_PATH = `${OWNER_BASE}/demo/cashier`;

/** The amounts offered as buttons (yuan), within the tenant's limit. */
export const PRESET_YUAN = ["20", "50", "100", "200"] as const;

/** What the recharge form needs: whether WeChat Pay is on, the limit, the preset amounts. */
export function payOptions(limitFen: bigint | undefined) {
  if (limitFen === undefined) return { enabled: false, maxAmountFen: "0", presets: [] as string[] };
  return {
    enabled: true,
    maxAmountFen: limitFen.toString(),
    presets: PRESET_YUAN.filter((y) => BigInt(y) * 100n <= limitFen),
  };
}

/** The demo cashier link of an unpaid Native order whose merchant is the demo's double. */
export async function demoLinkOf(db: Db, tenantId: string, order: Pick<OrderView, "codeUrl" | "state">) {
  if (order.state !== WXPAY_STATE.unpaid || !order.codeUrl) return undefined;
  const merchant = await storedMerchant(db, tenantId);
  return merchant?.api_base ? demoPayUrl(merchant.api_base, order.codeUrl, DEMO_CASHIER_PATH) : undefined;
}

export type RestoreState = "queued" | "sent" | "success" | "fail" | "timeout";

/** The tables of owners' online orders, each with its out_trade_no and create_time. */
export type OrderTable = "pms_wx_pay" | "pms_alipay_pay";

/**
 * What the result page shows of an order's account: the balance, whether it is cut for arrears,
 * and the newest restore command of its meter since the order was taken (in `table`).
 */
export async function accountAfterOrder(
  db: Db,
  where: { tenantId: string; ownerId: string; accountId: string },
  order: { table: OrderTable; outTradeNo: string },
  timeZone: string,
) {
  const { tenantId, ownerId, accountId } = where;
  const [account] = await db.query<{
    balance: string;
    arrears_cut: number;
    energy_type: number;
    meter_id: string;
  }>(
    `select balance::text as balance, arrears_cut, energy_type, meter_id::text as meter_id
       from pms_account where tenant_id = $1 and owner_id = $2 and id = $3`,
    [tenantId, ownerId, accountId],
  );
  const [restore] = account
    ? await db.query<{ state: RestoreState; time: string }>(
        `select c.state, to_char(c.create_time at time zone $5, 'YYYY-MM-DD HH24:MI:SS') as time
           from pms_meter_command c
           join ${order.table} p on p.tenant_id = c.tenant_id and p.out_trade_no = $4
          where c.tenant_id = $1 and c.energy_type = $2 and c.meter_id = $3
            and c.source = 'arrears/restore' and c.create_time >= p.create_time
          order by c.create_time desc, c.id desc limit 1`,
        [tenantId, account.energy_type, account.meter_id, order.outTradeNo, timeZone],
      )
    : [];
  return {
    balanceFen: account?.balance ?? null,
    arrearsCut: account?.arrears_cut ?? 0,
    restore: restore ?? null,
  };
}

/**
 * An owner's order as the result page follows it: its state, and once booked the receipt and the
 * account's new balance; when the account was cut off for arrears, the newest restore command of
 * its meter since the order was taken. Another owner's order, or another tenant's, is not found.
 */
export async function followOrder(
  db: Db,
  tenantId: string,
  ownerId: string,
  outTradeNo: string,
  timeZone: string,
) {
  const order = await getOrder(db, tenantId, { outTradeNo, ownerId });
  if (!order) throw notFound("outTradeNo: 订单不存在");
  const booked = order.state === WXPAY_STATE.paid && order.rechargeId !== "";
  const account = await accountAfterOrder(
    db,
    { tenantId, ownerId, accountId: order.accountId },
    { table: "pms_wx_pay", outTradeNo },
    timeZone,
  );
  return {
    outTradeNo: order.outTradeNo,
    tradeType: order.tradeType,
    amountFen: yuanToFen(order.amount, "amount").toString(),
    amount: order.amount,
    state: order.state,
    expireTime: order.expireTime,
    paidTime: order.paidTime,
    booked,
    accountId: order.accountId,
    ...account,
    receipt: booked ? await receiptOf(db, tenantId, ownerId, order.rechargeId, timeZone) : null,
    codeUrl: order.state === WXPAY_STATE.unpaid ? order.codeUrl : "",
    demoPayUrl: (await demoLinkOf(db, tenantId, order)) ?? "",
  };
}
