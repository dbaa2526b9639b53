import assert from "node:assert/strict";
import { test } from "node:test";
import { type Db, openDb } from "./client.ts";

/** Every kind of handle the server may run on: PGlite in its thread, PGlite in-line, and PostgreSQL when given. */
async function eachDb(run: (db: Db) => Promise<void>) {
  const previous = process.env.PGLITE_WORKER;
  for (const inline of [false, true]) {
    process.env.PGLITE_WORKER = inline ? "0" : "1";
    const db = await openDb({});
    try {
      await run(db);
    } finally {
      await db.close();
      process.env.PGLITE_WORKER = previous;
    }
  }
  if (process.env.TEST_DATABASE_URL) {
    const db = await openDb({ databaseUrl: process.env.TEST_DATABASE_URL });
    try {
      await run(db);
    } finally {
      await db.close();
    }
  }
}

test("a script runs several statements in one call and answers the rows of each", async () => {
  await eachDb(async (db) => {
    const rows = await db.script(
      "create temp table script_probe (n int); insert into script_probe values (1), (2); select n from script_probe order by n; select 3 as n",
    );
    assert.deepEqual(
      rows.map((r) => Number(r.n)),
      [1, 2, 3],
    );
  });
});

test("a script that fails inside its own transaction leaves the session usable", async () => {
  await eachDb(async (db) => {
    await assert.rejects(db.script("begin; select 1; select * from no_such_table; commit"));
    assert.deepEqual(await db.query("select 1 as one"), [{ one: 1 }]);
  });
});
