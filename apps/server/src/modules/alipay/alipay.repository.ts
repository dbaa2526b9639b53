import type { Queryable } from "../../db/client.ts";
import { nextId } from "../../db/ids.ts";

/** ALIPAY_STATE, as WeChat Pay's: 0 unpaid, 1 paid (its recharge booked), 2 closed, 3 failed. */
export const ALIPAY_STATE = { unpaid: 0, paid: 1, closed: 2, failed: 3 } as const;
export type AlipayTradeType = "qr" | "wap" | "code";

export interface NewAlipayOrder {
  tenantId: string;
  accountId: string;
  paymentId: string;
  outTradeNo: string;
  tradeType: AlipayTradeType;
  amount: bigint;
  appId: string;
  expireTime: Date;
  subject: string;
  operator: string;
  userId: string | null;
}

/** Records an order for an account of the tenant (owner, room and meter from the account). */
export async function insertAlipayOrder(tx: Queryable, order: NewAlipayOrder): Promise<string> {
  const id = nextId();
  await tx.query(
    `insert into pms_alipay_pay (id, tenant_id, owner_id, account_id, room_id, energy_type, meter_id, payment_id,
                                 out_trade_no, trade_type, amount, app_id, expire_time, subject, operator, create_user)
     select $1, a.tenant_id, a.owner_id, a.id, a.room_id, a.energy_type, a.meter_id, $4, $5, $6, $7, $8, $9, $10, $11, $12
       from pms_account a where a.id = $2 and a.tenant_id = $3`,
    [
      id,
      order.accountId,
      order.tenantId,
      order.paymentId,
      order.outTradeNo,
      order.tradeType,
      order.amount.toString(),
      order.appId,
      order.expireTime,
      order.subject,
      order.operator.slice(0, 64),
      order.userId,
    ],
  );
  return id;
}

export interface AlipayOrderRow {
  id: string;
  tenant_id: string;
  owner_id: string;
  account_id: string;
  payment_id: string;
  recharge_id: string | null;
  out_trade_no: string;
  trade_type: AlipayTradeType;
  amount: string;
  app_id: string;
  qr_code: string;
  state: number;
  trade_no: string;
  paid_time: Date | null;
  expire_time: Date;
  refund_amount: string;
  create_time: Date;
  /** Who opened the order: a cashier at the counter (with their user id), or the owner page's word. */
  operator: string;
  create_user: string | null;
}

const COLUMNS = `id::text as id, tenant_id, owner_id::text as owner_id, account_id::text as account_id,
  payment_id::text as payment_id, recharge_id::text as recharge_id, out_trade_no, trade_type, amount::text as amount,
  app_id, qr_code, state, trade_no, paid_time, expire_time, refund_amount::text as refund_amount, create_time,
  operator, create_user::text as create_user`;

/** One order of the tenant by its out_trade_no, locked: notifications and queries queue here. */
export async function lockAlipayOrderByTradeNo(tx: Queryable, tenantId: string, outTradeNo: string) {
  const [row] = await tx.query<AlipayOrderRow>(
    `select ${COLUMNS} from pms_alipay_pay where tenant_id = $1 and out_trade_no = $2 for update`,
    [tenantId, outTradeNo],
  );
  return row;
}

export async function lockAlipayOrder(tx: Queryable, tenantId: string, id: string) {
  const [row] = await tx.query<AlipayOrderRow>(
    `select ${COLUMNS} from pms_alipay_pay where tenant_id = $1 and id = $2 for update`,
    [tenantId, id],
  );
  return row;
}

export async function alipayOrderById(db: Queryable, tenantId: string, id: string) {
  const [row] = await db.query<AlipayOrderRow>(
    `select ${COLUMNS} from pms_alipay_pay where tenant_id = $1 and id = $2`,
    [tenantId, id],
  );
  return row;
}

export async function setQrCode(db: Queryable, id: string, qrCode: string) {
  await db.query("update pms_alipay_pay set qr_code = $2, update_time = now() where id = $1", [id, qrCode]);
}

export async function setAlipayPaid(
  tx: Queryable,
  id: string,
  paid: { tradeNo: string; buyerId: string; paidTime: Date; rechargeId: string },
) {
  await tx.query(
    `update pms_alipay_pay set state = 1, trade_no = $2, buyer_id = $3, paid_time = $4, recharge_id = $5::bigint,
            update_time = now()
      where id = $1`,
    [id, paid.tradeNo, paid.buyerId, paid.paidTime, paid.rechargeId || null],
  );
}

export async function setAlipayState(tx: Queryable, id: string, state: number) {
  await tx.query("update pms_alipay_pay set state = $2, update_time = now() where id = $1", [id, state]);
}

export async function insertAlipayRefund(
  tx: Queryable,
  refund: {
    tenantId: string;
    orderId: string;
    outRequestNo: string;
    amount: bigint;
    reason: string;
    operator: string;
    userId: string | null;
  },
) {
  const id = nextId();
  await tx.query(
    `insert into pms_alipay_refund (id, tenant_id, alipay_pay_id, out_request_no, amount, reason, operator, create_user)
     values ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [
      id,
      refund.tenantId,
      refund.orderId,
      refund.outRequestNo,
      refund.amount.toString(),
      refund.reason,
      refund.operator.slice(0, 64),
      refund.userId,
    ],
  );
  await tx.query(
    "update pms_alipay_pay set refund_amount = refund_amount + $2, update_time = now() where id = $1",
    [refund.orderId, refund.amount.toString()],
  );
  return id;
}

export async function settleAlipayRefund(
  tx: Queryable,
  id: string,
  outcome: { status: string; rechargeId: string | null },
) {
  await tx.query(
    "update pms_alipay_refund set status = $2, recharge_id = $3::bigint, update_time = now() where id = $1",
    [id, outcome.status, outcome.rechargeId],
  );
}

/** A refund Alipay refused, or its approver: its amount goes back to what the order may still refund. */
export async function failAlipayRefund(
  tx: Queryable,
  id: string,
  orderId: string,
  amount: bigint,
  status: "CLOSED" | "REJECTED",
) {
  await tx.query("update pms_alipay_refund set status = $2, update_time = now() where id = $1", [id, status]);
  await tx.query(
    "update pms_alipay_pay set refund_amount = refund_amount - $2, update_time = now() where id = $1",
    [orderId, amount.toString()],
  );
}
