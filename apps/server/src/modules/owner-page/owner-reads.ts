import { restoreAmount, toUnits } from "@meterline/billing";
import { notFound } from "../../contract/errors.ts";
import type { Db } from "../../db/client.ts";
import { forecastsOf } from "../forecast-warnings/forecast-warnings.service.ts";
import { roomLabelSql } from "../pms/room-label.ts";

/**
 * What an owner sees on the owner page. Every statement is bound to the session's tenant and owner
 * ($1, $2): nothing here takes an id from the request without both. Money stays in whole fen
 * (strings of bigint), usage in kWh or m³ as the daily tables keep it.
 */

export interface OwnerAccount {
  id: string;
  energyType: number;
  meterId: string;
  productCode: string;
  meterName: string;
  roomName: string;
  areaName: string;
  /** The room as the console names it, building included ("2号楼 101"). */
  roomLabel: string;
  balanceFen: string;
  /** ALARM_LEVEL: 0 normal, 1 low, 2 severely low, 3 arrears. */
  alarmLevel: number;
  /** SWITCH_STATUS: 0 on, 1 off (a water meter's valve likewise). */
  switchStatus: number;
  /** 0 none, 1 a cut held by a protection window, 2 supply cut for arrears. */
  arrearsCut: number;
  /**
   * Supply cut for arrears (arrearsCut 2) with the balance still at or below the cut line: the
   * least recharge that brings it back, and that rounded up to whole yuan (offered first). Null
   * otherwise.
   */
  restore: { leastFen: string; offerFen: string } | null;
  /**
   * Days until the balance is forecast to be spent, from its recent daily charges (1: today; 0:
   * spent; null: plenty, or nothing to learn from yet), and whether that is within the tenant's
   * warning days (the page says "about X days of balance left" then).
   */
  forecastDays: number | null;
  forecastWarning: boolean;
}

/** A scheme's amount (yuan text) in fen; none is 0. */
const fenOf = (yuan: string | null) => (yuan === null ? 0n : toUnits(yuan, 2));

export async function ownerName(db: Db, tenantId: string, ownerId: string): Promise<string> {
  const [row] = await db.query<{ owner_name: string }>(
    "select owner_name from pms_owner where tenant_id = $1 and id = $2 and is_deleted = 0",
    [tenantId, ownerId],
  );
  return row?.owner_name ?? "";
}

export async function accountsOf(
  db: Db,
  tenantId: string,
  ownerId: string,
  timeZone: string,
  now = new Date(),
): Promise<OwnerAccount[]> {
  const rows = await db.query<{
    id: string;
    energy_type: number;
    meter_id: string;
    product_code: string | null;
    meter_name: string | null;
    room_name: string | null;
    area_name: string | null;
    room_label: string | null;
    balance: string;
    alarm_level: number;
    switch_status: number | null;
    arrears_cut: number;
    arrears_limit: string | null;
    trip_on_arrears: number | null;
    opened_day: string;
  }>(
    `select a.id::text as id, a.energy_type, a.meter_id::text as meter_id, a.balance::text as balance,
            a.alarm_level, a.arrears_cut,
            coalesce(m.product_code, w.product_code) as product_code,
            coalesce(m.meter_name, w.meter_name) as meter_name,
            coalesce(m.switch_status, w.switch_status) as switch_status,
            r.room_name, ar.area_name, ${roomLabelSql("r")} as room_label,
            s.arrears_limit::text as arrears_limit, s.trip_on_arrears,
            to_char((a.opened_time at time zone $3)::date, 'YYYY-MM-DD') as opened_day
       from pms_account a
       left join pms_alarm_scheme s on s.id = a.alarm_scheme_id and s.is_deleted = 0
       left join pms_meter m on a.energy_type = 1 and m.id = a.meter_id and m.tenant_id = a.tenant_id
       left join pms_water w on a.energy_type = 2 and w.id = a.meter_id and w.tenant_id = a.tenant_id
       left join pms_room r on r.id = a.room_id and r.tenant_id = a.tenant_id
       left join pms_area ar on ar.id = r.area_id and ar.tenant_id = a.tenant_id
      where a.tenant_id = $1 and a.owner_id = $2 and a.status = 1
      order by r.room_name nulls last, a.energy_type, a.id`,
    [tenantId, ownerId, timeZone],
  );
  const forecasts = await forecastsOf(
    db,
    tenantId,
    rows.map((r) => ({ id: r.id, balanceFen: r.balance, openedDay: r.opened_day })),
    now,
    timeZone,
  );
  return rows.map((r) => {
    // The scheme's cut line decides, as it does for the cut itself (settleSupply in money/arrears.ts).
    const restore =
      r.arrears_cut === 2
        ? restoreAmount(BigInt(r.balance), {
            firstAlarm: 0n,
            secondAlarm: 0n,
            arrearsLimit: fenOf(r.arrears_limit),
            tripOnArrears: r.trip_on_arrears === 1,
          })
        : null;
    return {
      id: r.id,
      energyType: r.energy_type,
      meterId: r.meter_id,
      productCode: r.product_code ?? "",
      meterName: r.meter_name ?? "",
      roomName: r.room_name ?? "",
      areaName: r.area_name ?? "",
      roomLabel: r.room_label ?? "",
      balanceFen: r.balance,
      alarmLevel: r.alarm_level,
      switchStatus: r.switch_status ?? 0,
      arrearsCut: r.arrears_cut,
      restore: restore && { leastFen: restore.leastFen.toString(), offerFen: restore.offerFen.toString() },
      forecastDays: forecasts.get(r.id)?.forecastDays ?? null,
      forecastWarning: forecasts.get(r.id)?.warning ?? false,
    };
  });
}

/** The owner's open account by id, or 404 (also for another owner's or another tenant's account). */
export async function ownAccount(db: Db, tenantId: string, ownerId: string, accountId: string) {
  if (!/^\d{1,19}$/.test(accountId)) throw notFound("accountId: 账户不存在");
  const [row] = await db.query<{ energy_type: number; meter_id: string; opened: string }>(
    `select energy_type, meter_id::text as meter_id, opened_time::text as opened
       from pms_account where tenant_id = $1 and owner_id = $2 and id = $3 and status = 1`,
    [tenantId, ownerId, accountId],
  );
  if (!row) throw notFound("accountId: 账户不存在");
  return row;
}

export interface UsagePoint {
  /** yyyy-MM-dd for days, yyyy-MM for months. */
  period: string;
  /** Usage in kWh or m³ with two decimals, summed exactly (decimal text). */
  usage: string;
}

/**
 * Daily usage of the last 30 days or monthly usage of the last 12 months of an account's meter,
 * from the meter's daily rows since the account was opened (a previous occupant's usage is not
 * the owner's). Days are the tenant's days, as the daily tables keep them.
 */
export async function usageOf(
  db: Db,
  tenantId: string,
  ownerId: string,
  accountId: string,
  span: "day" | "month",
  timeZone: string,
): Promise<UsagePoint[]> {
  const account = await ownAccount(db, tenantId, ownerId, accountId);
  const table = account.energy_type === 1 ? "pms_data_daily" : "pms_water_data_daily";
  const period = span === "day" ? "to_char(day_date, 'YYYY-MM-DD')" : "to_char(day_date, 'YYYY-MM')";
  const since =
    span === "day"
      ? "(now() at time zone $4)::date - 29"
      : "date_trunc('month', (now() at time zone $4)::date - interval '11 months')::date";
  const rows = await db.query<{ period: string; usage: string }>(
    `select ${period} as period, sum(usage)::numeric(18, 2)::text as usage
       from ${table}
      where tenant_id = $1 and meter_id = $2 and day_date >= ($3::timestamptz at time zone $4)::date
        and day_date >= ${since}
      group by 1 order by 1`,
    [tenantId, account.meter_id, account.opened, timeZone],
  );
  return rows;
}

export async function historyOf(db: Db, tenantId: string, ownerId: string, timeZone: string) {
  const recharges = await db.query(
    `select r.id::text as id, r.account_id::text as "accountId", r.energy_type as "energyType",
            r.recharge_type as "rechargeType", r.payment_method as "paymentMethod", r.amount::text as "amountFen",
            r.balance_after::text as "balanceAfterFen", r.receipt_no as "receiptNo", r.state,
            to_char(r.create_time at time zone $3, 'YYYY-MM-DD HH24:MI:SS') as "createTime",
            coalesce(m.product_code, w.product_code, '') as "productCode"
       from pms_recharge r
       left join pms_meter m on r.energy_type = 1 and m.id = r.meter_id and m.tenant_id = r.tenant_id
       left join pms_water w on r.energy_type = 2 and w.id = r.meter_id and w.tenant_id = r.tenant_id
      where r.tenant_id = $1 and r.owner_id = $2
      order by r.create_time desc, r.id desc limit 50`,
    [tenantId, ownerId, timeZone],
  );
  const payments = await db.query(
    `select p.id::text as id, p.account_id::text as "accountId", p.amount::text as "amountFen",
            p.payment_method as "paymentMethod", p.state, p.transaction_no as "transactionNo",
            to_char(coalesce(p.paid_time, p.create_time) at time zone $3, 'YYYY-MM-DD HH24:MI:SS') as "time"
       from pms_payment p
      where p.tenant_id = $1 and p.owner_id = $2
      order by p.create_time desc, p.id desc limit 50`,
    [tenantId, ownerId, timeZone],
  );
  return { recharges, payments };
}

/** One recharge's receipt: what the counter printed, for the owner's own recharges only. */
export async function receiptOf(db: Db, tenantId: string, ownerId: string, id: string, timeZone: string) {
  if (!/^\d{1,19}$/.test(id)) throw notFound("id: 收据不存在");
  const [row] = await db.query(
    `select r.id::text as id, r.receipt_no as "receiptNo", r.recharge_type as "rechargeType",
            r.payment_method as "paymentMethod", r.amount::text as "amountFen",
            r.balance_after::text as "balanceAfterFen", r.operator, r.remark,
            to_char(r.create_time at time zone $4, 'YYYY-MM-DD HH24:MI:SS') as "createTime",
            o.owner_name as "ownerName", ${roomLabelSql("rm")} as "roomName",
            coalesce(m.product_code, w.product_code, '') as "productCode", r.energy_type as "energyType"
       from pms_recharge r
       join pms_owner o on o.id = r.owner_id and o.tenant_id = r.tenant_id
       left join pms_account a on a.id = r.account_id and a.tenant_id = r.tenant_id
       left join pms_room rm on rm.id = a.room_id and rm.tenant_id = r.tenant_id
       left join pms_meter m on r.energy_type = 1 and m.id = r.meter_id and m.tenant_id = r.tenant_id
       left join pms_water w on r.energy_type = 2 and w.id = r.meter_id and w.tenant_id = r.tenant_id
      where r.tenant_id = $1 and r.owner_id = $2 and r.id = $3`,
    [tenantId, ownerId, id, timeZone],
  );
  if (!row) throw notFound("id: 收据不存在");
  return row;
}

/** The room label of the owner's open account on a notice's meter (`c`), building included. */
const ROOM_OF_METER = `coalesce((select ${roomLabelSql("rl")} from pms_account la
    join pms_room rl on rl.id = la.room_id and rl.tenant_id = la.tenant_id
   where la.tenant_id = c.tenant_id and la.owner_id = $2 and la.energy_type = c.energy_type
     and la.meter_id = c.meter_id order by la.status, la.id desc limit 1), '')`;

/**
 * The owner's notices: balance alarms raised on the owner's meters (low, severely low, arrears,
 * with their restore) and the supply cuts and restores queued for arrears.
 */
export async function noticesOf(db: Db, tenantId: string, ownerId: string, timeZone: string) {
  const alarms = await db.query<{
    kind: string;
    level: number;
    status: number;
    time: string;
    restoreTime: string | null;
    productCode: string;
    room: string;
  }>(
    `select c.rule_code as kind, c.alarm_level as level, c.alarm_status as status, c.product_code as "productCode",
            ${ROOM_OF_METER} as room,
            to_char(c.create_time at time zone $3, 'YYYY-MM-DD HH24:MI:SS') as time,
            to_char(c.restore_time at time zone $3, 'YYYY-MM-DD HH24:MI:SS') as "restoreTime"
       from pms_check_record c
      where c.tenant_id = $1 and c.is_deleted = 0
        and c.rule_code in ('balance_low', 'balance_severe', 'arrears')
        and exists (select 1 from pms_account a where a.tenant_id = c.tenant_id and a.owner_id = $2
                       and a.energy_type = c.energy_type and a.meter_id = c.meter_id)
      order by c.create_time desc limit 30`,
    [tenantId, ownerId, timeZone],
  );
  const supply = await db.query<{
    kind: string;
    state: string;
    time: string;
    productCode: string;
    room: string;
  }>(
    `select case when c.source = 'arrears/cut' then 'cut' else 'restore' end as kind, c.state,
            c.product_code as "productCode", ${ROOM_OF_METER} as room,
            to_char(c.create_time at time zone $3, 'YYYY-MM-DD HH24:MI:SS') as time
       from pms_meter_command c
      where c.tenant_id = $1 and c.source in ('arrears/cut', 'arrears/restore')
        and exists (select 1 from pms_account a where a.tenant_id = c.tenant_id and a.owner_id = $2
                       and a.energy_type = c.energy_type and a.meter_id = c.meter_id)
      order by c.create_time desc limit 30`,
    [tenantId, ownerId, timeZone],
  );
  return { alarms, supply };
}
