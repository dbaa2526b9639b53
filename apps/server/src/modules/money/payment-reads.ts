import { formatDateTime } from "../../contract/dates.ts";
import { page } from "../../contract/envelope.ts";
import { badParam } from "../../contract/errors.ts";
import { optionalId, optionalString, paging } from "../../contract/params.ts";
import { SqlParams } from "../../crud/sql.ts";
import type { Queryable } from "../../db/client.ts";
import { roomLabelSql } from "../pms/room-label.ts";
import { meterCodeJoin } from "./account.repository.ts";
import {
  containsFilters,
  placeFilter,
  rechargeRows,
  rechargeSearch,
  rechargeView,
  smallInt,
  tenantCondition,
  tenantNameOf,
  tenantOfRow,
  timeRange,
  yuan,
} from "./money-reads.ts";
import { CHANNELS, type Channel } from "./payment.repository.ts";

type Params = Record<string, unknown>;

export interface PaymentListRow {
  id: string;
  tenant_id: string;
  tenant_name: string | null;
  account_id: string;
  owner_id: string;
  owner_name: string | null;
  phone: string | null;
  room_id: string | null;
  room_name: string | null;
  area_name: string | null;
  energy_type: number;
  meter_id: string;
  product_code: string | null;
  amount: string;
  payment_method: number;
  channel: string;
  state: number;
  transaction_no: string;
  paid_time: Date | null;
  remark: string;
  operator: string;
  create_time: Date;
}

const PAYMENT_FROM = `from pms_payment p
  left join pms_owner o on o.tenant_id = p.tenant_id and o.id = p.owner_id
  left join pms_account pa on pa.tenant_id = p.tenant_id and pa.id = p.account_id
  left join pms_room rr on rr.tenant_id = p.tenant_id and rr.id = pa.room_id
  left join pms_area rar on rar.tenant_id = p.tenant_id and rar.id = rr.area_id
  ${meterCodeJoin("p", "m")}`;

const PAYMENT_COLUMNS = `p.id::text as id, p.account_id::text as account_id, p.owner_id::text as owner_id, o.owner_name,
  o.phone, pa.room_id::text as room_id, ${roomLabelSql("rr")} as room_name, rar.area_name, p.energy_type, p.meter_id::text as meter_id,
  m.product_code, p.amount::text as amount, p.payment_method, p.channel, p.state, p.transaction_no, p.paid_time,
  p.remark, p.operator, p.create_time, ${tenantNameOf("p")}`;

export const paymentView = (p: PaymentListRow, timeZone: string) => ({
  id: p.id,
  ...tenantOfRow(p),
  accountId: p.account_id,
  ownerId: p.owner_id,
  ownerName: p.owner_name ?? "",
  phone: p.phone ?? "",
  roomId: p.room_id ?? "",
  roomName: p.room_name ?? "",
  areaName: p.area_name ?? "",
  energyType: p.energy_type,
  meterId: p.meter_id,
  productCode: p.product_code ?? "",
  amount: yuan(p.amount),
  paymentMethod: p.payment_method,
  channel: p.channel,
  state: p.state,
  transactionNo: p.transaction_no,
  paidTime: p.paid_time ? formatDateTime(p.paid_time, timeZone) : "",
  remark: p.remark,
  operator: p.operator,
  createTime: formatDateTime(p.create_time, timeZone),
});

/**
 * The search of payment/list and its export: ownerName, phone, productCode, transactionNo (each
 * contains), ownerId, accountId, paymentMethod, state, energyType, channel, areaId, roomId and a
 * create-time range (startTime, endTime).
 */
export function paymentSearch(tenantId: string | null, params: Params, timeZone: string) {
  const sql = new SqlParams();
  const where = [tenantCondition(tenantId, sql, "p.tenant_id")];
  containsFilters(params, sql, where, [
    ["ownerName", "o.owner_name"],
    ["phone", "o.phone"],
    ["productCode", "m.product_code"],
    ["transactionNo", "p.transaction_no"],
  ]);
  for (const [name, column] of [
    ["ownerId", "p.owner_id"],
    ["accountId", "p.account_id"],
  ] as const) {
    const id = optionalId(params, name);
    if (id) where.push(`${column} = ${sql.bind(id)}::bigint`);
  }
  for (const [name, column, max] of [
    ["paymentMethod", "p.payment_method", 5],
    ["state", "p.state", 2],
    ["energyType", "p.energy_type", 2],
  ] as const) {
    const value = smallInt(params, name, max);
    if (value !== undefined) where.push(`${column} = ${sql.bind(value)}`);
  }
  const channel = optionalString(params, "channel");
  if (channel !== undefined) {
    if (!CHANNELS.includes(channel as Channel)) throw badParam("channel");
    where.push(`p.channel = ${sql.bind(channel)}`);
  }
  timeRange(params, sql, "p.create_time", timeZone, where);
  placeFilter(params, sql, "pa.room_id", where);
  return { sql, filter: `${PAYMENT_FROM} where ${where.join(" and ")}` };
}

type PaymentSearch = ReturnType<typeof paymentSearch>;

/** The count and the sums paid, unpaid and failed of a payment search, in one pass. */
export async function paymentTotals(db: Queryable, { sql, filter }: PaymentSearch) {
  const [totals] = await db.query<{ n: string; paid: string; unpaid: string; failed: string }>(
    `select count(*)::text as n,
            coalesce(sum(p.amount) filter (where p.state = 1), 0)::text as paid,
            coalesce(sum(p.amount) filter (where p.state = 0), 0)::text as unpaid,
            coalesce(sum(p.amount) filter (where p.state = 2), 0)::text as failed
       ${filter}`,
    sql.values,
  );
  return {
    count: Number(totals?.n ?? 0),
    paid: yuan(totals?.paid ?? "0"),
    unpaid: yuan(totals?.unpaid ?? "0"),
    failed: yuan(totals?.failed ?? "0"),
  };
}

/** Payments of a search, newest first, from `offset`. */
export function paymentRows(db: Queryable, { sql, filter }: PaymentSearch, limit: number, offset: number) {
  const values = [...sql.values, limit, offset];
  return db.query<PaymentListRow>(
    `select ${PAYMENT_COLUMNS} ${filter} order by p.create_time desc, p.id desc
      limit $${values.length - 1} offset $${values.length}`,
    values,
  );
}

/** payment/list: a page of payments with owner, meter and place, and the totals of the whole search. */
export async function paymentPage(db: Queryable, tenantId: string | null, params: Params, timeZone: string) {
  const { current, size, offset } = paging(params);
  const search = paymentSearch(tenantId, params, timeZone);
  const totals = await paymentTotals(db, search);
  const rows = await paymentRows(db, search, size, offset);
  const { count, ...sums } = totals;
  return {
    ...page(
      rows.map((p) => paymentView(p, timeZone)),
      count,
      current,
      size,
    ),
    totals: sums,
  };
}

/** payment/detail: one payment of the tenant with the recharges it paid for. */
export async function paymentDetail(db: Queryable, tenantId: string, id: string, timeZone: string) {
  const search = paymentSearch(tenantId, {}, timeZone);
  const values = [...search.sql.values, id];
  const [row] = await db.query<PaymentListRow>(
    `select ${PAYMENT_COLUMNS} ${search.filter} and p.id = $${values.length}`,
    values,
  );
  if (!row) return undefined;
  const recharges = await rechargeRows(db, rechargeSearch(tenantId, { paymentId: id }, timeZone), 100, 0);
  return { ...paymentView(row, timeZone), recharges: recharges.map((r) => rechargeView(r, timeZone)) };
}
