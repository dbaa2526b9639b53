import assert from "node:assert/strict";
import { test } from "node:test";
import { openDb } from "./client.ts";
import { prepared, preparedName } from "./prepared.ts";

test("only registered texts have a prepared name, one per text", () => {
  const text = "select $1::int + 1 as n -- prepared.test one";
  assert.equal(preparedName(text), undefined);
  assert.equal(prepared(text), text, "the text is answered unchanged");
  const name = preparedName(text);
  assert.match(name ?? "", /^ml_[0-9a-f]{16}$/);
  assert.equal(prepared(text), text);
  assert.equal(preparedName(text), name, "registering again keeps the name");
  assert.notEqual(preparedName(prepared(`${text} two`)), name);
  assert.equal(preparedName("select 1"), undefined);
});

test("on a PostgreSQL server a registered statement is prepared once per connection and answers as before", {
  skip: !process.env.TEST_DATABASE_URL && "PostgreSQL only (TEST_DATABASE_URL)",
}, async () => {
  const db = await openDb({ databaseUrl: process.env.TEST_DATABASE_URL! });
  try {
    const text = prepared("select $1::int * 2 as n, $2::text as label -- prepared.test server");
    await db.transaction(async (tx) => {
      for (const n of [1, 2, 3, 4, 5, 6, 7])
        assert.deepEqual(await tx.query(text, [n, `x${n}`]), [{ n: n * 2, label: `x${n}` }]);
      const held = await tx.query<{ name: string; calls: string }>(
        "select name, generic_plans + custom_plans as calls from pg_prepared_statements where statement = $1",
        [text],
      );
      assert.deepEqual(held, [{ name: preparedName(text), calls: "7" }], "one statement, run seven times");
      // Any other text goes unnamed, as it always did.
      await tx.query("select $1::int as other", [1]);
      const [count] = await tx.query<{ n: string }>(
        "select count(*)::text as n from pg_prepared_statements where statement like '%as other%'",
      );
      assert.equal(count?.n, "0");
    });
  } finally {
    await db.close();
  }
});
