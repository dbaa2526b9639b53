import type { SqlParams } from "../../crud/sql.ts";

/**
 * The reviewed catalogue reports are built from. A definition names keys of this catalogue only;
 * every piece of SQL text below is fixed here, and every value (tenant, dates, filter values) is
 * bound. Each dataset yields rows aliased `d` with tenant_id, meter_id, energy_type, room_id,
 * owner_id and day (the tenant's calendar day, null when the dataset has no date), plus its numeric
 * and filter columns.
 */

export type GroupKey =
  | "area"
  | "building"
  | "room"
  | "owner"
  | "meter"
  | "day"
  | "month"
  | "energy_type"
  | "payment_method";

export type MeasureFn = "sum" | "count" | "avg" | "max";
export const MEASURE_FNS: readonly MeasureFn[] = ["sum", "count", "avg", "max"];
export const CHART_TYPES = ["bar", "line", "pie", "table"] as const;
export type ChartType = (typeof CHART_TYPES)[number];

/** What a dataset's rows are read with: the bound tenant, time zone and the date range, if any. */
export interface SourceContext {
  sql: SqlParams;
  tenant: string;
  timeZone: string;
  from?: string;
  to?: string;
}

export interface NumericColumn {
  /** Expression over `d`. */
  expr: string;
  /** Integer fen shown as yuan with two decimals. */
  money?: boolean;
  label: { zh: string; en: string };
}

export interface FilterDef {
  /** Expression over `d` compared with the bound value. */
  expr: string;
  /** The values a filter may take (compared as text); anything else is refused. */
  values: readonly string[];
  label: { zh: string; en: string };
  /** How the console names each value. */
  valueLabels: Record<string, { zh: string; en: string }>;
}

export interface Dataset {
  label: { zh: string; en: string };
  /** The subquery aliased `d`, tenant and date range bound inside it. */
  source: (c: SourceContext) => string;
  dated: boolean;
  groups: readonly GroupKey[];
  columns: Record<string, NumericColumn>;
  filters: Record<string, FilterDef>;
}

const RECORDS: NumericColumn = { expr: "1", label: { zh: "记录", en: "Records" } };
/** A filter whose values are the keys of `labels` ([zh, en] each). */
function coded(
  expr: string,
  label: { zh: string; en: string },
  labels: Record<string, [string, string]>,
): FilterDef {
  return {
    expr,
    label,
    values: Object.keys(labels),
    valueLabels: Object.fromEntries(Object.entries(labels).map(([k, [zh, en]]) => [k, { zh, en }])),
  };
}

const ENERGY = coded(
  "d.energy_type::text",
  { zh: "能源类型", en: "Energy" },
  { "1": ["电", "Electricity"], "2": ["水", "Water"] },
);
const PAYMENT_METHOD = coded(
  "d.payment_method::text",
  { zh: "支付方式", en: "Payment method" },
  {
    "0": ["其他", "Other"],
    "1": ["现金", "Cash"],
    "2": ["银联", "UnionPay"],
    "3": ["微信", "WeChat"],
    "4": ["支付宝", "Alipay"],
    "5": ["微信在线支付", "WeChat online"],
  },
);

/** `column >= from and column <= to` on a date column, each bound. */
function dayRange(c: SourceContext, column: string): string {
  const parts: string[] = [];
  if (c.from) parts.push(`${column} >= ${c.sql.bind(c.from)}::date`);
  if (c.to) parts.push(`${column} <= ${c.sql.bind(c.to)}::date`);
  return parts.map((p) => ` and ${p}`).join("");
}

/** The same range on a timestamptz column, day boundaries in the tenant's time zone. */
function timeRange(c: SourceContext, column: string, zone: string): string {
  const parts: string[] = [];
  if (c.from) parts.push(`${column} >= (${c.sql.bind(c.from)}::date::timestamp at time zone ${zone})`);
  if (c.to) parts.push(`${column} < ((${c.sql.bind(c.to)}::date + 1)::timestamp at time zone ${zone})`);
  return parts.map((p) => ` and ${p}`).join("");
}

/** The room a meter is installed in (its live room link). */
const roomOfMeter = (row: string) =>
  `(select x.room_id from pms_room_meter x where x.tenant_id = ${row}.tenant_id and x.meter_id = ${row}.meter_id
     and x.energy_type = ${row}.energy_type and x.is_deleted = 0 order by x.id desc limit 1)`;

export const DATASETS: Record<string, Dataset> = {
  daily_usage: {
    label: { zh: "日用量", en: "Daily usage" },
    dated: true,
    groups: ["area", "building", "room", "meter", "day", "month", "energy_type"],
    columns: { usage: { expr: "d.usage", label: { zh: "用量", en: "Usage" } }, records: RECORDS },
    filters: { energy_type: ENERGY },
    source: (c) => {
      const t = c.sql.bind(c.tenant);
      return `(select tenant_id, meter_id, room_id, null::bigint as owner_id, 1 as energy_type, day_date as day, usage
                 from pms_data_daily where tenant_id = ${t}${dayRange(c, "day_date")}
               union all
               select tenant_id, meter_id, room_id, null::bigint, 2, day_date, usage
                 from pms_water_data_daily where tenant_id = ${t}${dayRange(c, "day_date")}) d`;
    },
  },
  readings: {
    label: { zh: "抄表读数", en: "Readings" },
    dated: true,
    groups: ["area", "building", "room", "meter", "day", "month", "energy_type"],
    columns: {
      total_value: { expr: "d.total_value", label: { zh: "总示值", en: "Total reading" } },
      records: RECORDS,
    },
    filters: { energy_type: ENERGY },
    source: (c) => {
      const t = c.sql.bind(c.tenant);
      const z = c.sql.bind(c.timeZone);
      return `(select tenant_id, meter_id, room_id, null::bigint as owner_id, 1 as energy_type,
                      (read_time at time zone ${z})::date as day, total_value
                 from pms_data_read where tenant_id = ${t} and coalesce(voided, 0) = 0${timeRange(c, "read_time", z)}
               union all
               select tenant_id, meter_id, room_id, null::bigint, 2, (read_time at time zone ${z})::date, total_value
                 from pms_water_data_read where tenant_id = ${t} and coalesce(voided, 0) = 0${timeRange(c, "read_time", z)}) d`;
    },
  },
  recharges: {
    label: { zh: "充值记录", en: "Recharges" },
    dated: true,
    groups: ["area", "building", "room", "owner", "meter", "day", "month", "energy_type", "payment_method"],
    // Money taken and money paid back apart: a refund is never income. `amount` is what stayed
    // (refunds and corrections minus count against it), so a sum over every type is the net.
    columns: {
      income: {
        expr: "(case when d.recharge_type = 1 then d.amount else 0 end)",
        money: true,
        label: { zh: "充值收入(元)", en: "Recharged (yuan)" },
      },
      refund: {
        expr: "(case when d.recharge_type = 2 then d.amount else 0 end)",
        money: true,
        label: { zh: "退费(元)", en: "Refunded (yuan)" },
      },
      amount: {
        expr: "(case when d.recharge_type in (2, 4) then -d.amount else d.amount end)",
        money: true,
        label: { zh: "净额(元)", en: "Net (yuan)" },
      },
      records: RECORDS,
    },
    filters: {
      energy_type: ENERGY,
      payment_method: PAYMENT_METHOD,
      recharge_type: coded(
        "d.recharge_type::text",
        { zh: "充值类型", en: "Type" },
        {
          "1": ["充值", "Recharge"],
          "2": ["退费", "Refund"],
          "3": ["冲正加", "Correction +"],
          "4": ["冲正减", "Correction −"],
        },
      ),
    },
    source: (c) => {
      const z = c.sql.bind(c.timeZone);
      // Booked money only (state 1): waiting for the meter or refused by it is not money taken.
      return `(select r.tenant_id, r.meter_id, a.room_id, r.owner_id, r.energy_type, r.payment_method, r.recharge_type,
                      (r.create_time at time zone ${z})::date as day, r.amount
                 from pms_recharge r left join pms_account a on a.id = r.account_id and a.tenant_id = r.tenant_id
                where r.tenant_id = ${c.sql.bind(c.tenant)} and r.state = 1${timeRange(c, "r.create_time", z)}) d`;
    },
  },
  payments: {
    label: { zh: "支付记录", en: "Payments" },
    dated: true,
    groups: ["area", "building", "room", "owner", "meter", "day", "month", "energy_type", "payment_method"],
    columns: {
      amount: { expr: "d.amount", money: true, label: { zh: "金额(元)", en: "Amount (yuan)" } },
      records: RECORDS,
    },
    filters: { energy_type: ENERGY, payment_method: PAYMENT_METHOD },
    source: (c) => {
      const z = c.sql.bind(c.timeZone);
      return `(select p.tenant_id, p.meter_id, a.room_id, p.owner_id, p.energy_type, p.payment_method,
                      (p.paid_time at time zone ${z})::date as day, p.amount
                 from pms_payment p left join pms_account a on a.id = p.account_id and a.tenant_id = p.tenant_id
                where p.tenant_id = ${c.sql.bind(c.tenant)} and p.state = 1${timeRange(c, "p.paid_time", z)}) d`;
    },
  },
  balances: {
    label: { zh: "账户余额", en: "Balances" },
    dated: false,
    groups: ["area", "building", "room", "owner", "meter", "energy_type"],
    columns: {
      balance: { expr: "d.balance", money: true, label: { zh: "余额(元)", en: "Balance (yuan)" } },
      records: RECORDS,
    },
    filters: {
      energy_type: ENERGY,
      arrears: coded(
        "(case when d.balance < 0 then '1' else '0' end)",
        { zh: "欠费", en: "In arrears" },
        { "1": ["欠费", "In arrears"], "0": ["未欠费", "Not in arrears"] },
      ),
    },
    source: (c) =>
      `(select a.tenant_id, a.meter_id, a.room_id, a.owner_id, a.energy_type, null::date as day, a.balance
          from pms_account a where a.tenant_id = ${c.sql.bind(c.tenant)} and a.status = 1) d`,
  },
  alarms: {
    label: { zh: "告警记录", en: "Alarms" },
    dated: true,
    groups: ["area", "building", "room", "owner", "meter", "day", "month", "energy_type"],
    columns: { records: RECORDS },
    filters: {
      energy_type: ENERGY,
      alarm_status: coded(
        "d.alarm_status::text",
        { zh: "告警状态", en: "Status" },
        { "1": ["告警中", "Alarming"], "2": ["已恢复", "Restored"], "3": ["已关闭", "Closed"] },
      ),
    },
    source: (c) => {
      const z = c.sql.bind(c.timeZone);
      return `(select r.tenant_id, r.meter_id, ${roomOfMeter("r")} as room_id, r.owner_id, r.energy_type, r.alarm_status,
                      (r.create_time at time zone ${z})::date as day
                 from pms_check_record r
                where r.tenant_id = ${c.sql.bind(c.tenant)} and r.is_deleted = 0${timeRange(c, "r.create_time", z)}) d`;
    },
  },
  commands: {
    label: { zh: "表计命令", en: "Meter commands" },
    dated: true,
    groups: ["area", "building", "room", "meter", "day", "month", "energy_type"],
    columns: { records: RECORDS },
    filters: {
      energy_type: ENERGY,
      state: coded(
        "d.state",
        { zh: "命令状态", en: "State" },
        {
          queued: ["排队中", "Queued"],
          sent: ["已发送", "Sent"],
          success: ["成功", "Succeeded"],
          fail: ["失败", "Failed"],
          timeout: ["超时待确认", "Timed out"],
          cancelled: ["已取消", "Cancelled"],
        },
      ),
    },
    source: (c) => {
      const z = c.sql.bind(c.timeZone);
      return `(select m.tenant_id, m.meter_id, ${roomOfMeter("m")} as room_id, null::bigint as owner_id, m.energy_type, m.state,
                      (m.create_time at time zone ${z})::date as day
                 from pms_meter_command m
                where m.tenant_id = ${c.sql.bind(c.tenant)} and m.is_deleted = 0${timeRange(c, "m.create_time", z)}) d`;
    },
  },
  meters: {
    label: { zh: "业主与表计", en: "Owners and meters" },
    dated: false,
    groups: ["area", "building", "room", "owner", "energy_type"],
    columns: { records: RECORDS },
    filters: {
      energy_type: ENERGY,
      online_status: coded(
        "d.online_status::text",
        { zh: "在线状态", en: "Online" },
        { "1": ["在线", "Online"], "0": ["离线", "Offline"] },
      ),
    },
    source: (c) => {
      const t = c.sql.bind(c.tenant);
      // The owner is the one of the meter's open account, when it has one.
      const owner = `(select a.owner_id from pms_account a where a.tenant_id = m.tenant_id and a.meter_id = m.meter_id
                        and a.energy_type = m.energy_type and a.status = 1 order by a.id desc limit 1)`;
      return `(select m.tenant_id, m.meter_id, ${roomOfMeter("m")} as room_id, ${owner} as owner_id, m.energy_type,
                      m.online_status, null::date as day
                 from (select tenant_id, id as meter_id, 1 as energy_type, online_status from pms_meter
                        where tenant_id = ${t} and is_deleted = 0
                       union all
                       select tenant_id, id, 2, online_status from pms_water where tenant_id = ${t} and is_deleted = 0) m) d`;
    },
  },
};

export const GROUP_LABELS: Record<GroupKey, { zh: string; en: string }> = {
  area: { zh: "园区", en: "Area" },
  building: { zh: "楼栋", en: "Building" },
  room: { zh: "房间", en: "Room" },
  owner: { zh: "业主", en: "Owner" },
  meter: { zh: "表计", en: "Meter" },
  day: { zh: "日期", en: "Day" },
  month: { zh: "月份", en: "Month" },
  energy_type: { zh: "能源类型", en: "Energy" },
  payment_method: { zh: "支付方式", en: "Payment method" },
};

/** Labels of coded values, bound as one JSON parameter and looked up in SQL. */
const ENERGY_LABELS = { "1": "电", "2": "水" };
const PAYMENT_LABELS = {
  "0": "其他",
  "1": "现金",
  "2": "银联",
  "3": "微信",
  "4": "支付宝",
  "5": "微信在线支付",
};

/** The joins every dataset shares: room, its area, the building and park above it, owner, meter. */
export const SHARED_JOINS = `
  left join pms_room rm on rm.id = d.room_id and rm.tenant_id = d.tenant_id
  left join pms_area ar on ar.id = rm.area_id and ar.tenant_id = d.tenant_id
  left join lateral (select b.area_name from pms_area b
                      where b.tenant_id = ar.tenant_id and b.area_type = 2
                        and (b.id = ar.id or (',' || ar.ancestors || ',') like '%,' || b.id || ',%')
                      order by length(b.ancestors) desc limit 1) bld on true
  left join lateral (select p.area_name from pms_area p
                      where p.tenant_id = ar.tenant_id and p.parent_id = 0
                        and (p.id = ar.id or (',' || ar.ancestors || ',') like '%,' || p.id || ',%') limit 1) park on true
  left join pms_owner ow on ow.id = d.owner_id and ow.tenant_id = d.tenant_id
  left join pms_meter em on d.energy_type = 1 and em.id = d.meter_id and em.tenant_id = d.tenant_id
  left join pms_water wm on d.energy_type = 2 and wm.id = d.meter_id and wm.tenant_id = d.tenant_id`;

/** A group key's value as text over `d` and the shared joins. */
export function groupExpression(key: GroupKey, sql: SqlParams): string {
  switch (key) {
    case "area":
      return "coalesce(park.area_name, ar.area_name)";
    case "building":
      return "coalesce(bld.area_name, ar.area_name)";
    case "room":
      return "rm.room_name";
    case "owner":
      return "ow.owner_name";
    case "meter":
      return "coalesce(em.product_code, wm.product_code)";
    case "day":
      return "to_char(d.day, 'YYYY-MM-DD')";
    case "month":
      return "to_char(d.day, 'YYYY-MM')";
    case "energy_type":
      return `(${sql.bind(JSON.stringify(ENERGY_LABELS))}::jsonb ->> d.energy_type::text)`;
    case "payment_method":
      return `coalesce(${sql.bind(JSON.stringify(PAYMENT_LABELS))}::jsonb ->> d.payment_method::text, d.payment_method::text)`;
  }
}
