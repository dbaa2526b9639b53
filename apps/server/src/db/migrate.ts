import { readdir, readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import type { Db } from "./client.ts";

const MIGRATIONS_DIR = fileURLToPath(new URL("./migrations/", import.meta.url));
// Any constant works; it only has to be the same in every process that migrates this database.
const MIGRATION_LOCK = 7_046_451;

/** Applies every `NNN_name.sql` not yet recorded, in order, each in its own transaction. */
export async function migrate(db: Db): Promise<string[]> {
  const files = (await readdir(MIGRATIONS_DIR)).filter((f) => /^\d{3}_[\w-]+\.sql$/.test(f)).sort();
  return db.transaction(async (tx) => {
    // Several servers may start at once against one PostgreSQL: the lock makes them take turns.
    await tx.query("select pg_advisory_xact_lock($1)", [MIGRATION_LOCK]);
    await tx.query(
      "create table if not exists schema_migration (version text primary key, applied_at timestamptz not null default now())",
    );
    const done = new Set(
      (await tx.query<{ version: string }>("select version from schema_migration")).map((r) => r.version),
    );
    const applied: string[] = [];
    for (const file of files) {
      if (done.has(file)) continue;
      const sql = await readFile(MIGRATIONS_DIR + file, "utf8");
      for (const statement of splitStatements(sql)) await tx.query(statement);
      await tx.query("insert into schema_migration (version) values ($1)", [file]);
      applied.push(file);
    }
    return applied;
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
