import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { Db } from "./client.ts";
import { analyzeEmbedded } from "./embedded-statistics.ts";
import { openPgliteThread } from "./pglite-thread.ts";

let db: Db;
before(async () => {
  db = await openPgliteThread(undefined);
  await db.query("create table room (id int8 primary key, area_id int8 not null)");
  await db.query("create table reading (id int8, at date not null) partition by range (at)");
  await db.query(
    "create table reading_2026 partition of reading for values from ('2026-01-01') to ('2027-01-01')",
  );
  await db.query("insert into room select g, g % 20 from generate_series(1, 2000) g");
  await db.query("insert into reading select g, date '2026-01-01' + g % 300 from generate_series(1, 3000) g");
});
after(() => db.close());

const estimate = async (sql: string) => {
  const [row] = await db.query<{ "QUERY PLAN": string }>(`explain ${sql}`);
  return Number(row!["QUERY PLAN"].match(/rows=(\d+)/)?.[1]);
};

test("the embedded database's tables and partitions get the statistics autovacuum would give them", async () => {
  const tuples = async () =>
    Object.fromEntries(
      (
        await db.query<{ relname: string; reltuples: number }>(
          "select relname, reltuples::int as reltuples from pg_class where relname in ('room', 'reading_2026')",
        )
      ).map((r) => [r.relname, r.reltuples]),
    );
  // Never analyzed: the planner knows nothing of the rows.
  assert.deepEqual(await tuples(), { room: -1, reading_2026: -1 });
  assert.ok((await analyzeEmbedded(db)) >= 2);
  assert.deepEqual(await tuples(), { room: 2000, reading_2026: 3000 });
  // An area holds a twentieth of the rooms, and the planner now says so.
  assert.equal(await estimate("select * from room where area_id = 7"), 100);
  // Settled: the next pass analyzes nothing; a table grown tenfold is analyzed once more.
  assert.equal(await analyzeEmbedded(db), 0);
  await db.query("insert into room select g, 7 from generate_series(2001, 22000) g");
  assert.equal(await analyzeEmbedded(db), 1);
  const seven = await estimate("select * from room where area_id = 7");
  assert.ok(seven > 19_000 && seven < 21_000, `${seven} rooms estimated in area 7 of 20,100`);
  const [stats] = await db.query<{ n: number }>(
    "select count(*)::int as n from pg_stats where tablename = 'reading_2026' and attname = 'at'",
  );
  assert.equal(stats!.n, 1);
});

test("a pass stops between tables once the server is stopping; a PostgreSQL server is left to autovacuum", async () => {
  assert.equal(await analyzeEmbedded(db, () => true), 0);
  let sent = 0;
  const server = {
    kind: "postgres",
    query: async () => {
      sent++;
      return [];
    },
  } as unknown as Db;
  assert.equal(await analyzeEmbedded(server), 0);
  assert.equal(sent, 0);
});
