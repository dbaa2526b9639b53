import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import fc from "fast-check";
import { type Db, openDb } from "../db/client.ts";
import { keysetAfter, type OrderKey, orderText } from "./keyset.ts";
import { SqlParams } from "./sql.ts";

// Checked against PostgreSQL itself: reading a table chunk by chunk through keysetAfter must give
// exactly the rows of one ordered read, whatever the directions, ties, nulls and chunk size.
let db: Db;

before(async () => {
  db = await openDb({});
  await db.query(`create table k (id bigint primary key, a int, b text, c timestamp(6))`);
});
after(() => db.close());

const row = fc.record({
  a: fc.option(fc.integer({ min: 0, max: 3 }), { nil: null }),
  b: fc.option(fc.constantFrom("x", "y", "甲", ""), { nil: null }),
  // Microseconds matter: a cursor read back as a JS Date would lose them and skip or repeat rows.
  c: fc.option(
    fc.integer({ min: 0, max: 4 }).map((n) => `2026-01-0${1 + (n % 2)} 10:00:00.00000${n}`),
    { nil: null },
  ),
});

const keysArb = fc
  .uniqueArray(fc.constantFrom("a", "b", "c"), { minLength: 0, maxLength: 3 })
  .chain((columns) =>
    fc.tuple(
      fc.constant(columns),
      fc.array(fc.boolean(), { minLength: columns.length, maxLength: columns.length }),
      fc.boolean(),
    ),
  )
  .map(([columns, directions, idDesc]): OrderKey[] => [
    ...columns.map((c, i) => ({ expr: `t.${c}`, desc: directions[i]! })),
    { expr: "t.id", desc: idDesc },
  ]);

async function chunked(keys: OrderKey[], size: number): Promise<string[]> {
  const seen: string[] = [];
  let cursor: (string | null)[] | undefined;
  for (let round = 0; round < 200; round++) {
    const sql = new SqlParams();
    const where = cursor ? keysetAfter(keys, cursor, sql) : "true";
    const rows = await db.query<Record<string, string | null>>(
      `select t.id::text as id, ${keys.map((k, i) => `${k.expr}::text as k${i}`).join(", ")}
         from k t where ${where} order by ${orderText(keys)} limit ${sql.bind(size)}`,
      sql.values,
    );
    if (rows.length === 0) return seen;
    seen.push(...rows.map((r) => String(r.id)));
    const last = rows.at(-1)!;
    cursor = keys.map((_, i) => last[`k${i}`] ?? null);
  }
  throw new Error("keyset paging did not end");
}

test("chunked keyset reads give the rows of one ordered read, nulls, ties and mixed directions included", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(row, { minLength: 0, maxLength: 30 }),
      keysArb,
      fc.integer({ min: 1, max: 7 }),
      async (rows, keys, size) => {
        await db.query("delete from k");
        for (const [i, r] of rows.entries())
          await db.query("insert into k values ($1, $2, $3, $4)", [i + 1, r.a, r.b, r.c]);
        const whole = await db.query<{ id: string }>(
          `select t.id::text as id from k t order by ${orderText(keys)}`,
        );
        assert.deepEqual(
          await chunked(keys, size),
          whole.map((r) => r.id),
        );
      },
    ),
    { numRuns: 80 },
  );
});

test("a cursor needs one value per key", () => {
  assert.throws(() => keysetAfter([{ expr: "t.id", desc: false }], [], new SqlParams()), /one value per key/);
});
