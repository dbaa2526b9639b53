import type {
  DetailAlarm,
  DetailCommand,
  DetailMeter,
  DetailReading,
  DetailRecharge,
  DetailUsage,
  EnergyType,
} from "@meterline/contracts";
import { formatDateTime } from "../../contract/dates.ts";
import type { Queryable } from "../../db/client.ts";
import { expectedWakeSql } from "../iot-platform/platform-commands.db.ts";
import { daysBack, localDay, monthsBack } from "../metering/usage-periods.ts";
import { yuan } from "../money/money-reads.ts";
import { COMMAND_WORDS_COLUMNS, commandWordsJoins } from "../operations/command-words.ts";

/** How many recent readings, commands and recharges a detail page lists. */
export const RECENT_ROWS = 10;
const USAGE_DAYS = 30;
const USAGE_MONTHS = 12;

/** A meter named by its kind and id; the meter ids of the two kinds are separate sequences. */
export interface MeterKey {
  energyType: EnergyType;
  id: string;
}

/**
 * The areas of area `alias` from the park down, joined by " / " ("阳光园区 / 2号楼"): the
 * ancestors column lists the ids above it, top first.
 */
export const areaPathOf = (alias: string) =>
  `(select string_agg(pa.area_name, ' / ' order by array_position(string_to_array(${alias}.ancestors || ',' || ${alias}.id::text, ','), pa.id::text))
      from pms_area pa
     where pa.id::text = any(string_to_array(${alias}.ancestors || ',' || ${alias}.id::text, ',')) and pa.is_deleted = 0)`;

const time = (value: Date | string | null, timeZone: string) =>
  value === null ? null : formatDateTime(value instanceof Date ? value : new Date(value), timeZone);

interface MeterRow {
  energy_type: number;
  id: string;
  product_code: string;
  meter_name: string | null;
  run_status: number;
  account_status: number;
  switch_status: number;
  online_status: number;
  collector_id: string | null;
  collector_name: string | null;
  room_id: string | null;
  room_name: string | null;
  area_path: string | null;
  read_time: Date | null;
  total_value: string | null;
  live_balance: string | null;
  live_switch: number | null;
  account_id: string | null;
  owner_id: string | null;
  owner_name: string | null;
  account_status_now: number | null;
  account_balance: string | null;
  alarm_level: number | null;
  arrears_status: number | null;
  control_status: number | null;
  forecast_days: number | null;
  forecast_day: string | null;
  extra: Record<string, unknown> | null;
}

/**
 * The meters the `targets` select names (columns energy_type, meter_id; binds from $2 on), of
 * tenant $1, each with its collector, room and area path, live reading and account (the open one,
 * else the latest closed): one query whatever the number of meters.
 */
export async function metersOf(
  db: Queryable,
  tenantId: string,
  targets: string,
  binds: unknown[],
  timeZone: string,
): Promise<(DetailMeter & { extra: Record<string, unknown> })[]> {
  const rows = await db.query<MeterRow>(
    `with targets as (${targets})
     select m.energy_type, m.id::text as id, m.product_code, m.meter_name, m.run_status, m.account_status,
            m.switch_status, m.online_status, m.collector_id::text as collector_id, c.collector_name,
            r.id::text as room_id, r.room_name, ${areaPathOf("ar")} as area_path,
            cd.read_time, cd.total_value::text as total_value, cd.balance::text as live_balance,
            cd.switch_status as live_switch,
            a.id::text as account_id, a.owner_id::text as owner_id, o.owner_name, a.status as account_status_now,
            a.balance::text as account_balance, a.alarm_level, a.arrears_status, a.control_status, m.extra,
            case when a.balance <= fw.forecast_balance then fw.forecast_days end as forecast_days,
            to_char(fw.forecast_day, 'YYYY-MM-DD') as forecast_day
       from (select distinct energy_type, meter_id from targets) t
       join lateral (
            select 1 as energy_type, e.id, e.tenant_id, e.product_code, e.meter_name, e.run_status, e.account_status,
                   e.switch_status, e.online_status, e.collector_id,
                   json_build_object('protocol', e.protocol, 'meterType', e.meter_type, 'controlStatus', e.control_status,
                     'ctRatio', e.ct_ratio, 'channel', e.channel,
                     'modbusModel', e.modbus_model, 'modbusSlave', e.modbus_slave,
                     'chargingSchemeName', (select s.scheme_name from pms_charging_scheme s where s.id = e.charging_scheme_id),
                     'alarmSchemeName', (select s.scheme_name from pms_alarm_scheme s where s.id = e.alarm_scheme_id),
                     'installTime', e.install_time, 'remark', e.remark) as extra
              from pms_meter e where t.energy_type = 1 and e.id = t.meter_id and e.is_deleted = 0
            union all
            select 2, w.id, w.tenant_id, w.product_code, w.meter_name, w.run_status, w.account_status,
                   w.switch_status, w.online_status, w.collector_id,
                   json_build_object('protocol', w.protocol, 'meterType', null, 'controlStatus', null,
                     'ctRatio', null, 'channel', w.channel,
                     'chargingSchemeName', (select s.scheme_name from pms_charging_scheme s where s.id = w.charging_scheme_id),
                     'alarmSchemeName', (select s.scheme_name from pms_alarm_scheme s where s.id = w.alarm_scheme_id),
                     'installTime', w.install_time, 'remark', w.remark)
              from pms_water w where t.energy_type = 2 and w.id = t.meter_id and w.is_deleted = 0
       ) m on m.tenant_id = $1
       left join pms_collector c on c.id = m.collector_id and c.is_deleted = 0
       left join pms_room_meter rm on rm.meter_id = m.id and rm.energy_type = m.energy_type and rm.is_deleted = 0
       left join pms_room r on r.id = rm.room_id and r.is_deleted = 0
       left join pms_area ar on ar.id = r.area_id
       left join pms_meter_current_data cd on cd.meter_id = m.id and cd.energy_type = m.energy_type
       left join lateral (select * from pms_account x where x.meter_id = m.id and x.energy_type = m.energy_type
                           order by x.status, x.id desc limit 1) a on true
       left join pms_owner o on o.id = a.owner_id
       left join pms_forecast_warning fw on fw.tenant_id = $1 and fw.account_id = a.id and a.status = 1
      order by m.energy_type, m.product_code`,
    [tenantId, ...binds],
  );
  return rows.map((row) => {
    const energyType = row.energy_type as EnergyType;
    return {
      id: row.id,
      energyType,
      productCode: row.product_code,
      meterName: row.meter_name ?? "",
      runStatus: row.run_status,
      accountStatus: row.account_status,
      switchStatus: row.switch_status,
      onlineStatus: row.online_status,
      collectorId: row.collector_id,
      collectorName: row.collector_name ?? "",
      roomId: row.room_id,
      roomName: row.room_name ?? "",
      areaPath: row.area_path ?? "",
      reading:
        row.read_time && row.total_value !== null
          ? {
              readTime: time(row.read_time, timeZone) ?? "",
              totalValue: row.total_value,
              balance: row.live_balance,
              switchStatus: row.live_switch,
            }
          : null,
      account: row.account_id
        ? {
            id: row.account_id,
            ownerId: row.owner_id ?? "",
            ownerName: row.owner_name ?? "",
            energyType,
            meterId: row.id,
            productCode: row.product_code,
            status: row.account_status_now ?? 0,
            balance: yuan(row.account_balance) ?? "0.00",
            alarmLevel: row.alarm_level ?? 0,
            arrearsStatus: row.arrears_status ?? 0,
            controlStatus: row.control_status ?? 0,
            ...(row.forecast_days && row.forecast_day
              ? { forecast: { days: row.forecast_days, day: row.forecast_day } }
              : {}),
          }
        : null,
      extra: row.extra ?? {},
    };
  });
}

const idsOf = (meters: readonly MeterKey[], energyType: EnergyType) =>
  meters.filter((m) => m.energyType === energyType).map((m) => m.id);

/** The newest polls of the meters, both kinds, newest first. */
export async function recentReadings(
  db: Queryable,
  tenantId: string,
  meters: readonly MeterKey[],
  timeZone: string,
): Promise<DetailReading[]> {
  if (meters.length === 0) return [];
  const rows = await db.query<{
    meter_id: string;
    energy_type: number;
    product_code: string;
    read_time: Date;
    total_value: string;
    balance: string | null;
    switch_status: number | null;
  }>(
    `select * from (
       (select meter_id::text, 1 as energy_type, product_code, read_time, total_value::text, balance::text, switch_status
          from pms_data_read where tenant_id = $1 and meter_id = any($2::bigint[]) order by read_time desc limit $4)
       union all
       (select meter_id::text, 2, product_code, read_time, total_value::text, null, switch_status
          from pms_water_data_read where tenant_id = $1 and meter_id = any($3::bigint[]) order by read_time desc limit $4)
     ) reads order by read_time desc limit $4`,
    [tenantId, idsOf(meters, 1), idsOf(meters, 2), RECENT_ROWS],
  );
  return rows.map((r) => ({
    meterId: r.meter_id,
    energyType: r.energy_type as EnergyType,
    productCode: r.product_code,
    readTime: time(r.read_time, timeZone) ?? "",
    totalValue: r.total_value,
    balance: r.balance,
    switchStatus: r.switch_status,
  }));
}

/** The newest commands sent to the meters, newest first. */
export async function recentCommands(
  db: Queryable,
  tenantId: string,
  meters: readonly MeterKey[],
  timeZone: string,
): Promise<DetailCommand[]> {
  if (meters.length === 0) return [];
  const rows = await db.query<{
    id: string;
    meter_id: string;
    energy_type: number;
    product_code: string;
    command_type: string;
    action_name: string | null;
    action_name_en: string | null;
    why_name: string | null;
    why_name_en: string | null;
    state: string;
    create_time: Date;
    done_time: Date | null;
    platform_state: string | null;
    expected_wake: Date | null;
  }>(
    `select c.id::text, c.meter_id::text, c.energy_type, c.product_code, c.command_type, ${COMMAND_WORDS_COLUMNS},
            c.state, c.create_time, c.done_time, c.platform_state, ${expectedWakeSql("c")} as expected_wake
       from pms_meter_command c
       ${commandWordsJoins("c")}
      where c.tenant_id = $1
        and ((c.energy_type = 1 and c.meter_id = any($2::bigint[])) or (c.energy_type = 2 and c.meter_id = any($3::bigint[])))
      order by c.create_time desc, c.id desc limit $4`,
    [tenantId, idsOf(meters, 1), idsOf(meters, 2), RECENT_ROWS],
  );
  return rows.map((r) => ({
    id: r.id,
    meterId: r.meter_id,
    energyType: r.energy_type as EnergyType,
    productCode: r.product_code,
    commandType: r.command_type,
    actionName: r.action_name ?? "",
    actionNameEn: r.action_name_en ?? "",
    whyName: r.why_name ?? "",
    whyNameEn: r.why_name_en ?? "",
    state: r.state,
    createTime: time(r.create_time, timeZone) ?? "",
    doneTime: time(r.done_time, timeZone),
    platformState: r.platform_state,
    expectedWake: time(r.expected_wake, timeZone),
  }));
}

/**
 * The alarms still open on the meters (check records alarming), newest first: what the page's
 * subject needs looked at now. Restored and closed records stay in 告警记录.
 */
export async function openAlarms(
  db: Queryable,
  tenantId: string,
  meters: readonly MeterKey[],
  timeZone: string,
): Promise<DetailAlarm[]> {
  if (meters.length === 0) return [];
  const rows = await db.query<{
    id: string;
    meter_id: string;
    energy_type: number;
    product_code: string;
    rule_code: string;
    check_rule_name: string;
    alarm_level: number;
    content: string;
    create_time: Date;
    last_check_time: Date;
  }>(
    `select id::text, meter_id::text, energy_type, product_code, rule_code, check_rule_name, alarm_level, content,
            create_time, last_check_time
       from pms_check_record
      where tenant_id = $1 and alarm_status = 1 and is_deleted = 0
        and ((energy_type = 1 and meter_id = any($2::bigint[])) or (energy_type = 2 and meter_id = any($3::bigint[])))
      order by create_time desc, id desc limit $4`,
    [tenantId, idsOf(meters, 1), idsOf(meters, 2), RECENT_ROWS],
  );
  return rows.map((r) => ({
    id: r.id,
    meterId: r.meter_id,
    energyType: r.energy_type as EnergyType,
    productCode: r.product_code,
    ruleCode: r.rule_code,
    ruleName: r.check_rule_name,
    alarmLevel: r.alarm_level,
    content: r.content,
    createTime: time(r.create_time, timeZone) ?? "",
    lastCheckTime: time(r.last_check_time, timeZone) ?? "",
  }));
}

/** The owner's newest recharges, refunds and corrections that were booked or are waiting. */
export async function recentRecharges(
  db: Queryable,
  tenantId: string,
  ownerId: string,
  timeZone: string,
): Promise<DetailRecharge[]> {
  const rows = await db.query<{
    id: string;
    energy_type: number;
    meter_id: string;
    product_code: string | null;
    recharge_type: number;
    payment_method: number;
    amount: string;
    receipt_no: string;
    operator: string;
    create_time: Date;
  }>(
    `select r.id::text, r.energy_type, r.meter_id::text, mm.product_code, r.recharge_type, r.payment_method, r.amount::text,
            r.receipt_no, r.operator, r.create_time
       from pms_recharge r
       left join lateral (select product_code from pms_meter where r.energy_type = 1 and id = r.meter_id
          union all select product_code from pms_water where r.energy_type = 2 and id = r.meter_id) mm on true
      where r.tenant_id = $1 and r.owner_id = $2 and r.state <> 2
      order by r.create_time desc, r.id desc limit $3`,
    [tenantId, ownerId, RECENT_ROWS],
  );
  return rows.map((r) => ({
    id: r.id,
    energyType: r.energy_type as EnergyType,
    meterId: r.meter_id,
    productCode: r.product_code ?? "",
    rechargeType: r.recharge_type,
    paymentMethod: r.payment_method,
    amount: yuan(r.amount) ?? "0.00",
    receiptNo: r.receipt_no,
    operator: r.operator,
    createTime: time(r.create_time, timeZone) ?? "",
  }));
}

/** Exact two-place decimal text as hundredths, and back. */
const hundredths = (text: string) => {
  const [whole = "0", part = ""] = text.split(".");
  const sign = whole.startsWith("-") ? -1n : 1n;
  return BigInt(whole) * 100n + sign * BigInt(`${part}00`.slice(0, 2));
};
const twoPlaces = (value: bigint) => {
  const sign = value < 0n ? "-" : "";
  const abs = value < 0n ? -value : value;
  return `${sign}${abs / 100n}.${String(abs % 100n).padStart(2, "0")}`;
};

/**
 * The meters' usage per day over the last 30 days and per month over the last 12, electricity
 * (kWh) and water (m³) apart: one query over the daily tables, months summed here.
 */
export async function usageOf(
  db: Queryable,
  tenantId: string,
  meters: readonly MeterKey[],
  timeZone: string,
): Promise<DetailUsage> {
  const today = localDay(new Date(), timeZone);
  const firstDay = daysBack(today, USAGE_DAYS);
  const firstMonth = monthsBack(today, USAGE_MONTHS);
  const rows =
    meters.length === 0
      ? []
      : await db.query<{ energy_type: number; day: string; usage: string }>(
          `select 1 as energy_type, day_date::text as day, sum(usage)::text as usage
             from pms_data_daily where tenant_id = $1 and meter_id = any($2::bigint[]) and day_date between $4 and $5
            group by day_date
           union all
           select 2, day_date::text, sum(usage)::text
             from pms_water_data_daily where tenant_id = $1 and meter_id = any($3::bigint[]) and day_date between $4 and $5
            group by day_date`,
          [tenantId, idsOf(meters, 1), idsOf(meters, 2), firstMonth, today],
        );
  const days = new Map<string, [bigint, bigint]>();
  const months = new Map<string, [bigint, bigint]>();
  const add = (into: Map<string, [bigint, bigint]>, key: string, energy: number, value: bigint) => {
    const sums = into.get(key) ?? [0n, 0n];
    sums[energy === 2 ? 1 : 0] += value;
    into.set(key, sums);
  };
  for (const row of rows) {
    const value = hundredths(row.usage);
    if (row.day >= firstDay) add(days, row.day, row.energy_type, value);
    add(months, row.day.slice(0, 7), row.energy_type, value);
  }
  const series = (keys: string[], from: Map<string, [bigint, bigint]>) =>
    keys.map((period) => {
      const [electric, water] = from.get(period) ?? [0n, 0n];
      return { period, electric: twoPlaces(electric), water: twoPlaces(water) };
    });
  const dayKeys = Array.from({ length: USAGE_DAYS }, (_, i) => daysBack(today, USAGE_DAYS - i));
  const monthKeys = Array.from({ length: USAGE_MONTHS }, (_, i) =>
    monthsBack(today, USAGE_MONTHS - i).slice(0, 7),
  );
  return { days: series(dayKeys, days), months: series(monthKeys, months) };
}
