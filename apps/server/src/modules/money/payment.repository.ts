import type { Queryable } from "../../db/client.ts";
import { nextId } from "../../db/ids.ts";
import type { Actor } from "./account-book.ts";

/** Where money came in (pms_payment.channel): the front desk, online, a bank transfer, other. */
export const CHANNELS = ["counter", "online", "bank", "other"] as const;
export type Channel = (typeof CHANNELS)[number];
export const COUNTER_CHANNEL: Channel = "counter";

/** PAYMENT state: 0 unpaid, 1 paid, 2 failed or closed. */
export type PaymentState = 0 | 1 | 2;

export interface NewPayment {
  tenantId: string;
  accountId: string;
  amount: bigint;
  paymentMethod: number;
  channel: Channel;
  state: PaymentState;
  transactionNo: string;
  remark: string;
  actor: Actor;
}

/**
 * Records a payment for an account of the tenant (owner, energy type and meter taken from the
 * account). Returns its id, or null when the tenant has no such account.
 */
export async function insertPayment(tx: Queryable, payment: NewPayment): Promise<string | null> {
  const id = nextId();
  const [row] = await tx.query<{ id: string }>(
    `insert into pms_payment (id, tenant_id, owner_id, account_id, energy_type, meter_id, amount, payment_method,
                              channel, state, transaction_no, paid_time, remark, operator, create_user)
     select $1, a.tenant_id, a.owner_id, a.id, a.energy_type, a.meter_id, $4, $5, $6, $7, $8,
            case when $7 = 1 then now() end, $9, $10, $11
       from pms_account a where a.id = $2 and a.tenant_id = $3
     returning id::text as id`,
    [
      id,
      payment.accountId,
      payment.tenantId,
      payment.amount.toString(),
      payment.paymentMethod,
      payment.channel,
      payment.state,
      payment.transactionNo,
      payment.remark,
      payment.actor.name.slice(0, 64),
      payment.actor.userId || null,
    ],
  );
  return row?.id ?? null;
}

export interface PaymentRow {
  id: string;
  account_id: string;
  meter_id: string;
  amount: string;
  payment_method: number;
  channel: Channel;
  state: PaymentState;
  transaction_no: string;
  remark: string;
}

/** One payment of the tenant, locked until the transaction ends: confirmations of it queue here. */
export async function lockPayment(tx: Queryable, tenantId: string, id: string) {
  const [row] = await tx.query<PaymentRow>(
    `select id::text as id, account_id::text as account_id, meter_id::text as meter_id, amount::text as amount, payment_method, channel, state,
            transaction_no, remark
       from pms_payment where id = $1 and tenant_id = $2 for update`,
    [id, tenantId],
  );
  return row;
}

/** Writes a locked payment's changeable fields back; the account also moves owner and meter with it. */
export async function updatePayment(
  tx: Queryable,
  row: PaymentRow,
  paid: { at: "now" | "unchanged" },
): Promise<void> {
  await tx.query(
    `update pms_payment p
        set account_id = a.id, owner_id = a.owner_id, energy_type = a.energy_type, meter_id = a.meter_id,
            amount = $3, payment_method = $4, channel = $5, state = $6, transaction_no = $7, remark = $8,
            paid_time = case when $9 then now() else p.paid_time end, update_time = now()
       from pms_account a
      where p.id = $1 and a.id = $2 and a.tenant_id = p.tenant_id`,
    [
      row.id,
      row.account_id,
      row.amount,
      row.payment_method,
      row.channel,
      row.state,
      row.transaction_no,
      row.remark,
      paid.at === "now",
    ],
  );
}

/** The states of the tenant's payments among `ids`, locked against a confirmation meanwhile. */
export async function paymentStates(tx: Queryable, tenantId: string, ids: string[]) {
  return tx.query<{ id: string; state: PaymentState }>(
    "select id::text as id, state from pms_payment where tenant_id = $1 and id = any($2::bigint[]) for update",
    [tenantId, ids],
  );
}

/** Removes the tenant's unpaid and failed payments among `ids`; a paid one is never removed. */
export async function deletePayments(tx: Queryable, tenantId: string, ids: string[]): Promise<number> {
  const rows = await tx.query(
    "delete from pms_payment where tenant_id = $1 and id = any($2::bigint[]) and state <> 1 returning id",
    [tenantId, ids],
  );
  return rows.length;
}
