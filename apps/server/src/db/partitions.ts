import { type ResourceDef, resources } from "@meterline/contracts";
import { columnsOf } from "../crud/columns.ts";
import { resourceTableStatements } from "../crud/schema-sync.ts";
import { ident } from "../crud/sql.ts";
import type { Db, Queryable } from "./client.ts";

/**
 * A table that grows with time and is split by month of one column. Reading logs grow by a row per
 * poll and their archives by every month the retention moves; daily usage by a row per meter and
 * day, kept for good (reports read it). Everything else either stays the size of the registry or
 * is bounded by its own retention.
 */
export interface PartitionedTable {
  def: ResourceDef;
  /** The partition key: a read time (timestamptz, months in UTC) or a local day (date). */
  key: "read_time" | "day_date";
  /**
   * Whether the next months are created before rows arrive. An archive only receives whole months
   * from its live log (attached as they are): a month created there ahead would be in the way.
   */
  ahead: boolean;
  /**
   * Room kept free on each page of its months, for rows rewritten after they are written: a day's
   * usage row is rewritten by every read of the day, and with room on its page the new version
   * stays there (a HOT update) without touching the table's seven indexes.
   */
  fillfactor?: number;
}

/** As after-resources/065 sets on the months made before it. */
const DAILY_FILLFACTOR = 70;

export const PARTITIONED: readonly PartitionedTable[] = [
  { def: resources.dataRead, key: "read_time", ahead: true },
  { def: resources.waterDataRead, key: "read_time", ahead: true },
  { def: resources.dataReadHistory, key: "read_time", ahead: false },
  { def: resources.waterDataReadHistory, key: "read_time", ahead: false },
  { def: resources.dataDaily, key: "day_date", ahead: true, fillfactor: DAILY_FILLFACTOR },
  { def: resources.waterDataDaily, key: "day_date", ahead: true, fillfactor: DAILY_FILLFACTOR },
];

/** Taken by whoever changes the partitions, so that processes started together take turns. */
export const PARTITION_LOCK = 7_046_452;

/** Months created ahead of the current one, so a month's first reads never wait for DDL. */
export const MONTHS_AHEAD = 3;

/** A calendar month as a year and a month number (1–12), with what it is called and bounded by. */
export interface Month {
  year: number;
  month: number;
}

export const monthOf = (at: Date): Month => ({ year: at.getUTCFullYear(), month: at.getUTCMonth() + 1 });

export const addMonths = ({ year, month }: Month, n: number): Month => {
  const index = year * 12 + (month - 1) + n;
  return { year: Math.floor(index / 12), month: (index % 12) + 1 };
};

const pad = (n: number) => String(n).padStart(2, "0");
/** `yyyyMM`: the suffix of a month's partition. */
export const monthTag = (m: Month) => `${m.year}${pad(m.month)}`;
export const partitionName = (table: string, m: Month) => `${table}_p${monthTag(m)}`;
export const defaultPartition = (table: string) => `${table}_default`;

/** A month from a partition's name, or undefined for the default partition and anything else. */
export function monthOfPartition(table: string, name: string): Month | undefined {
  const match = new RegExp(`^${table}_p(\\d{4})(\\d{2})$`).exec(name);
  return match ? { year: Number(match[1]), month: Number(match[2]) } : undefined;
}

/**
 * The first instant (or day) of a month as an SQL literal. DDL takes no parameters; the literal is
 * built from two integers only, never from input.
 */
export function monthStart(m: Month, key: PartitionedTable["key"]): string {
  const day = `${m.year}-${pad(m.month)}-01`;
  return key === "read_time" ? `'${day} 00:00:00+00'` : `'${day}'`;
}

/** The key's month as `yyyyMM`, in UTC for read times (as the partition bounds are). */
const monthExpr = (key: PartitionedTable["key"]) =>
  key === "read_time" ? `to_char(${key} at time zone 'UTC', 'YYYYMM')` : `to_char(${key}, 'YYYYMM')`;

const parseTag = (tag: string): Month => ({ year: Number(tag.slice(0, 4)), month: Number(tag.slice(4)) });

async function relkind(db: Queryable, table: string): Promise<string | undefined> {
  const [row] = await db.query<{ relkind: string }>(
    "select relkind from pg_class where oid = to_regclass($1)",
    [table],
  );
  return row?.relkind;
}

/** The monthly partitions a partitioned table has now (the default one left out). */
export async function partitionsOf(db: Queryable, table: string): Promise<Month[]> {
  const rows = await db.query<{ relname: string }>(
    `select c.relname from pg_inherits i join pg_class c on c.oid = i.inhrelid
      where i.inhparent = to_regclass($1) order by c.relname`,
    [table],
  );
  return rows.flatMap((r) => monthOfPartition(table, r.relname) ?? []);
}

/** The storage clause of a month of `spec` (empty without a fill factor). */
const storageOf = (spec: PartitionedTable) =>
  spec.fillfactor === undefined ? "" : ` with (fillfactor = ${Math.trunc(spec.fillfactor)})`;

function createPartition(spec: PartitionedTable, parent: string, m: Month): string {
  const table = spec.def.table;
  return `create table if not exists ${ident(partitionName(table, m))} partition of ${ident(parent)}
    for values from (${monthStart(m, spec.key)}) to (${monthStart(addMonths(m, 1), spec.key)})${storageOf(spec)}`;
}

/**
 * Turns a plain table into one partitioned by month, keeping every row: a month per month found in
 * the rows, the months ahead, and a default partition. The primary key becomes (id, key), as a
 * partitioned table's unique keys must hold its partition key; the indexes are those of the
 * definitions, made again on the new table. The writers always set the key; a row without one
 * (a key cannot be null in a primary key) is kept in the current month rather than refused. Runs
 * inside the migration's transaction; a table already partitioned, or absent, is left alone.
 */
export async function convertToPartitioned(
  tx: Queryable,
  spec: PartitionedTable,
  plain: readonly ResourceDef[],
  now = new Date(),
): Promise<void> {
  const table = spec.def.table;
  if ((await relkind(tx, table)) !== "r") return;
  const fallback = spec.key === "read_time" ? "now()" : "current_date";
  await tx.query(`update ${ident(table)} set ${spec.key} = ${fallback} where ${spec.key} is null`);
  const found = await tx.query<{ tag: string }>(
    `select distinct ${monthExpr(spec.key)} as tag from ${ident(table)}`,
  );
  const months = new Map<string, Month>();
  for (const { tag } of found) months.set(tag, parseTag(tag));
  if (spec.ahead) {
    for (let n = 0; n <= MONTHS_AHEAD; n++) {
      const m = addMonths(monthOf(now), n);
      months.set(monthTag(m), m);
    }
  }
  const staging = `${table}_partitioned`;
  await tx.query(
    `create table ${ident(staging)} (like ${ident(table)} including defaults) partition by range (${spec.key})`,
  );
  for (const m of months.values()) await tx.query(createPartition(spec, staging, m));
  await tx.query(
    `create table ${ident(defaultPartition(table))} partition of ${ident(staging)} default${storageOf(spec)}`,
  );
  // Same columns in the same order (LIKE): every row as it is.
  await tx.query(`insert into ${ident(staging)} select * from ${ident(table)}`);
  await tx.query(`drop table ${ident(table)}`);
  await tx.query(`alter table ${ident(staging)} rename to ${ident(table)}`);
  await tx.query(
    `alter table ${ident(table)} add constraint ${ident(`${table}_pkey`)} primary key (id, ${spec.key})`,
  );
  // Every definition on this table (the manual-read screens share the live logs) has its indexes.
  const defs = plain.filter((def) => def.table === table);
  for (const statement of resourceTableStatements(defs)) await tx.query(statement);
}

/** The migration step: every growing table that exists and is still plain becomes partitioned. */
export async function partitionGrowingTables(tx: Queryable, plain: readonly ResourceDef[]): Promise<void> {
  for (const spec of PARTITIONED) {
    if (plain.some((def) => def.table === spec.def.table)) await convertToPartitioned(tx, spec, plain);
  }
}

/**
 * How long the partition job waits for a table's lock before it gives up for this run. Readers and
 * writers of the table queue behind the job's waiting lock, so a long transaction on the table must
 * not stall the gateway's writes behind it: the strays stay safe in the default partition until
 * the next run.
 */
export const MOVE_LOCK_WAIT = "5s";

/**
 * Rows that landed in the default partition (a read time outside the months made so far: a meter
 * clock far off, a manual read of long ago) get a month of their own, moved in one statement, and
 * that month is attached. Answers the months made. Run inside a transaction, first thing in it.
 *
 * The table is locked ACCESS EXCLUSIVE before anything is read. Without that lock, reads of the
 * month being moved were lost to concurrent writers (test/reading-partitions.test.ts races them):
 * ATTACH PARTITION takes only SHARE UPDATE EXCLUSIVE on the parent, so an insert kept routing by
 * the partition map of before the attach; its row went to the default partition, waited there for
 * the attach's lock, and when the job committed PostgreSQL checked the default's narrowed
 * constraint and refused the row ("new row for relation …_default violates partition
 * constraint"): the gateway's insert failed and the reads were gone. The other way round, a row
 * committed to the default after the moving DELETE had taken its snapshot made the attach fail
 * ("updated partition constraint for default partition … would be violated"), so under steady
 * writes a month never moved. With the lock, the job first waits for the writers already at work
 * to commit (the DELETE then sees and moves their rows); later inserts wait at the parent, before
 * they route, and go on after the commit with the new month in the map, landing in it.
 *
 * Why not the weaker SHARE ROW EXCLUSIVE, which would let readers on: the attach upgrades to
 * ACCESS EXCLUSIVE on the default partition, and a transaction that read the log before writing
 * it (a manual read, reading-corrections.ts) then waits for the job while the job waits for it;
 * PostgreSQL breaks that deadlock by failing the manual read (seen by hand on PostgreSQL 15). Taking the strongest lock first
 * leaves nothing to upgrade. Readers wait for the move too; strays are few, so it is short.
 */
async function rehomeDefault(tx: Queryable, spec: PartitionedTable): Promise<Month[]> {
  const table = spec.def.table;
  const fallback = defaultPartition(table);
  await tx.query(`lock table ${ident(table)} in access exclusive mode`);
  const found = await tx.query<{ tag: string }>(
    `select distinct ${monthExpr(spec.key)} as tag from ${ident(fallback)}`,
  );
  const columns = columnsOf(spec.def)
    .map((c) => ident(c.column))
    .join(", ");
  const made: Month[] = [];
  for (const { tag } of found) {
    const m = parseTag(tag);
    const name = ident(partitionName(table, m));
    const [from, to] = [monthStart(m, spec.key), monthStart(addMonths(m, 1), spec.key)];
    await tx.query(`create table ${name} (like ${ident(table)} including defaults)${storageOf(spec)}`);
    await tx.query(
      `with moved as (delete from ${ident(fallback)} where ${spec.key} >= ${from} and ${spec.key} < ${to}
         returning ${columns})
       insert into ${name} (${columns}) select ${columns} from moved`,
    );
    await tx.query(
      `alter table ${ident(table)} attach partition ${name} for values from (${from}) to (${to})`,
    );
    // A new table has no statistics until autovacuum gets to it: the planner would guess, and a
    // tenant's bounded count over a month of a million reads became a bitmap scan of all of them
    // (0.5 ms → 150 ms a page, bench:page).
    await tx.query(`analyze ${name}`);
    made.push(m);
  }
  return made;
}

/**
 * The partition job: for each partitioned table, rows in the default partition get their month, and
 * the current month and the next `MONTHS_AHEAD` exist (live tables). A default partition stays as a
 * safety net: a read of an unexpected month is kept rather than refused, and the next run gives it
 * its month. Each table in one transaction (PGlite runs no other statement while it is open); a
 * table that fails (its lock not had within `lockWait`) does not keep the others from their
 * turn, and the job fails at the end naming it. Idempotent; answers the partitions it made, as
 * `table_pyyyyMM`.
 */
export async function ensurePartitions(
  db: Pick<Db, "query" | "transaction">,
  now = new Date(),
  lockWait = MOVE_LOCK_WAIT,
): Promise<string[]> {
  if (!/^\d+(ms|s)$/.test(lockWait)) throw new Error(`lock wait ${lockWait}`);
  const made: string[] = [];
  const failed: string[] = [];
  for (const spec of PARTITIONED) {
    const table = spec.def.table;
    if ((await relkind(db, table)) !== "p") continue;
    // Looked at on its own, so that a day with nothing to move takes no lock on the table at all.
    const [strays] = await db.query<{ any: boolean }>(
      `select exists (select 1 from ${ident(defaultPartition(table))}) as any`,
    );
    try {
      const madeHere = await db.transaction(async (tx) => {
        await tx.query("select pg_advisory_xact_lock($1)", [PARTITION_LOCK]);
        await tx.query(`set local lock_timeout = '${lockWait}'`);
        const names = strays?.any ? (await rehomeDefault(tx, spec)).map((m) => partitionName(table, m)) : [];
        if (!spec.ahead) return names;
        const have = new Set((await partitionsOf(tx, table)).map(monthTag));
        for (let n = 0; n <= MONTHS_AHEAD; n++) {
          const m = addMonths(monthOf(now), n);
          if (have.has(monthTag(m))) continue;
          await tx.query(createPartition(spec, table, m));
          names.push(partitionName(table, m));
        }
        return names;
      });
      made.push(...madeHere);
    } catch (error) {
      failed.push(`${table}: ${(error as Error).message}`);
    }
  }
  if (failed.length > 0) throw new Error(`partition upkeep failed for ${failed.join("; ")}`);
  return made;
}
