import type { SqlParams } from "../../crud/sql.ts";
import { roomLabelSql } from "../pms/room-label.ts";

/** The closed days an account's recent pace is read over (pms_account_day). */
export const RECENT_DAYS = 7;

/** What the attention list asks for: supply cut within N days, else the accounts at an alarm level. */
export interface AttentionFilter {
  tenantId: string | null;
  /** Cut within this many days at the recent pace (already due included); else by alarm level. */
  cutWithinDays?: number | undefined;
  /** One alarm level (1 low, 2 severely low, 3 arrears); without it every level from 1. */
  alarmLevel?: number | undefined;
  energyType?: number | undefined;
  /** Part of a room's label, an owner's name or phone, or a meter number. */
  keyword?: string | undefined;
  /** Only these accounts (a reminder to the rows an operator ticked). */
  accountIds?: string[] | undefined;
  /** The first and the day after the last closed day of the recent pace (yyyy-MM-dd). */
  paceFrom: string;
  paceTo: string;
}

/** One account of the list as the statement answers it. */
export interface AttentionRow {
  account_id: string;
  tenant_id: string;
  energy_type: number;
  meter_id: string;
  product_code: string | null;
  switch_status: number | null;
  control_status: number;
  room_id: string | null;
  room_name: string | null;
  owner_id: string;
  owner_name: string | null;
  phone: string | null;
  balance: string;
  alarm_level: number;
  arrears_cut: number;
  /** Alarm scheme amounts in yuan, as stored (numeric). */
  first_alarm: string | null;
  second_alarm: string | null;
  arrears_limit: string | null;
  trip_on_arrears: number | null;
  charged: string;
  days: number;
}

const literal = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * The accounts needing attention with their room, owner, phone, meter and supply state, and the
 * usage charges of their recent closed days, from which the service reads how long each lasts
 * (balanceOutlook). "Cut within N days" is tested here on the same integers the pure function uses
 * — left × days ≤ N × charged — so the page and its figures never disagree. Every value is bound;
 * `scope` is the callers' data-scope predicate on the account `a` (its meter).
 */
export function attentionQuery(filter: AttentionFilter, sql: SqlParams, scope: string | undefined) {
  const where = ["a.status = 1"];
  if (filter.tenantId !== null) where.push(`a.tenant_id = ${sql.bind(filter.tenantId)}`);
  if (filter.energyType !== undefined) where.push(`a.energy_type = ${sql.bind(filter.energyType)}`);
  if (filter.accountIds) where.push(`a.id = any(${sql.bind(filter.accountIds)}::bigint[])`);
  if (scope) where.push(scope);
  if (filter.cutWithinDays !== undefined) {
    const days = sql.bind(filter.cutWithinDays);
    // The cut line in fen: the overdraft below zero (alarm scheme amounts are yuan, 2 decimals).
    where.push(`coalesce(s.trip_on_arrears, 0) = 1 and (
      a.balance <= -(coalesce(s.arrears_limit, 0) * 100)::bigint
      or (d.charged > 0 and (a.balance + (coalesce(s.arrears_limit, 0) * 100)::bigint) * d.days <= ${days} * d.charged))`);
  } else {
    where.push(
      filter.alarmLevel !== undefined
        ? `a.alarm_level = ${sql.bind(filter.alarmLevel)}`
        : "a.alarm_level >= 1",
    );
  }
  if (filter.keyword) {
    const like = sql.bind(`%${literal(filter.keyword)}%`);
    where.push(`(${roomLabelSql("rm")} like ${like} or o.owner_name like ${like} or o.phone like ${like}
                 or mt.product_code like ${like})`);
  }
  const from = sql.bind(filter.paceFrom);
  const to = sql.bind(filter.paceTo);
  const body = `
      from pms_account a
      left join pms_alarm_scheme s on s.tenant_id = a.tenant_id and s.id = a.alarm_scheme_id and s.is_deleted = 0
      left join pms_owner o on o.id = a.owner_id and o.tenant_id = a.tenant_id
      left join pms_room rm on rm.id = a.room_id and rm.tenant_id = a.tenant_id
      left join lateral (
        select product_code, switch_status from pms_meter
         where a.energy_type = 1 and tenant_id = a.tenant_id and id = a.meter_id
        union all select product_code, switch_status from pms_water
         where a.energy_type = 2 and tenant_id = a.tenant_id and id = a.meter_id
      ) mt on true
      left join lateral (
        select coalesce(sum(x.usage_charge), 0) as charged, count(*)::int as days from pms_account_day x
         where x.tenant_id = a.tenant_id and x.account_id = a.id and x.day >= ${from}::date and x.day < ${to}::date
      ) d on true
     where ${where.join(" and ")}`;
  return {
    rows: (limit: string, offset: string) => `
      select a.id::text as account_id, a.tenant_id, a.energy_type, a.meter_id::text as meter_id, mt.product_code,
             mt.switch_status, a.control_status, a.room_id::text as room_id, ${roomLabelSql("rm")} as room_name,
             a.owner_id::text as owner_id, o.owner_name, o.phone, a.balance::text as balance, a.alarm_level,
             a.arrears_cut, s.first_alarm::text as first_alarm, s.second_alarm::text as second_alarm,
             s.arrears_limit::text as arrears_limit, s.trip_on_arrears, d.charged::text as charged, d.days
      ${body}
      order by case when d.charged > 0 then (a.balance + (coalesce(s.arrears_limit, 0) * 100)::bigint)::numeric
                                             * d.days / d.charged end nulls last,
               a.balance, a.id
      limit ${limit} offset ${offset}`,
    count: (bound: string) => `select count(*)::int as n from (select 1 ${body} limit ${bound}) c`,
  };
}
