import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { PGlite } from "@electric-sql/pglite";
import { createPglite } from "./pglite-open.ts";
import { PreparedStatements } from "./pglite-prepared.ts";

let db: PGlite;
before(async () => {
  db = await createPglite(undefined);
  await db.exec("create table item (id int8 primary key, name text not null, tags text[], doc jsonb)");
});
after(() => db.close());

const preparedNames = async () =>
  (await db.query<{ name: string }>("select name from pg_prepared_statements order by name")).rows.map(
    (r) => r.name,
  );

test("answers as PGlite's own query does: the same rows and the same types, for every run", async () => {
  const statements = new PreparedStatements(db);
  const sql = `insert into item values ($1, $2, $3, $4) returning id, name, tags, doc, $5::timestamptz as at`;
  const params = ["9007199254740993", "电表", ["a", "b"], { k: [1] }, new Date("2026-01-02T03:04:05Z")];
  const mine = await statements.query(sql, params);
  await db.query("delete from item");
  const theirs = (await db.query(sql, params)).rows;
  assert.deepEqual(mine, theirs);
  assert.equal((mine[0] as { id: string }).id, "9007199254740993");
  await db.query("delete from item");
  for (let i = 0; i < 3; i++)
    await statements.query("insert into item (id, name) values ($1, $2)", [i, `m${i}`]);
  assert.deepEqual(await statements.query("select name from item where id >= $1 order by id", [1]), [
    { name: "m1" },
    { name: "m2" },
  ]);
  assert.deepEqual(await statements.query("select count(*)::int as n from item where name = $1", [null]), [
    { n: 0 },
  ]);
});

test("a text is parsed once, and the least recently used is closed beyond the limit", async () => {
  const statements = new PreparedStatements(db, 2);
  const before = (await preparedNames()).length;
  await statements.query("select 1 as a");
  await statements.query("select 2 as b");
  await statements.query("select 1 as a");
  assert.equal((await preparedNames()).length, before + 2);
  // A third text pushes out "select 2", the least recently used; its close rides the next message.
  await statements.query("select 3 as c");
  await statements.query("select 1 as a");
  assert.equal((await preparedNames()).length, before + 2);
  assert.deepEqual(await statements.query("select 2 as b"), [{ b: 2 }]);
});

test("a failed statement leaves the session usable, and a bad text is not kept", async () => {
  const statements = new PreparedStatements(db);
  await assert.rejects(statements.query("select nope from item"), { code: "42703" });
  await assert.rejects(statements.query("select id from item where id = $1", ["x"]), { code: "22P02" });
  await assert.rejects(statements.query("insert into item (id, name) values ($1, $2)", [0, "dup"]), {
    code: "23505",
  });
  assert.deepEqual(await statements.query("select count(*)::int as n from item"), [{ n: 3 }]);
});

test("a statement over a table whose columns changed is prepared again", async () => {
  const statements = new PreparedStatements(db);
  await db.exec("create table shape (id int)");
  await db.exec("insert into shape values (1)");
  assert.deepEqual(await statements.query("select * from shape"), [{ id: 1 }]);
  await db.exec("alter table shape add column label text default 'x'");
  assert.deepEqual(await statements.query("select * from shape"), [{ id: 1, label: "x" }]);
});

test("inside a transaction a changed table is an error for the caller, not a silent retry", async () => {
  const statements = new PreparedStatements(db);
  await db.exec("create table moving (id int)");
  await statements.query("select * from moving");
  await db.exec("alter table moving add column extra int");
  await db.query("begin");
  await assert.rejects(statements.query("select * from moving", [], true), { code: "0A000" });
  await db.query("rollback");
  assert.deepEqual(await statements.query("select * from moving"), []);
});

test("a failure names its statement and values, as PGlite's own errors do", async () => {
  const statements = new PreparedStatements(db);
  await assert.rejects(statements.query("select id from item where id = $1", ["x"]), {
    code: "22P02",
    query: "select id from item where id = $1",
    params: ["x"],
  });
});

test("a long text (a bulk write) runs without being kept", async () => {
  const statements = new PreparedStatements(db);
  const before = (await preparedNames()).length;
  const values = Array.from({ length: 2000 }, (_, i) => `($${i + 1}::int)`).join(", ");
  const sql = `select count(*)::int as n from (values ${values}) v(x)`;
  assert.deepEqual(
    await statements.query(
      sql,
      Array.from({ length: 2000 }, (_, i) => i),
    ),
    [{ n: 2000 }],
  );
  assert.equal((await preparedNames()).length, before);
});
