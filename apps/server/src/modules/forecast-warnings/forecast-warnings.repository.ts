import type { Queryable } from "../../db/client.ts";
import { roomLabelSql } from "../pms/room-label.ts";

/**
 * The reviewed SQL of owner warnings before the forecast cut. A tenant's daily run is a fixed
 * handful of statements whatever its number of accounts: the accounts in one read, their daily
 * charges in another, the new messages in one insert and every episode in one upsert.
 */

/** The rule code the warning's messages carry in pms_message_queue (the owner's notice list too). */
export const FORECAST_RULE = "balance_forecast";
/** A mainland mobile number (spec §5), as for balance alarms: anything else fails at once, named. */
const MOBILE = "^1[3-9][0-9]{9}$";

export interface WarnedAccount {
  id: string;
  balance: string;
  /** The local day the account was opened (yyyy-MM-dd): no history before it. */
  opened_day: string;
  /** 1 while the owner has been warned of this episode. */
  open: number;
}

/** The first process to insert the tenant's row for the day runs it; the others answer false. */
export async function claimRun(db: Queryable, tenantId: string, day: string): Promise<boolean> {
  const rows = await db.query(
    "insert into pms_forecast_run (tenant_id, run_day) values ($1, $2::date) on conflict do nothing returning tenant_id",
    [tenantId, day],
  );
  return rows.length > 0;
}

/** Tenants with open accounts: the ones a daily run visits. */
export async function tenantsWithAccounts(db: Queryable): Promise<string[]> {
  const rows = await db.query<{ tenant_id: string }>(
    "select distinct tenant_id from pms_account where status = 1 order by tenant_id",
  );
  return rows.map((row) => row.tenant_id);
}

/** The tenant's open accounts with their balance and warning episode. */
export function openAccounts(db: Queryable, tenantId: string, timeZone: string): Promise<WarnedAccount[]> {
  return db.query<WarnedAccount>(
    `select a.id::text as id, a.balance::text as balance,
            to_char((a.opened_time at time zone $2)::date, 'YYYY-MM-DD') as opened_day,
            coalesce(w.open, 0) as open
       from pms_account a
       left join pms_forecast_warning w on w.tenant_id = a.tenant_id and w.account_id = a.id
      where a.tenant_id = $1 and a.status = 1
      order by a.id`,
    [tenantId, timeZone],
  );
}

/**
 * Usage charges (fen, positive) per account and local day between two days, both included: the
 * daily figures the forecast learns from. Only the listed accounts when `accountIds` is given.
 */
export async function dailyCharges(
  db: Queryable,
  tenantId: string,
  from: string,
  to: string,
  accountIds?: readonly string[],
): Promise<Map<string, Map<string, number>>> {
  const rows = await db.query<{ account_id: string; day: string; fen: string }>(
    `select account_id::text as account_id, to_char(usage_day, 'YYYY-MM-DD') as day, (-sum(amount))::text as fen
       from pms_ledger
      where tenant_id = $1 and entry_type = 6 and usage_day between $2::date and $3::date
        ${accountIds ? "and account_id = any($4::bigint[])" : ""}
      group by account_id, usage_day`,
    accountIds ? [tenantId, from, to, accountIds] : [tenantId, from, to],
  );
  const byAccount = new Map<string, Map<string, number>>();
  for (const row of rows) {
    const days = byAccount.get(row.account_id) ?? new Map<string, number>();
    days.set(row.day, Number(row.fen));
    byAccount.set(row.account_id, days);
  }
  return byAccount;
}

export interface NewWarning {
  messageId: string;
  accountId: string;
  days: number;
}

/**
 * Queues one SMS per warned account to its owner, through the balance alarms' queue and sender
 * (pms_message_queue, sent by the job queue with the tenant's enabled provider). The template
 * values are those of the balance alarms (owner's name, room label, balance in yuan) and then the
 * forecast days. Answers the accounts a message was queued for (an owner removed meanwhile gets none).
 */
export async function queueWarnings(
  db: Queryable,
  tenantId: string,
  day: string,
  warnings: readonly NewWarning[],
): Promise<Map<string, string>> {
  if (warnings.length === 0) return new Map();
  const rows = await db.query<{ id: string }>(
    `insert into pms_message_queue (id, tenant_id, owner_id, owner_name, phone, rule_code, alarm_level,
       notify_day, template_params, state, last_error, job_id, dispatched)
     select u.message_id, a.tenant_id, o.id, o.owner_name, o.phone, $4, null, $3::date,
            json_build_object('name', o.owner_name, 'room', ${roomLabelSql("r")},
                              'balance', (a.balance / 100.0)::numeric(14, 2)::text,
                              'days', u.days::text)::text,
            case when coalesce(o.phone, '') ~ $5 then 1 else 4 end,
            case when coalesce(o.phone, '') ~ $5 then null else '业主未登记有效的手机号码' end,
            gen_random_uuid()::text,
            case when coalesce(o.phone, '') ~ $5 then 0 else 1 end
       from unnest($2::bigint[], $6::bigint[], $7::int[]) as u(message_id, account_id, days)
       join pms_account a on a.id = u.account_id and a.tenant_id = $1 and a.status = 1
       join pms_owner o on o.id = a.owner_id and o.tenant_id = a.tenant_id and o.is_deleted = 0
       left join pms_room r on r.id = a.room_id and r.tenant_id = a.tenant_id
     returning id::text as id`,
    [
      tenantId,
      warnings.map((w) => w.messageId),
      day,
      FORECAST_RULE,
      MOBILE,
      warnings.map((w) => w.accountId),
      warnings.map((w) => w.days),
    ],
  );
  const queued = new Set(rows.map((row) => row.id));
  return new Map(warnings.filter((w) => queued.has(w.messageId)).map((w) => [w.accountId, w.messageId]));
}

export interface EpisodeWrite {
  accountId: string;
  /** The episode after the run: 1 open (warned), 0 none. */
  open: 0 | 1;
  /** True when this run warned (the warned_* columns take this run's figures). */
  warned: boolean;
  days: number | null;
  balance: string;
  messageId: string | null;
}

/** Every account's episode and last forecast, in one statement. */
export async function writeEpisodes(
  db: Queryable,
  tenantId: string,
  day: string,
  writes: readonly EpisodeWrite[],
): Promise<void> {
  if (writes.length === 0) return;
  await db.query(
    `insert into pms_forecast_warning (tenant_id, account_id, open, warned_day, warned_days, warned_balance,
                                       message_id, forecast_days, forecast_day, forecast_balance)
     select $1, u.account_id, u.open,
            case when u.warned then $2::date end, case when u.warned then u.days end,
            case when u.warned then u.balance end, u.message_id, u.days, $2::date, u.balance
       from unnest($3::bigint[], $4::int[], $5::boolean[], $6::int[], $7::bigint[], $8::bigint[])
            as u(account_id, open, warned, days, balance, message_id)
     on conflict (tenant_id, account_id) do update set
            open = excluded.open,
            warned_day = case when excluded.warned_day is not null then excluded.warned_day
                              else pms_forecast_warning.warned_day end,
            warned_days = coalesce(excluded.warned_days, pms_forecast_warning.warned_days),
            warned_balance = coalesce(excluded.warned_balance, pms_forecast_warning.warned_balance),
            message_id = case when excluded.warned_day is not null then excluded.message_id
                              else pms_forecast_warning.message_id end,
            forecast_days = excluded.forecast_days,
            forecast_day = excluded.forecast_day,
            forecast_balance = excluded.forecast_balance,
            update_time = now()`,
    [
      tenantId,
      day,
      writes.map((w) => w.accountId),
      writes.map((w) => w.open),
      writes.map((w) => w.warned),
      writes.map((w) => w.days),
      writes.map((w) => w.balance),
      writes.map((w) => w.messageId),
    ],
  );
}
