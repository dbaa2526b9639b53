import { type ResourceDef, resources } from "@meterline/contracts";
import { columnsOf } from "../../crud/columns.ts";
import { ident } from "../../crud/sql.ts";
import type { Queryable } from "../../db/client.ts";
import {
  addMonths,
  defaultPartition,
  type Month,
  monthOf,
  monthStart,
  PARTITION_LOCK,
  partitionName,
  partitionsOf,
} from "../../db/partitions.ts";

const DEFAULT_RETENTION_DAYS = 400;
/** Rows moved per statement, so a sweep of a large default partition never holds one huge lock. */
const BATCH = 10_000;

/** Each live reading log and the archive its old months move to; both have the same columns. */
const ARCHIVES: readonly [live: ResourceDef, archive: ResourceDef][] = [
  [resources.dataRead, resources.dataReadHistory],
  [resources.waterDataRead, resources.waterDataReadHistory],
];

type Transactional = Queryable & { transaction?: <T>(fn: (tx: Queryable) => Promise<T>) => Promise<T> };

const inTransaction = <T>(db: Transactional, fn: (tx: Queryable) => Promise<T>) =>
  db.transaction ? db.transaction(fn) : fn(db);

const columnList = (def: ResourceDef) =>
  columnsOf(def)
    .map((c) => ident(c.column))
    .join(", ");

/**
 * One month of a live log becomes a month of its archive as a whole: detached from the live table,
 * renamed and attached to the archive, in one transaction. Nothing is rewritten; PostgreSQL reads
 * the month once to check it fits. Rows of that month already in the archive (its default
 * partition, or a month the archive had before) join it. Answers how many rows moved.
 */
async function moveMonth(tx: Queryable, live: ResourceDef, archive: ResourceDef, m: Month): Promise<number> {
  const from = monthStart(m, "read_time");
  const to = monthStart(addMonths(m, 1), "read_time");
  await tx.query("select pg_advisory_xact_lock($1)", [PARTITION_LOCK]);
  // Another process (every gateway sweeps) may have moved it while this one waited for the lock.
  const stillLive = (await partitionsOf(tx, live.table)).some(
    (p) => p.year === m.year && p.month === m.month,
  );
  if (!stillLive) return 0;
  const part = ident(partitionName(live.table, m));
  const [{ rows } = { rows: "0" }] = await tx.query<{ rows: string }>(`select count(*) as rows from ${part}`);
  await tx.query(`alter table ${ident(live.table)} detach partition ${part}`);
  const columns = columnList(archive);
  const archived = (await partitionsOf(tx, archive.table)).some(
    (a) => a.year === m.year && a.month === m.month,
  );
  if (archived) {
    // The archive has this month already: the rows join it, and the emptied partition goes.
    await tx.query(`insert into ${ident(archive.table)} (${columns}) select ${columns} from ${part}`);
    await tx.query(`drop table ${part}`);
    return Number(rows);
  }
  // The archive's default partition may not hold rows of a month being attached.
  await tx.query(
    `with stray as (delete from ${ident(defaultPartition(archive.table))}
       where read_time >= ${from} and read_time < ${to} returning ${columns})
     insert into ${part} (${columns}) select ${columns} from stray`,
  );
  const name = partitionName(archive.table, m);
  await tx.query(`alter table ${part} rename to ${ident(name)}`);
  await tx.query(
    `alter table ${ident(archive.table)} attach partition ${ident(name)} for values from (${from}) to (${to})`,
  );
  return Number(rows);
}

/**
 * Reads outside every month (in the live default partition until the partition job gives them
 * theirs) move row by row once before `before`, a batch per statement:
 * the delete and the insert of the same rows commit or fail together.
 */
async function moveStrays(
  db: Queryable,
  live: ResourceDef,
  archive: ResourceDef,
  before: Date,
): Promise<number> {
  const columns = columnList(live);
  const fallback = ident(defaultPartition(live.table));
  let moved = 0;
  for (;;) {
    const rows = await db.query(
      `with moved as (
         delete from ${fallback} where id in (
           select id from ${fallback} where read_time < $1 limit ${BATCH})
         returning ${columns})
       insert into ${ident(archive.table)} (${columns}) select ${columns} from moved
       returning 1`,
      [before],
    );
    moved += rows.length;
    if (rows.length < BATCH) return moved;
  }
}

/**
 * Moves the months of the reading logs that lie wholly beyond the `reading.retentionDays` parameter
 * (at least 31 days, so a month stays live) into the history tables, where datareadhistory and
 * waterdatareadhistory find them: a read stays live at least that many days, and leaves with its
 * month. Daily usage rows stay where they are: they are what reports read. Answers how many moved.
 */
export async function sweepReadings(db: Transactional, now = new Date()): Promise<number> {
  const [param] = await db.query<{ param_value: string }>(
    "select param_value from sys_param where param_key = 'reading.retentionDays' and tenant_id = '000000' and is_deleted = 0",
  );
  const days = Math.max(31, Number(param?.param_value) || DEFAULT_RETENTION_DAYS);
  const cutoff = now.getTime() - days * 86_400_000;
  let moved = 0;
  for (const [live, archive] of ARCHIVES) {
    for (const m of await partitionsOf(db, live.table)) {
      const end = addMonths(m, 1);
      if (Date.UTC(end.year, end.month - 1, 1) > cutoff) continue;
      moved += await inTransaction(db, (tx) => moveMonth(tx, live, archive, m));
    }
    // Strays leave with the same rule: only once their whole month is past the cutoff.
    const month = monthOf(new Date(cutoff));
    moved += await moveStrays(db, live, archive, new Date(Date.UTC(month.year, month.month - 1, 1)));
  }
  return moved;
}
