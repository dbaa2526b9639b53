import type { Db } from "../../db/client.ts";
import { daysBack, localDay } from "../metering/usage-periods.ts";

/** Accounts closed per statement: small enough that a crash loses little, large enough to be quick. */
const BATCH = 2000;

/**
 * One batch of the close (usage corrections, type 9, apart from money in and out): the next `$3` accounts after id `$2` open during the day [`$4`, `$5`),
 * each with its row written unless it has one. Each account's sums read only its own entries of the
 * day (a lateral range on the ledger index), so a batch costs the same however long the ledger has
 * grown. An account already closed is found by one probe of the day table's key before any sums
 * are read (a lateral with a limit: as an EXISTS, the planner may hash the whole day's rows for
 * every batch instead), so a second run, or a resumed one, reads next to nothing. Answers each account of the batch and
 * whether this statement wrote it.
 */
const CLOSE_BATCH = `
  with accounts as (
    select a.id, a.tenant_id, c.closed is not null as closed
      from pms_account a
      left join lateral (select true as closed from pms_account_day d where d.account_id = a.id and d.day = $1::date
                          limit 1) c on true
     where a.id > $2::bigint and a.opened_time < $5 and (a.closed_time is null or a.closed_time >= $4)
     order by a.id limit $3
  ), written as (
    insert into pms_account_day (tenant_id, account_id, day, opening_balance, usage, usage_charge, fee, credit,
                                 debit, correction, closing_balance, entries)
    select a.tenant_id, a.id, $1::date,
           coalesce((select l.balance_after from pms_ledger l where l.account_id = a.id and l.create_time < $4
                      order by l.create_time desc, l.id desc limit 1), 0),
           s.usage, s.usage_charge, s.fee, s.credit, s.debit, s.correction,
           coalesce((select l.balance_after from pms_ledger l where l.account_id = a.id and l.create_time < $5
                      order by l.create_time desc, l.id desc limit 1), 0),
           s.entries
      from accounts a
      cross join lateral (
        select coalesce(sum(l.usage) filter (where l.entry_type = 6), 0) as usage,
               coalesce(-sum(l.amount) filter (where l.entry_type = 6), 0) as usage_charge,
               coalesce(-sum(l.amount) filter (where l.entry_type = 7), 0) as fee,
               coalesce(sum(l.amount) filter (where l.amount > 0 and l.entry_type <> 9), 0) as credit,
               coalesce(-sum(l.amount) filter (where l.amount < 0 and l.entry_type not in (6, 7, 9)), 0) as debit,
               coalesce(sum(l.amount) filter (where l.entry_type = 9), 0) as correction,
               count(*) as entries
          from pms_ledger l where l.account_id = a.id and l.create_time >= $4 and l.create_time < $5
      ) s
     where not a.closed
    on conflict (account_id, day) do nothing
    returning account_id
  )
  select a.id::text as account_id, exists (select 1 from written w where w.account_id = a.id) as inserted
    from accounts a order by a.id`;

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
  // The day's bounds as values, not as a joined row, so the ledger index takes them as its range.
  const [bounds] = await db.query<{ day_start: Date; day_end: Date }>(
    `select ($1::date::timestamp at time zone $2) as day_start, (($1::date + 1)::timestamp at time zone $2) as day_end`,
    [day, timeZone],
  );
  let after = "0";
  let written = 0;
  for (;;) {
    const rows = await db.transaction(async (tx) => {
      // PostgreSQL would JIT-compile every batch anew (about 0.1 s, a third of a batch of 2,000) for
      // a statement that only probes an index per account: nothing to gain from compiling.
      await tx.query("set local jit = off");
      return tx.query<{ account_id: string; inserted: boolean }>(CLOSE_BATCH, [
        day,
        after,
        batch,
        bounds!.day_start,
        bounds!.day_end,
      ]);
    });
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
