import { createHash } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { type ResourceDef, resources } from "@meterline/contracts";
import { resourceTableStatements } from "../crud/schema-sync.ts";
import type { Db, Queryable } from "./client.ts";
import { partitionGrowingTables } from "./partitions.ts";
import { seedStandardButtons } from "./standard-buttons.ts";

export const MIGRATIONS_DIR = fileURLToPath(new URL("./migrations/", import.meta.url));
const SEED_DIR = fileURLToPath(new URL("./migrations/seed/", import.meta.url));
// Schema that needs the plain resources' tables (indexes on them): applied once those exist.
export const AFTER_RESOURCES_DIR = fileURLToPath(new URL("./migrations/after-resources/", import.meta.url));
// Any constant works; it only has to be the same in every process that migrates this database.
export const MIGRATION_LOCK = 7_046_451;
/**
 * The step that splits the tables growing with time by month: code rather than SQL, as it creates
 * a partition for every month found in the rows. It runs once the resource tables exist, so a new
 * database and an old one with years of readings take the same path.
 */
const PARTITION_STEP = "038_reading_partitions";

interface Migration {
  version: string;
  sql: string;
}

/** Everything `migrate` would apply, and its digest. */
interface Plan {
  schema: Migration[];
  resourceTables: string[];
  onResources: Migration[];
  seeds: Migration[];
  plain: readonly ResourceDef[];
  /** Every version the plan records in schema_migration once applied (standard buttons included). */
  versions: string[];
  digest: string;
}

async function readDir(dir: string, prefix: string): Promise<Migration[]> {
  const files = (await readdir(dir)).filter((f) => /^\d{3}_[\w-]+\.sql$/.test(f)).sort();
  return Promise.all(
    files.map(async (file) => ({ version: prefix + file, sql: await readFile(dir + file, "utf8") })),
  );
}

async function planOf(plain: readonly ResourceDef[]): Promise<Plan> {
  const [schema, onResources, seeds] = await Promise.all([
    readDir(MIGRATIONS_DIR, ""),
    readDir(AFTER_RESOURCES_DIR, "after-resources/"),
    readDir(SEED_DIR, "seed/"),
  ]);
  const resourceTables = resourceTableStatements(plain);
  const hash = createHash("sha256");
  for (const m of [...schema, ...onResources, ...seeds]) hash.update(`${m.version}\0${m.sql}\0`);
  for (const statement of resourceTables) hash.update(`${statement}\0`);
  const versions = [...schema, ...onResources, ...seeds].map((m) => m.version);
  versions.push(PARTITION_STEP);
  versions.push(...plain.map((def) => `buttons/${def.name}`));
  for (const version of versions) hash.update(`${version}\0`);
  return { schema, resourceTables, onResources, seeds, plain, versions, digest: hash.digest("hex") };
}

/**
 * Whether the database has applied this very plan: the digest of the plan last applied in full is
 * kept as the comment of schema_migration, and every version of the plan must still be recorded
 * (deleting a version's row is how an operator asks for it again). One query; it fails on a
 * database that has no schema_migration yet, which is then simply not up to date.
 */
async function isUpToDate(db: Queryable, plan: Plan): Promise<boolean> {
  let state: { digest: string | null; versions: string[] | null } | undefined;
  try {
    [state] = await db.query<{ digest: string | null; versions: string[] | null }>(
      "select obj_description('schema_migration'::regclass, 'pg_class') as digest, array_agg(version) as versions from schema_migration",
    );
  } catch {
    return false;
  }
  if (state?.digest !== plan.digest) return false;
  const recorded = new Set(state.versions ?? []);
  return plan.versions.every((version) => recorded.has(version));
}

async function applyAll(tx: Queryable, migrations: Migration[], done: Set<string>): Promise<string[]> {
  const applied: string[] = [];
  for (const { version, sql } of migrations) {
    if (done.has(version)) continue;
    for (const statement of splitStatements(sql)) await tx.query(statement);
    await tx.query("insert into schema_migration (version) values ($1)", [version]);
    applied.push(version);
  }
  return applied;
}

/**
 * Brings the database up to date in one transaction: hand-written schema migrations, then the
 * tables of the plain resources from their definitions, then the schema built on those (search
 * indexes), then the reference rows (seed migrations), which may fill both kinds of table. A
 * database already up to date costs one query: the digest of all of it, compared with the digest
 * stored when it was last applied in full.
 */
export async function migrate(
  db: Db,
  plain: readonly ResourceDef[] = Object.values(resources),
): Promise<string[]> {
  const plan = await planOf(plain);
  if (await isUpToDate(db, plan)) return [];
  return db.transaction(async (tx) => {
    // Several servers may start at once against one PostgreSQL: the lock makes them take turns.
    await tx.query("select pg_advisory_xact_lock($1)", [MIGRATION_LOCK]);
    await tx.query(
      "create table if not exists schema_migration (version text primary key, applied_at timestamptz not null default now())",
    );
    // The one before us may just have applied the same plan.
    if (await isUpToDate(tx, plan)) return [];
    const done = new Set(
      (await tx.query<{ version: string }>("select version from schema_migration")).map((r) => r.version),
    );
    const schema = await applyAll(tx, plan.schema, done);
    for (const statement of plan.resourceTables) await tx.query(statement);
    // Every time, not once: a table the resource step has just made (a definition applied later
    // than the others) is plain again until this runs; a partitioned one costs one catalogue query.
    await partitionGrowingTables(tx, plain);
    const partitioned: string[] = [];
    if (!done.has(PARTITION_STEP)) {
      await tx.query("insert into schema_migration (version) values ($1)", [PARTITION_STEP]);
      partitioned.push(PARTITION_STEP);
    }
    const onResources = await applyAll(tx, plan.onResources, done);
    const seeds = await applyAll(tx, plan.seeds, done);
    const buttons = await seedStandardButtons(tx, plain, done);
    // A screen not seeded yet gets its buttons at a later start: until then the plan is not complete.
    const complete = plain.every(
      (def) => done.has(`buttons/${def.name}`) || buttons.includes(`buttons/${def.name}`),
    );
    // A comment takes no parameters; the digest is our own hex string.
    if (complete) await tx.query(`comment on table schema_migration is '${plan.digest}'`);
    return [...schema, ...partitioned, ...onResources, ...seeds, ...buttons];
  });
}

/** Splits a migration on semicolons at line ends; migrations keep function bodies out of this format. */
export function splitStatements(sql: string): string[] {
  return sql
    .replace(/^\s*--.*$/gm, "")
    .split(/;\s*$/m)
    .map((s) => s.trim())
    .filter(Boolean);
}
