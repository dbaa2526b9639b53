/**
 * One migrated and seeded embedded database that every PGlite test server of a run starts from,
 * instead of each running initdb, the migrations and the seed again (seconds per test server).
 *
 * scripts/test.mjs makes it before the test files run and removes it after them:
 *   node --import tsx apps/server/test/db-template.ts create   → prints TEST_DB_TEMPLATE's value
 *   node --import tsx apps/server/test/db-template.ts drop <value>
 * On PGlite it is a dump file that each in-memory database loads. On PostgreSQL (TEST_DATABASE_URL)
 * it is a database of the server, migrated and seeded once, that each test server's database is
 * created from (`create database … template`: a tenth of a second against a second and a half for
 * the migrations and the seed). A test file run on its own has no TEST_DB_TEMPLATE and migrates
 * and seeds as before.
 */
import { randomBytes } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { type Db, openDb } from "../src/db/client.ts";
import { migrate } from "../src/db/migrate.ts";
import { createPglite } from "../src/db/pglite-open.ts";
import { seed } from "../src/db/seed.ts";

export const ADMIN_PASSWORD = "admin";

/** What every test server holds before its test acts: the schema, the reference rows and `admin`. */
export async function prepare(db: Db): Promise<void> {
  await migrate(db);
  await seed(db, { adminPassword: ADMIN_PASSWORD });
}

/** The dump file to start a PGlite test database from, when this run made one (and tests on PGlite). */
export function templateOfEnv(): string | undefined {
  return process.env.TEST_DATABASE_URL ? undefined : process.env.TEST_DB_TEMPLATE || undefined;
}

/** The PostgreSQL database to create test databases from, when this run made one (tests on PostgreSQL). */
export function pgTemplateOfEnv(): string | undefined {
  return process.env.TEST_DATABASE_URL ? process.env.TEST_DB_TEMPLATE || undefined : undefined;
}

/** Runs `sql` on the maintenance connection of TEST_DATABASE_URL's server. */
export async function onServer(serverUrl: string, sql: string): Promise<void> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}

/** `serverUrl` with its database replaced by `name`. */
export function databaseUrlOf(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function createOnServer(serverUrl: string): Promise<string> {
  const name = `meterline_tpl_${randomBytes(6).toString("hex")}`;
  await onServer(serverUrl, `create database ${name}`);
  const db = await openDb({ databaseUrl: databaseUrlOf(serverUrl, name) });
  try {
    await prepare(db);
  } finally {
    // A template must have no connection left when a database is created from it.
    await db.close();
  }
  return name;
}

async function create(): Promise<string> {
  if (process.env.TEST_DATABASE_URL) return createOnServer(process.env.TEST_DATABASE_URL);
  const db = await createPglite(undefined);
  // migrate and seed take the Db interface; this one runs on the PGlite instance in-line.
  const inline: Db = {
    kind: "pglite",
    query: async (sql, params) => (await db.query(sql, params as unknown[])).rows as never,
    transaction: (fn) =>
      db.transaction((tx) =>
        fn({ query: async (sql, params) => (await tx.query(sql, params as unknown[])).rows as never }),
      ),
    watchChanges: () => Promise.reject(new Error("the template database is not watched")),
    script: async (sql) => (await db.exec(sql)).flatMap((result) => result.rows as Record<string, unknown>[]),
    close: () => db.close(),
  };
  await prepare(inline);
  const file = path.join(await mkdtemp(path.join(tmpdir(), "meterline-template-")), "pglite.tar");
  await writeFile(file, Buffer.from(await (await db.dumpDataDir("none")).arrayBuffer()));
  await db.close();
  return file;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [command, value] = process.argv.slice(2);
  if (command === "create") process.stdout.write(await create());
  else if (command === "drop") {
    const serverUrl = process.env.TEST_DATABASE_URL;
    if (value && serverUrl) await onServer(serverUrl, `drop database if exists ${value} with (force)`);
    else if (value) await rm(path.dirname(value), { recursive: true, force: true });
  } else throw new Error("usage: db-template.ts create | drop <file>");
}
