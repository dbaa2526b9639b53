import type { Queryable } from "../../db/client.ts";
import { nextId } from "../../db/ids.ts";

/** WXPAY_STATE: 0 unpaid, 1 paid (its recharge booked), 2 closed, 3 failed. */
export const WXPAY_STATE = { unpaid: 0, paid: 1, closed: 2, failed: 3 } as const;
/** JSAPI (the owner's page), Native (a QR code at the counter), micropay (a payment code scanned there). */
export type TradeType = "jsapi" | "native" | "micropay";

/** The enabled merchant configuration of a tenant, secrets still encrypted. */
export interface StoredMerchant {
  app_id: string;
  mch_id: string;
  api_v3_key: string | null;
  cert_serial_no: string | null;
  private_key: string | null;
  notify_url: string | null;
  platform_serial_no: string | null;
  platform_public_key: string | null;
  api_base: string | null;
  max_amount: string | null;
}

export async function storedMerchant(db: Queryable, tenantId: string): Promise<StoredMerchant | undefined> {
  const [row] = await db.query<StoredMerchant>(
    `select app_id, mch_id, api_v3_key, cert_serial_no, private_key, notify_url, platform_serial_no,
            platform_public_key, api_base, max_amount::text as max_amount
       from pms_wx_config where tenant_id = $1 and enabled = 1 and is_deleted = 0
      order by id limit 1`,
    [tenantId],
  );
  return row;
}

export interface NewOrder {
  tenantId: string;
  accountId: string;
  paymentId: string;
  outTradeNo: string;
  tradeType: TradeType;
  amount: bigint;
  appid: string;
  mchid: string;
  openid: string;
  expireTime: Date;
  description: string;
  operator: string;
  userId: string | null;
}

/** Records an order for an account of the tenant (owner, room and meter from the account). */
export async function insertOrder(tx: Queryable, order: NewOrder): Promise<string> {
  const id = nextId();
  await tx.query(
    `insert into pms_wx_pay (id, tenant_id, owner_id, account_id, room_id, energy_type, meter_id, payment_id,
                             out_trade_no, trade_type, amount, appid, mchid, openid, expire_time, description,
                             operator, create_user)
     select $1, a.tenant_id, a.owner_id, a.id, a.room_id, a.energy_type, a.meter_id, $4, $5, $6, $7, $8, $9, $10,
            $11, $12, $13, $14
       from pms_account a where a.id = $2 and a.tenant_id = $3`,
    [
      id,
      order.accountId,
      order.tenantId,
      order.paymentId,
      order.outTradeNo,
      order.tradeType,
      order.amount.toString(),
      order.appid,
      order.mchid,
      order.openid,
      order.expireTime,
      order.description,
      order.operator.slice(0, 64),
      order.userId,
    ],
  );
  return id;
}

export interface OrderRow {
  id: string;
  tenant_id: string;
  owner_id: string;
  account_id: string;
  payment_id: string;
  recharge_id: string | null;
  out_trade_no: string;
  trade_type: TradeType;
  amount: string;
  appid: string;
  mchid: string;
  openid: string;
  prepay_id: string;
  code_url: string;
  state: number;
  transaction_id: string;
  paid_time: Date | null;
  expire_time: Date;
  refund_amount: string;
  create_time: Date;
  /** Who opened the order: a cashier at the counter (with their user id), or the owner page's word. */
  operator: string;
  create_user: string | null;
}

const ORDER_COLUMNS = `id::text as id, tenant_id, owner_id::text as owner_id, account_id::text as account_id,
  payment_id::text as payment_id, recharge_id::text as recharge_id, out_trade_no, trade_type, amount::text as amount,
  appid, mchid, openid, prepay_id, code_url, state, transaction_id, paid_time, expire_time,
  refund_amount::text as refund_amount, create_time,
  operator, create_user::text as create_user`;

/** One order of the tenant by its out_trade_no, locked: notifications and the query job queue here. */
export async function lockOrderByTradeNo(tx: Queryable, tenantId: string, outTradeNo: string) {
  const [row] = await tx.query<OrderRow>(
    `select ${ORDER_COLUMNS} from pms_wx_pay where tenant_id = $1 and out_trade_no = $2 for update`,
    [tenantId, outTradeNo],
  );
  return row;
}

export async function lockOrder(tx: Queryable, tenantId: string, id: string) {
  const [row] = await tx.query<OrderRow>(
    `select ${ORDER_COLUMNS} from pms_wx_pay where tenant_id = $1 and id = $2 for update`,
    [tenantId, id],
  );
  return row;
}

export async function orderById(db: Queryable, tenantId: string, id: string) {
  const [row] = await db.query<OrderRow>(
    `select ${ORDER_COLUMNS} from pms_wx_pay where tenant_id = $1 and id = $2`,
    [tenantId, id],
  );
  return row;
}

export async function setPrepared(
  db: Queryable,
  id: string,
  prepared: { prepayId?: string; codeUrl?: string },
) {
  await db.query("update pms_wx_pay set prepay_id = $2, code_url = $3, update_time = now() where id = $1", [
    id,
    prepared.prepayId ?? "",
    prepared.codeUrl ?? "",
  ]);
}

export async function setPaid(
  tx: Queryable,
  id: string,
  paid: { transactionId: string; paidTime: Date; rechargeId: string; openid: string },
) {
  await tx.query(
    `update pms_wx_pay set state = 1, transaction_id = $2, paid_time = $3, recharge_id = $4::bigint,
            openid = case when openid = '' then $5 else openid end, update_time = now()
      where id = $1`,
    [id, paid.transactionId, paid.paidTime, paid.rechargeId || null, paid.openid],
  );
}

export async function setState(tx: Queryable, id: string, state: number) {
  await tx.query("update pms_wx_pay set state = $2, update_time = now() where id = $1", [id, state]);
}

/** Unpaid orders older than `seconds`, oldest first, of every tenant: the query job's work. */
export async function unpaidOrders(db: Queryable, seconds: number, limit: number) {
  return db.query<{ tenant_id: string; out_trade_no: string; expire_time: Date; trade_type: TradeType }>(
    `select tenant_id, out_trade_no, expire_time, trade_type from pms_wx_pay
      where state = 0 and create_time < now() - make_interval(secs => $1)
      order by create_time limit $2`,
    [seconds, limit],
  );
}

export async function insertRefund(
  tx: Queryable,
  refund: {
    tenantId: string;
    wxPayId: string;
    outRefundNo: string;
    amount: bigint;
    reason: string;
    operator: string;
    userId: string | null;
  },
) {
  const id = nextId();
  await tx.query(
    `insert into pms_wx_refund (id, tenant_id, wx_pay_id, out_refund_no, amount, reason, operator, create_user)
     values ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [
      id,
      refund.tenantId,
      refund.wxPayId,
      refund.outRefundNo,
      refund.amount.toString(),
      refund.reason,
      refund.operator.slice(0, 64),
      refund.userId,
    ],
  );
  await tx.query(
    "update pms_wx_pay set refund_amount = refund_amount + $2, update_time = now() where id = $1",
    [refund.wxPayId, refund.amount.toString()],
  );
  return id;
}

export async function settleRefund(
  tx: Queryable,
  id: string,
  outcome: { status: string; refundId: string; rechargeId: string | null },
) {
  await tx.query(
    "update pms_wx_refund set status = $2, refund_id = $3, recharge_id = $4::bigint, update_time = now() where id = $1",
    [id, outcome.status, outcome.refundId, outcome.rechargeId],
  );
}

/** A refund WeChat Pay refused: its amount goes back to what the order may still refund. */
export async function failRefund(tx: Queryable, id: string, wxPayId: string, amount: bigint, status: string) {
  await tx.query("update pms_wx_refund set status = $2, update_time = now() where id = $1", [id, status]);
  await tx.query(
    "update pms_wx_pay set refund_amount = refund_amount - $2, update_time = now() where id = $1",
    [wxPayId, amount.toString()],
  );
}
