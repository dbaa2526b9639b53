import type { Db, Queryable } from "../../db/client.ts";
import type {
  BillChannelName,
  BillLine,
  ChannelOnlyKind,
  CounterRecharge,
  LocalOrder,
} from "./wxbill-compare.ts";
import type { WxpayDeps } from "./wxpay.service.ts";

/**
 * A day's bill of one channel, read and checked by the channel: its lines in the comparison's terms,
 * its figures, and what the channel learns from it beyond the comparison (refunds it confirms).
 */
export interface DayBill {
  trades: BillLine[];
  /** Lines of the bill, payments and refunds. */
  count: number;
  /** Refunded on the day, whole fen. */
  refundFen: bigint;
  /** Refunds left PROCESSING here that the bill lists as done are marked so (no money moves). */
  confirmRefunds(tx: Queryable, tenantId: string): Promise<void>;
}

/** The tenant's merchant at a channel, able to fetch its bill. */
export interface ChannelMerchant {
  /** The id the channel's bills carry: WeChat Pay's merchant number, Alipay's app id. */
  id: string;
  download(day: string): Promise<DayBill>;
}

/** What a settlement reads of a difference to book the channel's order. */
export interface BookRequest {
  orderId: string;
  outTradeNo: string;
  transactionId: string;
  /** The amount the bill has, whole fen. */
  billFen: bigint;
  /** When the bill says it was paid (Beijing time, YYYY-MM-DD HH:MM:SS). */
  tradeTime: string;
}

/**
 * What differs between WeChat Pay and Alipay in the daily reconciliation; the comparison, the stored
 * bills and differences, the settlements' rules and money are the same for both (wxbill.service.ts,
 * wxbill-settle.ts).
 */
export interface BillChannel {
  name: BillChannelName;
  onlyKind: ChannelOnlyKind;
  /** The tenant's usable merchant; an ApiError (400) when none is configured or it is incomplete. */
  merchantOf(deps: WxpayDeps, tenantId: string): Promise<ChannelMerchant>;
  /** A download failure the day records as its reason (a code and the message), undefined when unexpected. */
  failureOf(error: unknown): { code: string; message: string } | undefined;
  /** The channel's orders named by the bill (`nos`) or paid here on the day, with in_day set. */
  localOrders(
    db: Queryable,
    tenantId: string,
    merchantId: string,
    day: string,
    nos: string[],
  ): Promise<LocalOrder[]>;
  /** The day's counter recharges recorded with the channel's payment methods and no order of it. */
  counterRecharges(db: Queryable, tenantId: string, day: string): Promise<CounterRecharge[]>;
  /** The account and energy of the channel's order, locked; undefined when the tenant has no such order. */
  lockOrderAccount(
    tx: Queryable,
    tenantId: string,
    orderId: string,
  ): Promise<{ account_id: string; energy_type: 1 | 2 } | undefined>;
  /**
   * Books a paid trade of a known order exactly as the channel's notification would (at most once),
   * inside the caller's transaction (`db` runs on it). Answers the order's recharge, or a reason it
   * could not be booked.
   */
  bookOrder(
    deps: WxpayDeps & { db: Db },
    tenantId: string,
    request: BookRequest,
  ): Promise<{ rechargeId: string | null } | { refused: string }>;
  /** PAYMENT_METHOD a correction of an order is booked with (5 微信在线支付, 4 支付宝). */
  orderPaymentMethod: number;
  /** Remarks of a reversal and a correction in the ledger. */
  labels: { reverse: string; correct: string };
  /** The settlement's idempotency key starts with it. */
  keyPrefix: string;
}

/**
 * The day's recharges the ledger records with `methods` that no order of `orderTable` booked.
 * Recharges only: refunds and corrections (the reconciliation's own settlements among them) are
 * not money that came in. `orderTable` is one of the channels' order tables, never input.
 */
export async function counterRechargesOf(
  db: Queryable,
  tenantId: string,
  day: string,
  methods: readonly number[],
  orderTable: "pms_wx_pay" | "pms_alipay_pay",
) {
  return db.query<CounterRecharge>(
    `select r.id::text as id, r.receipt_no, r.amount::text as amount,
            to_char(r.create_time at time zone 'Asia/Shanghai', 'YYYY-MM-DD HH24:MI:SS') as booked_at
       from pms_recharge r
      where r.tenant_id = $1 and r.recharge_type = 1 and r.state = 1 and r.payment_method = any($3::int[])
        and r.create_time >= ($2::date)::timestamp at time zone 'Asia/Shanghai'
        and r.create_time < ($2::date + 1)::timestamp at time zone 'Asia/Shanghai'
        and not exists (select 1 from ${orderTable} o where o.payment_id = r.payment_id)
      order by r.create_time, r.id`,
    [tenantId, day, methods],
  );
}

/**
 * The channel's orders of a merchant that the bill names or that were paid here on the China day.
 * `table` and its merchant and trade-number columns are the channel's, never input.
 */
export async function localOrdersOf(
  db: Queryable,
  shape: {
    table: "pms_wx_pay" | "pms_alipay_pay";
    merchant: "mchid" | "app_id";
    tradeNo: "transaction_id" | "trade_no";
  },
  tenantId: string,
  merchantId: string,
  day: string,
  nos: string[],
) {
  const inDay = `state = 1 and paid_time >= ($3::date)::timestamp at time zone 'Asia/Shanghai'
                 and paid_time < ($3::date + 1)::timestamp at time zone 'Asia/Shanghai'`;
  return db.query<LocalOrder>(
    `select id::text as id, out_trade_no, amount::text as amount, state, ${shape.tradeNo} as transaction_id,
            paid_time, (${inDay}) as in_day
       from ${shape.table}
      where tenant_id = $1 and ${shape.merchant} = $2 and (out_trade_no = any($4::varchar[]) or (${inDay}))`,
    [tenantId, merchantId, day, nos],
  );
}
