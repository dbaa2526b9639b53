import { readdir, readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { type ResourceDef, resources } from "@meterline/contracts";
import { syncResourceTables } from "../crud/schema-sync.ts";
import type { Db, Queryable } from "./client.ts";
import { seedStandardButtons } from "./standard-buttons.ts";

const MIGRATIONS_DIR = fileURLToPath(new URL("./migrations/", import.meta.url));
const SEED_DIR = fileURLToPath(new URL("./migrations/seed/", import.meta.url));
// Schema that needs the plain resources' tables (indexes on them): applied once those exist.
const AFTER_RESOURCES_DIR = fileURLToPath(new URL("./migrations/after-resources/", import.meta.url));
// Any constant works; it only has to be the same in every process that migrates this database.
const MIGRATION_LOCK = 7_046_451;

async function applyDir(tx: Queryable, dir: string, prefix: string, done: Set<string>): Promise<string[]> {
  const files = (await readdir(dir)).filter((f) => /^\d{3}_[\w-]+\.sql$/.test(f)).sort();
  const applied: string[] = [];
  for (const file of files) {
    const version = prefix + file;
    if (done.has(version)) continue;
    const sql = await readFile(dir + file, "utf8");
    for (const statement of splitStatements(sql)) await tx.query(statement);
    await tx.query("insert into schema_migration (version) values ($1)", [version]);
    applied.push(version);
  }
  return applied;
}

/**
 * Brings the database up to date in one transaction: hand-written schema migrations, then the
 * tables of the plain resources from their definitions, then the schema built on those (search
 * indexes), then the reference rows (seed migrations), which may fill both kinds of table.
 */
export async function migrate(
  db: Db,
  plain: readonly ResourceDef[] = Object.values(resources),
): Promise<string[]> {
  return db.transaction(async (tx) => {
    // Several servers may start at once against one PostgreSQL: the lock makes them take turns.
    await tx.query("select pg_advisory_xact_lock($1)", [MIGRATION_LOCK]);
    await tx.query(
      "create table if not exists schema_migration (version text primary key, applied_at timestamptz not null default now())",
    );
    const done = new Set(
      (await tx.query<{ version: string }>("select version from schema_migration")).map((r) => r.version),
    );
    const schema = await applyDir(tx, MIGRATIONS_DIR, "", done);
    await syncResourceTables(tx, plain);
    const onResources = await applyDir(tx, AFTER_RESOURCES_DIR, "after-resources/", done);
    const seeds = await applyDir(tx, SEED_DIR, "seed/", done);
    const buttons = await seedStandardButtons(tx, plain, done);
    return [...schema, ...onResources, ...seeds, ...buttons];
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
