import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { test } from "node:test";
import pg from "pg";
import { FieldCipher } from "../src/crud/field-cipher.ts";
import { openDb } from "../src/db/client.ts";
import { migrate } from "../src/db/migrate.ts";
import { seed } from "../src/db/seed.ts";
import { startNoticeQueue } from "../src/modules/notices/notice-queue.ts";

const serverUrl = process.env.TEST_DATABASE_URL;
/**
 * Rounds of four starts at once, each on a fresh database of its own: 3 in the suite (each round
 * migrates a new database), RACING_START_ROUNDS=10 for the ten in a row of issue 41.
 */
const ROUNDS = Number(process.env.RACING_START_ROUNDS) || 3;
const STARTS = 4;

/** A fresh, empty database on the test server; dropped by the function it answers. */
async function freshDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `meterline_race_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl!);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

/**
 * What every server does to the database as it starts, in order: migrations (schema, resource
 * tables, partitions, seeds), the platform's first rows, the owner-notice job queue (pg-boss makes
 * its schema). Several processes started together on one PostgreSQL (a rolling deploy, replicas)
 * must all get through it; PGlite has one process per data directory, so this is PostgreSQL's.
 */
async function start(url: string) {
  const db = await openDb({ databaseUrl: url });
  try {
    await migrate(db);
    await seed(db, { adminPassword: "racing-starts-admin" });
    const queue = await startNoticeQueue({
      db,
      cipher: new FieldCipher(randomBytes(32).toString("hex")),
      providers: {},
      pollSeconds: 3600,
    });
    await queue.stop();
  } finally {
    await db.close();
  }
}

test(`${STARTS} servers started at once on a fresh PostgreSQL database all start, ${ROUNDS} rounds`, {
  skip: serverUrl ? false : "PostgreSQL only (TEST_DATABASE_URL)",
  timeout: 600_000,
}, async () => {
  for (let round = 0; round < ROUNDS; round++) {
    const { url, drop } = await freshDatabase();
    try {
      const outcomes = await Promise.allSettled(Array.from({ length: STARTS }, () => start(url)));
      const failed = outcomes.flatMap((o, i) =>
        o.status === "rejected" ? [`start ${i}: ${String(o.reason)}`] : [],
      );
      assert.deepEqual(failed, [], `round ${round}`);
      // One platform administrator, however many seeded at once.
      const check = await openDb({ databaseUrl: url });
      const admins = await check.query<{ n: string }>(
        "select count(*)::text as n from sys_user where tenant_id = '000000' and account = 'admin'",
      );
      await check.close();
      assert.equal(admins[0]!.n, "1", `round ${round}`);
    } finally {
      await drop();
    }
  }
});
