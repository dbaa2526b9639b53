import { formatDateTime } from "../../contract/dates.ts";
import { page } from "../../contract/envelope.ts";
import { badParam } from "../../contract/errors.ts";
import { optionalId, optionalString, paging } from "../../contract/params.ts";
import { SqlParams } from "../../crud/sql.ts";
import type { Queryable } from "../../db/client.ts";
import { meterCodeJoin } from "../money/account.repository.ts";
import {
  containsFilters,
  placeFilter,
  smallInt,
  tenantCondition,
  tenantNameOf,
  tenantOfRow,
  timeRange,
  yuan,
} from "../money/money-reads.ts";
import { roomLabelSql } from "../pms/room-label.ts";

type Params = Record<string, unknown>;

interface WxpayListRow {
  id: string;
  tenant_id: string;
  tenant_name: string | null;
  out_trade_no: string;
  trade_type: string;
  owner_id: string;
  owner_name: string | null;
  phone: string | null;
  room_id: string | null;
  room_name: string | null;
  energy_type: number;
  meter_id: string;
  product_code: string | null;
  amount: string;
  state: number;
  transaction_id: string;
  paid_time: Date | null;
  expire_time: Date;
  recharge_id: string | null;
  receipt_no: string | null;
  payment_id: string;
  refund_amount: string;
  openid: string;
  code_url: string;
  operator: string;
  create_time: Date;
}

const FROM = `from pms_wx_pay w
  left join pms_owner o on o.id = w.owner_id
  left join pms_room rr on rr.id = w.room_id
  left join pms_recharge rc on rc.id = w.recharge_id
  ${meterCodeJoin("w", "m")}`;

const COLUMNS = `w.id::text as id, w.out_trade_no, w.trade_type, w.owner_id::text as owner_id, o.owner_name, o.phone,
  w.room_id::text as room_id, ${roomLabelSql("rr")} as room_name, w.energy_type, w.meter_id::text as meter_id,
  m.product_code, w.amount::text as amount, w.state, w.transaction_id, w.paid_time, w.expire_time,
  w.recharge_id::text as recharge_id, rc.receipt_no, w.payment_id::text as payment_id,
  w.refund_amount::text as refund_amount, w.openid, w.code_url, w.operator, w.create_time, ${tenantNameOf("w")}`;

/** The columns `descs` / `ascs` may name (contract: comma-separated snake_case), and nothing else. */
const SORTABLE: Record<string, string> = {
  create_time: "w.create_time",
  paid_time: "w.paid_time",
  amount: "w.amount",
  state: "w.state",
  out_trade_no: "w.out_trade_no",
};

export const wxpayView = (r: WxpayListRow, timeZone: string) => ({
  id: r.id,
  ...tenantOfRow(r),
  outTradeNo: r.out_trade_no,
  tradeType: r.trade_type,
  ownerId: r.owner_id,
  ownerName: r.owner_name ?? "",
  phone: r.phone ?? "",
  roomId: r.room_id ?? "",
  roomName: r.room_name ?? "",
  energyType: r.energy_type,
  meterId: r.meter_id,
  productCode: r.product_code ?? "",
  amount: yuan(r.amount),
  state: r.state,
  transactionId: r.transaction_id,
  paidTime: r.paid_time ? formatDateTime(r.paid_time, timeZone) : "",
  expireTime: formatDateTime(r.expire_time, timeZone),
  rechargeId: r.recharge_id ?? "",
  receiptNo: r.receipt_no ?? "",
  paymentId: r.payment_id,
  refundAmount: yuan(r.refund_amount),
  codeUrl: r.state === 0 ? r.code_url : "",
  operator: r.operator,
  createTime: formatDateTime(r.create_time, timeZone),
});

function orderBy(params: Params): string {
  const terms: string[] = [];
  for (const [name, direction] of [
    ["descs", "desc"],
    ["ascs", "asc"],
  ] as const) {
    const text = optionalString(params, name);
    if (!text) continue;
    for (const column of text
      .split(",")
      .map((c) => c.trim())
      .filter(Boolean)) {
      const sql = SORTABLE[column.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)];
      if (!sql) throw badParam(name);
      terms.push(`${sql} ${direction} nulls last`);
    }
  }
  terms.push("w.create_time desc", "w.id desc");
  return terms.join(", ");
}

/**
 * The search of wxpay/list and its export: outTradeNo, transactionId, ownerName, phone, productCode
 * (contains), ownerId, state, tradeType, energyType, roomId/areaId and a create-time range.
 */
export function wxpaySearch(tenantId: string | null, params: Params, timeZone: string) {
  const sql = new SqlParams();
  const where = [tenantCondition(tenantId, sql, "w.tenant_id")];
  containsFilters(params, sql, where, [
    ["outTradeNo", "w.out_trade_no"],
    ["transactionId", "w.transaction_id"],
    ["ownerName", "o.owner_name"],
    ["phone", "o.phone"],
    ["productCode", "m.product_code"],
  ]);
  const ownerId = optionalId(params, "ownerId");
  if (ownerId) where.push(`w.owner_id = ${sql.bind(ownerId)}::bigint`);
  for (const [name, column, max] of [
    ["state", "w.state", 3],
    ["energyType", "w.energy_type", 2],
  ] as const) {
    const value = smallInt(params, name, max);
    if (value !== undefined) where.push(`${column} = ${sql.bind(value)}`);
  }
  const tradeType = optionalString(params, "tradeType");
  if (tradeType !== undefined) {
    if (tradeType !== "jsapi" && tradeType !== "native" && tradeType !== "micropay")
      throw badParam("tradeType");
    where.push(`w.trade_type = ${sql.bind(tradeType)}`);
  }
  timeRange(params, sql, "w.create_time", timeZone, where);
  placeFilter(params, sql, "w.room_id", where);
  return { sql, filter: `${FROM} where ${where.join(" and ")}`, order: orderBy(params) };
}

type Search = ReturnType<typeof wxpaySearch>;

/** Count, paid, unpaid and refunded sums of a search, in one pass. */
export async function wxpayTotals(db: Queryable, { sql, filter }: Search) {
  const [t] = await db.query<{ n: string; paid: string; unpaid: string; refunded: string }>(
    `select count(*)::text as n,
            coalesce(sum(w.amount) filter (where w.state = 1), 0)::text as paid,
            coalesce(sum(w.amount) filter (where w.state = 0), 0)::text as unpaid,
            coalesce(sum(w.refund_amount), 0)::text as refunded
       ${filter}`,
    sql.values,
  );
  return {
    count: Number(t?.n ?? 0),
    paid: yuan(t?.paid ?? "0"),
    unpaid: yuan(t?.unpaid ?? "0"),
    refunded: yuan(t?.refunded ?? "0"),
  };
}

export function wxpayRows(db: Queryable, { sql, filter, order }: Search, limit: number, offset: number) {
  const values = [...sql.values, limit, offset];
  return db.query<WxpayListRow>(
    `select ${COLUMNS} ${filter} order by ${order} limit $${values.length - 1} offset $${values.length}`,
    values,
  );
}

/** wxpay/list: a page of orders with owner, room, meter and booked recharge, and the search's totals. */
export async function wxpayPage(db: Queryable, tenantId: string | null, params: Params, timeZone: string) {
  const { current, size, offset } = paging(params);
  const search = wxpaySearch(tenantId, params, timeZone);
  const { count, ...totals } = await wxpayTotals(db, search);
  const rows = await wxpayRows(db, search, size, offset);
  return {
    ...page(
      rows.map((r) => wxpayView(r, timeZone)),
      count,
      current,
      size,
    ),
    totals,
  };
}

/** wxpay/detail: one order of the tenant with its refunds. */
export async function wxpayDetail(db: Queryable, tenantId: string, id: string, timeZone: string) {
  const search = wxpaySearch(tenantId, {}, timeZone);
  const values = [...search.sql.values, id];
  const [row] = await db.query<WxpayListRow>(
    `select ${COLUMNS} ${search.filter} and w.id = $${values.length}`,
    values,
  );
  if (!row) return undefined;
  const refunds = await db.query<{
    out_refund_no: string;
    amount: string;
    status: string;
    reason: string;
    operator: string;
    create_time: Date;
  }>(
    `select out_refund_no, amount::text as amount, status, reason, operator, create_time
       from pms_wx_refund where tenant_id = $1 and wx_pay_id = $2 order by create_time`,
    [tenantId, id],
  );
  return {
    ...wxpayView(row, timeZone),
    refunds: refunds.map((r) => ({
      outRefundNo: r.out_refund_no,
      amount: yuan(r.amount),
      status: r.status,
      reason: r.reason,
      operator: r.operator,
      createTime: formatDateTime(r.create_time, timeZone),
    })),
  };
}
