import type { Db } from "../../db/client.ts";
import { daysBack, localDay } from "../metering/usage-periods.ts";

/** Accounts closed per statement: small enough that a crash loses little, large enough to be quick. */
const BATCH = 2000;

/**
 * Closes a day (yyyy-MM-dd in the tenant's zone) for every account open during it: the day's
 * usage, usage charges, fixed fees, money in and out, and the opening and closing balances, from
 * the ledger. Idempotent (a closed account-day is never rewritten) and resumable (batches in
 * account order; a run cut short leaves whole batches, and the next run skips what is there).
 * Returns the number of account-days written by this run.
 */
export async function closeDay(
  db: Db,
  day: string,
  timeZone: string,
  options: { batch?: number; afterBatch?: (written: number) => Promise<void> } = {},
): Promise<number> {
  const batch = options.batch ?? BATCH;
  let after = "0";
  let written = 0;
  for (;;) {
    const rows = await db.query<{ account_id: string; inserted: boolean }>(
      `with bounds as (
         select ($1::date::timestamp at time zone $2) as day_start, (($1::date + 1)::timestamp at time zone $2) as day_end
       ), accounts as (
         select a.id, a.tenant_id from pms_account a, bounds b
          where a.id > $3::bigint and a.opened_time < b.day_end and (a.closed_time is null or a.closed_time >= b.day_start)
          order by a.id limit $4
       ), sums as (
         select a.id, a.tenant_id,
                coalesce(sum(l.usage) filter (where l.entry_type = 6), 0) as usage,
                coalesce(-sum(l.amount) filter (where l.entry_type = 6), 0) as usage_charge,
                coalesce(-sum(l.amount) filter (where l.entry_type = 7), 0) as fee,
                coalesce(sum(l.amount) filter (where l.amount > 0), 0) as credit,
                coalesce(-sum(l.amount) filter (where l.amount < 0 and l.entry_type not in (6, 7)), 0) as debit,
                count(l.id) as entries
           from accounts a cross join bounds b
           left join pms_ledger l on l.account_id = a.id and l.create_time >= b.day_start and l.create_time < b.day_end
          group by a.id, a.tenant_id
       ), written as (
         insert into pms_account_day (tenant_id, account_id, day, opening_balance, usage, usage_charge, fee, credit,
                                      debit, closing_balance, entries)
         select s.tenant_id, s.id, $1::date,
                coalesce((select l.balance_after from pms_ledger l, bounds b where l.account_id = s.id and l.create_time < b.day_start
                           order by l.create_time desc, l.id desc limit 1), 0),
                s.usage, s.usage_charge, s.fee, s.credit, s.debit,
                coalesce((select l.balance_after from pms_ledger l, bounds b where l.account_id = s.id and l.create_time < b.day_end
                           order by l.create_time desc, l.id desc limit 1), 0),
                s.entries
           from sums s
         on conflict (account_id, day) do nothing
         returning account_id
       )
       select a.id::text as account_id, exists (select 1 from written w where w.account_id = a.id) as inserted
         from accounts a order by a.id`,
      [day, timeZone, after, batch],
    );
    if (rows.length === 0) return written;
    const inserted = rows.filter((r) => r.inserted).length;
    written += inserted;
    after = rows[rows.length - 1]!.account_id;
    await options.afterBatch?.(inserted);
  }
}

/**
 * Closes yesterday once it is over and its usage is in: after 01:00 local time, when the meters'
 * midnight freezes have been read. Marked done only at the end, so a crash means the next tick
 * finishes it.
 */
export async function closeYesterdayIfDue(db: Db, now: Date, timeZone: string): Promise<string | undefined> {
  const today = localDay(now, timeZone);
  const hour = Number(
    new Intl.DateTimeFormat("en-GB", { timeZone, hour: "2-digit", hourCycle: "h23" }).format(now),
  );
  if (hour < 1) return undefined;
  const yesterday = daysBack(today, 2);
  const [done] = await db.query("select 1 from pms_day_close where day = $1::date", [yesterday]);
  if (done) return undefined;
  await closeDay(db, yesterday, timeZone);
  await db.query("insert into pms_day_close (day) values ($1::date) on conflict do nothing", [yesterday]);
  return yesterday;
}
