import { formatDateTime } from "../../contract/dates.ts";
import { page } from "../../contract/envelope.ts";
import { badParam } from "../../contract/errors.ts";
import { optionalString, paging } from "../../contract/params.ts";
import { SqlParams } from "../../crud/sql.ts";
import type { Queryable } from "../../db/client.ts";
import { yuan } from "../money/money-reads.ts";
import { roomLabelSql } from "../pms/room-label.ts";
import { BILL_CHANNELS, DIFF_KINDS } from "./wxbill-compare.ts";

type Params = Record<string, unknown>;

const dayParam = (params: Params, name: string) => {
  const day = optionalString(params, name);
  if (day !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(day)) throw badParam(name);
  return day;
};

function oneOf<T extends string>(params: Params, name: string, allowed: readonly T[]): T | undefined {
  const value = optionalString(params, name);
  if (value !== undefined && !allowed.includes(value as T)) throw badParam(name);
  return value as T | undefined;
}

interface BillRow {
  id: string;
  channel: string;
  mchid: string;
  bill_date: string;
  state: string;
  trade_count: number;
  success_count: number;
  refund_count: number;
  settlement_total: string;
  refund_total: string;
  local_count: number;
  local_total: string;
  counter_count: number;
  counter_total: string;
  open_count: number;
  attempts: number;
  downloaded_time: Date | null;
  error: string;
  error_code: string;
}

/** Bills of the tenant, newest day first: channel, billDate (one day) or from/to, state. */
export async function billPage(db: Queryable, tenantId: string, params: Params, timeZone: string) {
  const { current, size, offset } = paging(params, 200);
  const sql = new SqlParams();
  const where = [`tenant_id = ${sql.bind(tenantId)}`];
  const channel = oneOf(params, "channel", BILL_CHANNELS);
  if (channel) where.push(`channel = ${sql.bind(channel)}`);
  const day = dayParam(params, "billDate");
  if (day) where.push(`bill_date = ${sql.bind(day)}::date`);
  const from = dayParam(params, "from");
  if (from) where.push(`bill_date >= ${sql.bind(from)}::date`);
  const to = dayParam(params, "to");
  if (to) where.push(`bill_date <= ${sql.bind(to)}::date`);
  const state = oneOf(params, "state", ["balanced", "differences", "failed"] as const);
  if (state) where.push(`state = ${sql.bind(state)}`);
  const filter = where.join(" and ");
  const [count] = await db.query<{ n: string }>(
    `select count(*)::text as n from pms_wx_bill where ${filter}`,
    sql.values,
  );
  const rows = await db.query<BillRow>(
    `select id::text as id, channel, mchid, to_char(bill_date, 'YYYY-MM-DD') as bill_date, state, trade_count,
            success_count, refund_count, settlement_total::text as settlement_total,
            refund_total::text as refund_total, local_count, local_total::text as local_total,
            counter_count, counter_total::text as counter_total,
            -- Counted now: an approval decided since the last settle changes it (DIFF_STATE_SQL).
            (select count(*)::int from pms_wx_bill_diff
              where pms_wx_bill_diff.bill_id = pms_wx_bill.id and ${DIFF_STATE_SQL} <> 'settled') as open_count,
            attempts, downloaded_time, error, error_code
       from pms_wx_bill where ${filter}
      order by bill_date desc, channel desc, id desc limit ${sql.bind(size)} offset ${sql.bind(offset)}`,
    sql.values,
  );
  const records = rows.map((r) => ({
    id: r.id,
    // wechat or alipay; mchid is the channel's merchant (WeChat Pay's merchant number, Alipay's app id).
    channel: r.channel,
    mchid: r.mchid,
    billDate: r.bill_date,
    state: r.state === "failed" ? r.state : r.open_count > 0 ? "differences" : "balanced",
    tradeCount: r.trade_count,
    successCount: r.success_count,
    refundCount: r.refund_count,
    settlementTotal: yuan(r.settlement_total),
    refundTotal: yuan(r.refund_total),
    // The channel's orders paid here on the day, and apart from them the counter's recharges recorded with it.
    localCount: r.local_count,
    localTotal: yuan(r.local_total),
    counterCount: r.counter_count,
    counterTotal: yuan(r.counter_total),
    openCount: r.open_count,
    attempts: r.attempts,
    downloadedTime: r.downloaded_time ? formatDateTime(r.downloaded_time, timeZone) : "",
    // Why a run failed: a code the console words (MERCHANT, NETWORK, BILL_HASH, …) and the message as it came.
    errorCode: r.error_code,
    error: r.error,
  }));
  return page(records, Number(count?.n ?? 0), current, size);
}

interface DiffListRow {
  id: string;
  bill_id: string;
  channel: string;
  bill_date: string;
  kind: string;
  out_trade_no: string;
  transaction_id: string;
  wx_pay_id: string | null;
  wechat_amount: string | null;
  local_amount: string | null;
  trade_time: string;
  state: string;
  action: string | null;
  reason: string;
  operator: string;
  settle_time: Date | null;
  recharge_id: string | null;
  ledger_id: string | null;
  counter_recharge_id: string | null;
  receipt_no: string | null;
  account_id: string | null;
  owner_name: string | null;
  room_name: string | null;
  counter_operator: string | null;
  payment_method: number | null;
}

/**
 * A difference's state as operators see it: a settlement whose money waits for the tenant's approval
 * is `held`; one whose approval was rejected moved no money, so the difference is `open` again.
 */
export const DIFF_STATE_SQL = `case when pms_wx_bill_diff.state = 'settled' and pms_wx_bill_diff.recharge_id is not null
  then coalesce((select case rc.state when 3 then 'held' when 4 then 'open' end from pms_recharge rc
                  where rc.id = pms_wx_bill_diff.recharge_id), 'settled')
  else pms_wx_bill_diff.state end`;

/** The differences' table: its columns are named with it, as the counter recharge's join has the same names. */
const DIFF = "pms_wx_bill_diff";

/** The differences' filter: channel, billDate, billId, kind, state; 400 naming a malformed one. */
export function diffSearch(tenantId: string, params: Params) {
  const sql = new SqlParams();
  const where = [`${DIFF}.tenant_id = ${sql.bind(tenantId)}`];
  const channel = oneOf(params, "channel", BILL_CHANNELS);
  if (channel) where.push(`${DIFF}.channel = ${sql.bind(channel)}`);
  const day = dayParam(params, "billDate");
  if (day) where.push(`${DIFF}.bill_date = ${sql.bind(day)}::date`);
  const billId = optionalString(params, "billId");
  if (billId !== undefined) {
    if (!/^\d{1,19}$/.test(billId)) throw badParam("billId");
    where.push(`${DIFF}.bill_id = ${sql.bind(billId)}`);
  }
  const kind = oneOf(params, "kind", DIFF_KINDS);
  if (kind) where.push(`${DIFF}.kind = ${sql.bind(kind)}`);
  const state = oneOf(params, "state", ["open", "held", "settled"] as const);
  if (state) where.push(`${DIFF_STATE_SQL} = ${sql.bind(state)}`);
  return { where: where.join(" and "), values: sql.values };
}
export type DiffSearch = ReturnType<typeof diffSearch>;

export async function diffCount(db: Queryable, search: DiffSearch): Promise<number> {
  const [count] = await db.query<{ n: string }>(
    `select count(*)::text as n from pms_wx_bill_diff where ${search.where}`,
    search.values,
  );
  return Number(count?.n ?? 0);
}

/** Differences of the search, open ones first, then newest day; amounts in yuan text. */
export async function diffRows(
  db: Queryable,
  search: DiffSearch,
  limit: number,
  offset: number,
  timeZone: string,
) {
  const n = search.values.length;
  const rows = await db.query<DiffListRow>(
    `select ${DIFF}.id::text as id, bill_id::text as bill_id, ${DIFF}.channel, to_char(bill_date, 'YYYY-MM-DD') as bill_date, kind,
            out_trade_no, transaction_id, wx_pay_id::text as wx_pay_id, wechat_amount::text as wechat_amount,
            local_amount::text as local_amount, trade_time, ${DIFF_STATE_SQL} as state, action, reason,
            ${DIFF}.operator, settle_time, ${DIFF}.recharge_id::text as recharge_id, ${DIFF}.ledger_id::text as ledger_id,
            counter_recharge_id::text as counter_recharge_id, cr.receipt_no, cr.account_id::text as account_id,
            co.owner_name, ${roomLabelSql("cro")} as room_name, cr.operator as counter_operator, cr.payment_method
       from ${DIFF}
       left join pms_recharge cr on cr.id = ${DIFF}.counter_recharge_id and cr.tenant_id = ${DIFF}.tenant_id
       left join pms_owner co on co.id = cr.owner_id
       left join pms_account ca on ca.id = cr.account_id
       left join pms_room cro on cro.id = ca.room_id
      where ${search.where}
      order by (${DIFF_STATE_SQL} = 'open') desc, bill_date desc, ${DIFF}.id
      limit $${n + 1} offset $${n + 2}`,
    [...search.values, limit, offset],
  );
  return rows.map((r) => ({
    id: r.id,
    billId: r.bill_id,
    channel: r.channel,
    billDate: r.bill_date,
    kind: r.kind,
    // A counter recharge has no merchant order number: its receipt number stands in the row's key.
    outTradeNo: r.kind === "counter_only" ? "" : r.out_trade_no,
    transactionId: r.transaction_id,
    wxPayId: r.wx_pay_id ?? "",
    wechatAmount: yuan(r.wechat_amount),
    localAmount: yuan(r.local_amount),
    tradeTime: r.trade_time,
    state: r.state,
    action: r.action ?? "",
    reason: r.reason,
    operator: r.operator,
    settleTime: r.settle_time ? formatDateTime(r.settle_time, timeZone) : "",
    rechargeId: r.recharge_id ?? "",
    ledgerId: r.ledger_id ?? "",
    // counter_only: the recharge recorded with the channel's method, its account, owner, room and who took it.
    counterRechargeId: r.counter_recharge_id ?? "",
    receiptNo: r.receipt_no ?? "",
    accountId: r.account_id ?? "",
    ownerName: r.owner_name ?? "",
    roomName: r.room_name ?? "",
    counterOperator: r.counter_operator ?? "",
    paymentMethod: r.payment_method,
  }));
}
export type DiffView = Awaited<ReturnType<typeof diffRows>>[number];

/** Differences of the tenant: channel, billDate, billId, kind, state; open ones first, then newest day. */
export async function diffPage(db: Queryable, tenantId: string, params: Params, timeZone: string) {
  const { current, size, offset } = paging(params, 500);
  const search = diffSearch(tenantId, params);
  const total = await diffCount(db, search);
  return page(await diffRows(db, search, size, offset, timeZone), total, current, size);
}
