/**
 * One migrated and seeded database that every test server of a run starts from, instead of each
 * migrating and seeding its own (seconds per server on PGlite, which also runs initdb each time).
 *
 * scripts/test.mjs makes it before the test files run and removes it after them:
 *   node --import tsx apps/server/test/db-template.ts create   → prints TEST_DB_TEMPLATE's value
 *   node --import tsx apps/server/test/db-template.ts drop <value>
 * On PostgreSQL (TEST_DATABASE_URL) it is a database that each test server's database is created
 * from (`create database … template …`); on PGlite a dump file that each in-memory database loads.
 * A test file run on its own has no TEST_DB_TEMPLATE and migrates and seeds as before.
 */
import { randomBytes } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import type { Db } from "../src/db/client.ts";
import { openDb } from "../src/db/client.ts";
import { migrate } from "../src/db/migrate.ts";
import { createPglite } from "../src/db/pglite-open.ts";
import { seed } from "../src/db/seed.ts";

export const ADMIN_PASSWORD = "admin";

/** What every test server holds before its test acts: the schema, the reference rows and `admin`. */
export async function prepare(db: Db): Promise<void> {
  await migrate(db);
  await seed(db, { adminPassword: ADMIN_PASSWORD });
}

type Template = { kind: "postgres"; database: string } | { kind: "pglite"; file: string };

/** TEST_DB_TEMPLATE, when it was made for the database kind this process tests on. */
export function templateOfEnv(): Template | undefined {
  const value = process.env.TEST_DB_TEMPLATE;
  if (!value) return undefined;
  const template = JSON.parse(value) as Template;
  return (template.kind === "postgres") === Boolean(process.env.TEST_DATABASE_URL) ? template : undefined;
}

async function onServer<T>(serverUrl: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

export function databaseUrlOf(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

async function create(): Promise<Template> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (serverUrl) {
    const database = `meterline_template_${randomBytes(6).toString("hex")}`;
    await onServer(serverUrl, (c) => c.query(`create database ${database}`));
    const db = await openDb({ databaseUrl: databaseUrlOf(serverUrl, database) });
    try {
      await prepare(db);
    } finally {
      // A template database can be copied only while nobody is connected to it.
      await db.close();
    }
    return { kind: "postgres", database };
  }
  const db = await createPglite(undefined);
  const file = path.join(await mkdtemp(path.join(tmpdir(), "meterline-template-")), "pglite.tar");
  const wrapped: Db = {
    kind: "pglite",
    query: async (sql, params) => (await db.query(sql, params as unknown[])).rows as never,
    transaction: (fn) =>
      db.transaction((tx) =>
        fn({ query: async (sql, params) => (await tx.query(sql, params as unknown[])).rows as never }),
      ),
    watchChanges: () => Promise.reject(new Error("not watched")),
    close: () => db.close(),
  };
  await prepare(wrapped);
  await writeFile(file, Buffer.from(await (await db.dumpDataDir("none")).arrayBuffer()));
  await db.close();
  return { kind: "pglite", file };
}

async function drop(template: Template): Promise<void> {
  if (template.kind === "pglite") {
    await rm(path.dirname(template.file), { recursive: true, force: true });
    return;
  }
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (serverUrl) await onServer(serverUrl, (c) => c.query(`drop database if exists ${template.database}`));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [command, value] = process.argv.slice(2);
  if (command === "create") process.stdout.write(JSON.stringify(await create()));
  else if (command === "drop" && value) await drop(JSON.parse(value) as Template);
  else throw new Error("usage: db-template.ts create | drop <template>");
}
