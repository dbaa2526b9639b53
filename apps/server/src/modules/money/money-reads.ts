import { fenToYuan } from "@meterline/billing";
import type { OwnerWithAccounts } from "@meterline/contracts";
import { formatDateTime } from "../../contract/dates.ts";
import { page } from "../../contract/envelope.ts";
import { badParam } from "../../contract/errors.ts";
import { optionalId, optionalString, paging } from "../../contract/params.ts";
import { SqlParams } from "../../crud/sql.ts";
import type { Queryable } from "../../db/client.ts";
import { areaSubtree } from "../pms/registry.hooks.ts";
import { roomLabelSql } from "../pms/room-label.ts";
import { meterCodeJoin } from "./account.repository.ts";
import { ACCOUNT_DESK_COLUMNS, type AccountDeskRow, accountDeskFields } from "./account-desk-reads.ts";

type Params = Record<string, unknown>;
export const like = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
/** "Contains" filters of a money search: each named parameter given narrows its column (escaped, bound). */
export function containsFilters(
  params: Params,
  sql: SqlParams,
  where: string[],
  columns: readonly (readonly [name: string, column: string])[],
) {
  for (const [name, column] of columns) {
    const value = optionalString(params, name)?.trim();
    if (value) where.push(`${column} like ${sql.bind(like(value))}`);
  }
}

export const yuan = (fen: string | null) => (fen === null ? null : fenToYuan(BigInt(fen)));

export function smallInt(params: Params, name: string, max: number): number | undefined {
  const text = optionalString(params, name);
  if (text === undefined) return undefined;
  if (!/^\d{1,2}$/.test(text) || Number(text) > max) throw badParam(name);
  return Number(text);
}

/** `startTime` / `endTime` (yyyy-MM-dd, or with HH:mm:ss) in the tenant's zone, on `column`. */
export function timeRange(params: Params, sql: SqlParams, column: string, timeZone: string, where: string[]) {
  for (const [name, op] of [
    ["startTime", ">="],
    ["endTime", "<="],
  ] as const) {
    const value = optionalString(params, name);
    if (value === undefined) continue;
    if (!/^\d{4}-\d{2}-\d{2}( \d{2}:\d{2}:\d{2})?$/.test(value)) throw badParam(name);
    const at = value.length === 10 ? `${value} ${op === ">=" ? "00:00:00" : "23:59:59"}` : value;
    where.push(`${column} ${op} (${sql.bind(at)}::timestamp at time zone ${sql.bind(timeZone)})`);
  }
}

/** The tenant condition of a money search on `column`: every tenant for null (the platform administrator). */
export const tenantCondition = (tenantId: string | null, sql: SqlParams, column: string) =>
  tenantId === null ? "true" : `${column} = ${sql.bind(tenantId)}`;

/** Whose a row is, named in the list's own statement (a subselect on the live tenant). */
export const tenantNameOf = (alias: string) =>
  `${alias}.tenant_id, (select tn.tenant_name from sys_tenant tn
     where tn.tenant_id = ${alias}.tenant_id and tn.is_deleted = 0) as tenant_name,
   (select tn.logo_url from sys_tenant tn where tn.tenant_id = ${alias}.tenant_id and tn.is_deleted = 0) as tenant_logo`;

/** The tenant's code and name of a row, as the console's tenant column reads them. */
export const tenantOfRow = (row: {
  tenant_id: string;
  tenant_name: string | null;
  tenant_logo?: string | null;
}) => ({
  tenantId: row.tenant_id,
  tenantName: row.tenant_name ?? row.tenant_id,
  /** The site's logo (the tenant's upload) printed on receipts beside its name; empty when none. */
  tenantLogo: row.tenant_logo ?? "",
});

/**
 * `roomId` (one room) and `areaId` (an area and every area below it) on `roomColumn`, the room an
 * account was opened in: the money screens filter by place like the registry's.
 */
export function placeFilter(params: Params, sql: SqlParams, roomColumn: string, where: string[]) {
  const roomId = optionalId(params, "roomId");
  if (roomId) where.push(`${roomColumn} = ${sql.bind(roomId)}::bigint`);
  const areaId = optionalId(params, "areaId");
  if (areaId)
    where.push(
      `${roomColumn} in (select pr.id from pms_room pr where pr.area_id in (${areaSubtree(sql.bind(areaId))}))`,
    );
}

export interface RechargeRow {
  id: string;
  tenant_id: string;
  tenant_name: string | null;
  account_id: string;
  owner_id: string;
  owner_name: string | null;
  phone: string | null;
  room_name: string | null;
  area_name: string | null;
  energy_type: number;
  meter_id: string;
  product_code: string | null;
  recharge_type: number;
  payment_method: number;
  amount: string;
  balance_after: string | null;
  state: number;
  receipt_no: string;
  operator: string;
  remark: string;
  create_time: Date;
  approval_instance_id: string | null;
  approval_note: string | null;
}

const RECHARGE_FROM = `from pms_recharge r
  left join pms_owner o on o.tenant_id = r.tenant_id and o.id = r.owner_id
  left join pms_account ra on ra.tenant_id = r.tenant_id and ra.id = r.account_id
  left join pms_room rr on rr.tenant_id = r.tenant_id and rr.id = ra.room_id
  left join pms_area rar on rar.tenant_id = r.tenant_id and rar.id = rr.area_id
  ${meterCodeJoin("r", "m")}`;

export const rechargeView = (r: RechargeRow, timeZone: string) => ({
  id: r.id,
  ...tenantOfRow(r),
  accountId: r.account_id,
  ownerId: r.owner_id,
  ownerName: r.owner_name ?? "",
  phone: r.phone ?? "",
  roomName: r.room_name ?? "",
  areaName: r.area_name ?? "",
  energyType: r.energy_type,
  meterId: r.meter_id,
  productCode: r.product_code ?? "",
  rechargeType: r.recharge_type,
  paymentMethod: r.payment_method,
  amount: yuan(r.amount),
  balanceAfter: yuan(r.balance_after),
  state: r.state,
  receiptNo: r.receipt_no,
  operator: r.operator,
  remark: r.remark,
  createTime: formatDateTime(r.create_time, timeZone),
  // A refund or correction minus held for approval (state 3) or rejected (4, with the reason).
  processInstanceId: r.approval_instance_id ?? "",
  approvalNote: r.approval_note ?? "",
});

const RECHARGE_COLUMNS = `r.id::text as id, r.account_id::text as account_id, r.owner_id::text as owner_id, o.owner_name, o.phone,
  ${roomLabelSql("rr")} as room_name, rar.area_name, r.energy_type, r.meter_id::text as meter_id, m.product_code, r.recharge_type, r.payment_method, r.amount::text as amount,
  r.balance_after::text as balance_after, r.state, r.receipt_no, r.operator, r.remark, r.create_time,
  r.approval_instance_id::text as approval_instance_id, r.approval_note, ${tenantNameOf("r")}`;

/**
 * The search of datarecharge/page and its export: filters ownerName, phone, productCode, receiptNo,
 * ownerId, meterId, accountId, energyType, rechargeType, paymentMethod, areaId, roomId, and a
 * create-time range (startTime, endTime). Bad filters answer 400 naming the parameter.
 */
export function rechargeSearch(tenantId: string | null, params: Params, timeZone: string) {
  const sql = new SqlParams();
  const where = [tenantCondition(tenantId, sql, "r.tenant_id")];
  containsFilters(params, sql, where, [
    ["ownerName", "o.owner_name"],
    ["phone", "o.phone"],
    ["productCode", "m.product_code"],
    ["receiptNo", "r.receipt_no"],
  ]);
  for (const [name, column] of [
    ["ownerId", "r.owner_id"],
    ["meterId", "r.meter_id"],
    ["accountId", "r.account_id"],
    ["paymentId", "r.payment_id"],
  ] as const) {
    const id = optionalId(params, name);
    if (id) where.push(`${column} = ${sql.bind(id)}::bigint`);
  }
  for (const [name, column, max] of [
    ["energyType", "r.energy_type", 2],
    ["rechargeType", "r.recharge_type", 4],
    ["paymentMethod", "r.payment_method", 5],
  ] as const) {
    const value = smallInt(params, name, max);
    if (value !== undefined) where.push(`${column} = ${sql.bind(value)}`);
  }
  timeRange(params, sql, "r.create_time", timeZone, where);
  placeFilter(params, sql, "ra.room_id", where);
  return { sql, filter: `${RECHARGE_FROM} where ${where.join(" and ")}` };
}

export type Search = ReturnType<typeof rechargeSearch>;

/** The count and the money in (recharges, corrections plus) and out of a recharge search, in one pass. */
export async function rechargeTotals(db: Queryable, { sql, filter }: Search) {
  const [totals] = await db.query<{
    n: string;
    credit: string;
    debit: string;
    income: string;
    refund: string;
  }>(
    `select count(*)::text as n,
            coalesce(sum(r.amount) filter (where r.recharge_type in (1, 3) and r.state = 1), 0)::text as credit,
            coalesce(sum(r.amount) filter (where r.recharge_type in (2, 4) and r.state = 1), 0)::text as debit,
            coalesce(sum(r.amount) filter (where r.recharge_type = 1 and r.state = 1), 0)::text as income,
            coalesce(sum(r.amount) filter (where r.recharge_type = 2 and r.state = 1), 0)::text as refund
       ${filter}`,
    sql.values,
  );
  const income = BigInt(totals?.income ?? "0");
  const refund = BigInt(totals?.refund ?? "0");
  // Corrections plus less corrections minus: what the ledger moved besides recharges and refunds.
  const correction = BigInt(totals?.credit ?? "0") - income - (BigInt(totals?.debit ?? "0") - refund);
  return {
    count: Number(totals?.n ?? 0),
    credit: yuan(totals?.credit ?? "0"),
    debit: yuan(totals?.debit ?? "0"),
    // Recharges taken, refunds paid back and what stayed, apart: corrections are neither.
    income: fenToYuan(income),
    refund: fenToYuan(refund),
    net: fenToYuan(income - refund),
    correction: fenToYuan(correction),
  };
}

/** Rows of a recharge search, newest first, from `offset`. */
export function rechargeRows(db: Queryable, { sql, filter }: Search, limit: number, offset: number) {
  const values = [...sql.values, limit, offset];
  return db.query<RechargeRow>(
    `select ${RECHARGE_COLUMNS} ${filter} order by r.create_time desc, r.id desc
      limit $${values.length - 1} offset $${values.length}`,
    values,
  );
}

/** Recharges, refunds and corrections (spec §7 datarecharge/page) with owner, meter and place joined and totals. */
export async function rechargePage(db: Queryable, tenantId: string | null, params: Params, timeZone: string) {
  const { current, size, offset } = paging(params);
  const search = rechargeSearch(tenantId, params, timeZone);
  const totals = await rechargeTotals(db, search);
  const rows = await rechargeRows(db, search, size, offset);
  return {
    ...page(
      rows.map((r) => rechargeView(r, timeZone)),
      totals.count,
      current,
      size,
    ),
    totals: {
      credit: totals.credit,
      debit: totals.debit,
      income: totals.income,
      refund: totals.refund,
      net: totals.net,
      correction: totals.correction,
    },
  };
}

export async function rechargeDetail(db: Queryable, tenantId: string, id: string, timeZone: string) {
  // The payment's transaction number (a scanned code's WeChat Pay or Alipay number) goes on the receipt.
  const [row] = await db.query<RechargeRow & { transaction_no: string | null }>(
    `select ${RECHARGE_COLUMNS},
            (select p.transaction_no from pms_payment p where p.id = r.payment_id and p.tenant_id = r.tenant_id)
              as transaction_no
       ${RECHARGE_FROM} where r.tenant_id = $1 and r.id = $2`,
    [tenantId, id],
  );
  return row ? { ...rechargeView(row, timeZone), transactionNo: row.transaction_no ?? "" } : undefined;
}

interface OwnerAccountsRow {
  id: string;
  tenant_id: string;
  tenant_name: string | null;
  owner_name: string;
  owner_code: string | null;
  phone: string | null;
  balance: string;
  accounts: {
    id: string;
    energy_type: number;
    meter_id: string;
    product_code: string | null;
    room_name: string | null;
    control_status: number;
    balance: string;
    alarm_level: number;
    arrears_status: number;
  }[];
}

/** An owner and every open account with its meter and room, as the counter shows them (alias `o`). */
const OWNER_ACCOUNTS_COLUMNS = `o.id::text as id, o.owner_name, o.owner_code, o.phone, o.balance::text as balance, ${tenantNameOf("o")},
  coalesce((select json_agg(json_build_object(
      'id', a.id::text, 'energy_type', a.energy_type, 'meter_id', a.meter_id::text,
      'product_code', mm.product_code, 'room_name', ${roomLabelSql("rr")}, 'control_status', a.control_status,
      'balance', a.balance::text, 'alarm_level', a.alarm_level, 'arrears_status', a.arrears_status)
      order by a.energy_type, mm.product_code)
     from pms_account a
     left join pms_room rr on rr.id = a.room_id
     ${meterCodeJoin("a", "mm")}
    where a.owner_id = o.id and a.status = 1), '[]'::json) as accounts`;

const ownerWithAccounts = (o: OwnerAccountsRow): OwnerWithAccounts => ({
  id: o.id,
  ...tenantOfRow(o),
  ownerName: o.owner_name,
  ownerCode: o.owner_code ?? "",
  phone: o.phone ?? "",
  balance: o.balance,
  alarmLevel: Math.max(0, ...o.accounts.map((a) => a.alarm_level)),
  accounts: o.accounts.map((a) => ({
    id: a.id,
    energyType: a.energy_type,
    meterId: a.meter_id,
    productCode: a.product_code ?? "",
    roomName: a.room_name ?? "",
    controlStatus: a.control_status,
    balance: yuan(a.balance) ?? "0.00",
    alarmLevel: a.alarm_level,
    arrearsStatus: a.arrears_status,
  })),
});

/** The owners of `ids` with their open accounts (any tenant: the caller has checked whose they are), by id. */
export async function ownersWithAccounts(
  db: Queryable,
  ids: string[],
): Promise<Map<string, OwnerWithAccounts>> {
  if (ids.length === 0) return new Map();
  const rows = await db.query<OwnerAccountsRow>(
    `select ${OWNER_ACCOUNTS_COLUMNS} from pms_owner o where o.id = any($1::bigint[])`,
    [ids],
  );
  return new Map(rows.map((row) => [row.id, ownerWithAccounts(row)]));
}

/**
 * Owners with their open accounts (spec §7 ownerRecharge/page): the front desk's view of who holds
 * how much on which meter. Filters: ownerName, phone, roomName, productCode (each contains), one
 * search box `keyword` across all four, alarmLevel. A null tenant (the platform administrator naming
 * none) reads every tenant's owners, each row saying whose it is, as the other money lists do.
 */
export async function ownerAccountsPage(db: Queryable, tenantId: string | null, params: Params) {
  const { current, size, offset } = paging(params);
  const sql = new SqlParams();
  const where = [tenantCondition(tenantId, sql, "o.tenant_id"), "o.is_deleted = 0"];
  const keyword = optionalString(params, "keyword")?.trim();
  const accountMatch = (condition: string) =>
    `exists (select 1 from pms_account a
       left join pms_room rr on rr.id = a.room_id
       ${meterCodeJoin("a", "mm")}
      where a.owner_id = o.id and a.status = 1 and ${condition})`;
  if (keyword) {
    const k = sql.bind(like(keyword));
    where.push(
      `(o.owner_name like ${k} or o.phone like ${k} or ${accountMatch(`(rr.room_name like ${k} or mm.product_code like ${k})`)})`,
    );
  }
  containsFilters(params, sql, where, [
    ["ownerName", "o.owner_name"],
    ["phone", "o.phone"],
  ]);
  const roomName = optionalString(params, "roomName")?.trim();
  if (roomName) where.push(accountMatch(`rr.room_name like ${sql.bind(like(roomName))}`));
  const productCode = optionalString(params, "productCode")?.trim();
  if (productCode) where.push(accountMatch(`mm.product_code like ${sql.bind(like(productCode))}`));
  const level = smallInt(params, "alarmLevel", 3);
  if (level !== undefined) where.push(accountMatch(`a.alarm_level = ${sql.bind(level)}`));
  const place: string[] = [];
  placeFilter(params, sql, "a.room_id", place);
  if (place.length > 0) where.push(accountMatch(place.join(" and ")));
  const filter = `from pms_owner o where ${where.join(" and ")}`;
  const [count] = await db.query<{ n: string }>(`select count(*)::text as n ${filter}`, sql.values);
  const rows = await db.query<OwnerAccountsRow>(
    `select ${OWNER_ACCOUNTS_COLUMNS} ${filter} order by o.owner_name, o.id
      limit ${sql.bind(size)} offset ${sql.bind(offset)}`,
    sql.values,
  );
  const records = rows.map(ownerWithAccounts);
  return page(records, Number(count?.n ?? 0), current, size);
}

interface AccountOperationRow extends AccountDeskRow {
  id: string;
  tenant_id: string;
  tenant_name: string | null;
  owner_id: string;
  owner_name: string | null;
  room_name: string | null;
  energy_type: number;
  meter_id: string;
  product_code: string | null;
  control_status: number;
  at: Date;
  operator: string | null;
  amount: string;
  balance: string;
  status: number;
  close_state: number | null;
  close_outcome: string | null;
  held_refund: string | null;
}

/**
 * Account openings (dataopenaccount/page) or closings (datacloseaccount/page) with their outcome:
 * the opening deposit, or the closing refund and the debt left, and the totals of the whole search
 * (`deposit`; `refund` and `debt`). Filters: ownerName, productCode, energyType, areaId, roomId and
 * a time range (startTime, endTime) on the opening or closing time.
 */
export async function accountOperationsPage(
  db: Queryable,
  tenantId: string | null,
  params: Params,
  closing: boolean,
  timeZone: string,
) {
  const { current, size, offset } = paging(params);
  const search = accountOperationsSearch(tenantId, params, closing, timeZone);
  // One pass for the count and the sums of the whole search: deposits taken, or refunds paid and debts left.
  const [sums] = await db.query<{ n: string; amount: string; debt: string }>(
    `select count(*)::text as n,
            coalesce(sum((select abs(l.amount) from pms_ledger l where l.account_id = a.id
                           and l.entry_type = ${search.entryType} order by l.create_time limit 1)), 0)::text as amount,
            coalesce(sum(-a.balance) filter (where a.balance < 0 and a.status = 2), 0)::text as debt
       ${search.from}`,
    search.sql.values,
  );
  const records = await accountOperationRows(db, search, size, offset, timeZone);
  const amount = yuan(sums?.amount ?? "0");
  return {
    ...page(records, Number(sums?.n ?? 0), current, size),
    totals: closing ? { refund: amount, debt: yuan(sums?.debt ?? "0") } : { deposit: amount },
  };
}

/** The search of the openings or closings page and its export. */
export function accountOperationsSearch(
  tenantId: string | null,
  params: Params,
  closing: boolean,
  timeZone: string,
) {
  const sql = new SqlParams();
  // A closing still waiting for its meter's clearing, or refused by it, is listed from its request,
  // and one waiting for a second person's approval (pms_close_hold, at most one per account) from its hold.
  const time = closing ? "coalesce(a.closed_time, a.close_requested_time, h.create_time)" : "a.opened_time";
  const where = [
    tenantCondition(tenantId, sql, "a.tenant_id"),
    closing ? "(a.status = 2 or a.close_state is not null or h.id is not null)" : "true",
  ];
  const ownerName = optionalString(params, "ownerName")?.trim();
  if (ownerName) where.push(`o.owner_name like ${sql.bind(like(ownerName))}`);
  const productCode = optionalString(params, "productCode")?.trim();
  if (productCode) where.push(`m.product_code like ${sql.bind(like(productCode))}`);
  const energyType = smallInt(params, "energyType", 2);
  if (energyType !== undefined) where.push(`a.energy_type = ${sql.bind(energyType)}`);
  const accountId = optionalId(params, "accountId");
  if (accountId) where.push(`a.id = ${sql.bind(accountId)}::bigint`);
  timeRange(params, sql, time, timeZone, where);
  placeFilter(params, sql, "a.room_id", where);
  const entryType = closing ? 8 : 1;
  const waitingHold = closing
    ? "left join pms_close_hold h on h.tenant_id = a.tenant_id and h.account_id = a.id and h.state = 3"
    : "";
  const from = `from pms_account a
    ${waitingHold}
    left join pms_owner o on o.id = a.owner_id
    left join pms_room r on r.id = a.room_id
    ${meterCodeJoin("a", "m")}
    left join sys_user u on u.id = ${closing ? "a.close_user" : "a.open_user"}
    where ${where.join(" and ")}`;
  return { sql, from, time, entryType, closing };
}

/**
 * The receipt number of an opening (K, 开户) or a closing (X, 销户), like a recharge's (R): the day
 * it was done in the site's zone and the account's id. An account opens and closes once, so the
 * number is unique per tenant and the same on every reprint (a closing has it once it is done).
 */
export const accountOperationReceiptNo = (closing: boolean, at: string, accountId: string) =>
  `${closing ? "X" : "K"}${at.slice(0, 10).replaceAll("-", "")}${accountId.slice(-10)}`;

/** Openings or closings of a search, newest first, from `offset`, as the page shows them. */
export async function accountOperationRows(
  db: Queryable,
  search: ReturnType<typeof accountOperationsSearch>,
  limit: number,
  offset: number,
  timeZone: string,
) {
  const { sql, from, time, entryType, closing } = search;
  const values = [...sql.values, limit, offset];
  const rows = await db.query<AccountOperationRow>(
    `select a.id::text as id, a.owner_id::text as owner_id, o.owner_name, ${roomLabelSql("r")} as room_name, a.energy_type,
            a.meter_id::text as meter_id, m.product_code, a.control_status, ${time} as at,
            coalesce(u.real_name, ${closing ? "nullif(h.operator, '')" : "null"}) as operator,
            coalesce((select abs(l.amount) from pms_ledger l where l.account_id = a.id and l.entry_type = ${entryType}
                       order by l.create_time limit 1), 0)::text as amount,
            a.balance::text as balance, a.status, a.close_state, a.close_outcome, ${tenantNameOf("a")},
            ${closing ? "h.amount::text" : "null"} as held_refund,
            ${ACCOUNT_DESK_COLUMNS}
       ${from} order by ${time} desc, a.id desc limit $${values.length - 1} offset $${values.length}`,
    values,
  );
  return rows.map((r) => ({
    id: r.id,
    ...tenantOfRow(r),
    receiptNo: accountOperationReceiptNo(closing, formatDateTime(r.at, timeZone), r.id),
    ownerId: r.owner_id,
    ownerName: r.owner_name ?? "",
    roomName: r.room_name ?? "",
    energyType: r.energy_type,
    meterId: r.meter_id,
    productCode: r.product_code ?? "",
    controlStatus: r.control_status,
    operator: r.operator ?? "",
    ...(closing
      ? {
          closeTime: formatDateTime(r.at, timeZone),
          // A closing waiting for approval shows the refund it asks for; nothing is booked yet.
          refund: r.held_refund !== null ? yuan(r.held_refund) : yuan(r.amount),
          debt: r.status === 2 && BigInt(r.balance) < 0n ? yuan((-BigInt(r.balance)).toString()) : "0.00",
          // 1 closed, 0 waiting for the meter to confirm its clearing, 2 the meter refused or was not
          // reached (still open), 3 waiting for a second person's approval (still open).
          closeState: r.held_refund !== null ? 3 : (r.close_state ?? 1),
          closeOutcome: r.close_outcome ?? "",
        }
      : { openTime: formatDateTime(r.at, timeZone), deposit: yuan(r.amount) }),
    ...accountDeskFields(r, closing, timeZone),
  }));
}

/** One opening or closing (an account's), by the account's id; undefined when the tenant has none such. */
export async function accountOperationDetail(
  db: Queryable,
  tenantId: string,
  accountId: string,
  closing: boolean,
  timeZone: string,
) {
  const search = accountOperationsSearch(tenantId, { accountId }, closing, timeZone);
  const [record] = await accountOperationRows(db, search, 1, 0, timeZone);
  return record;
}
