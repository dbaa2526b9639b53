import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { withArrayLiterals } from "./array-literal.ts";
import { type Db, openDb } from "./client.ts";
import { type Column, columnParams, columnRows } from "./column-params.ts";

interface Row {
  id: string;
  tenant: string | null;
  day: string | null;
  kind: number | null;
  note: string | null;
}

const COLUMNS: readonly Column<Row>[] = [
  { name: "id", type: "bigint", of: (r) => r.id },
  { name: "tenant", type: "varchar", shared: true, of: (r) => r.tenant },
  { name: "day", type: "date", shared: true, of: (r) => r.day },
  { name: "kind", type: "int", shared: true, of: (r) => r.kind },
  { name: "note", type: "varchar", of: (r) => r.note },
];

/** A small deterministic generator, so a failing case can be run again by its seed. */
function random(seed: number) {
  let state = seed >>> 0 || 1;
  return (n: number) => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) % n;
  };
}

/** Rows whose shared columns are all one value, mostly one value, or all null, by the seed. */
function rowsOf(seed: number): Row[] {
  const pick = random(seed);
  const count = 1 + pick(40);
  const value = <T>(choices: readonly T[]) => {
    const mode = pick(4);
    const one = choices[pick(choices.length)]!;
    return () =>
      mode === 0
        ? one
        : mode === 1
          ? null
          : mode === 2
            ? choices[pick(choices.length)]!
            : pick(10) === 0
              ? null
              : one;
  };
  const tenant = value(["000000", "100001", "电表 3号楼", 'a "quoted" one']);
  const day = value(["2026-12-02", "2026-12-31", "2027-01-01"]);
  const kind = value([6, 7, 0]);
  return Array.from({ length: count }, (_, i) => ({
    id: String(seed * 100 + i),
    tenant: tenant(),
    day: day(),
    kind: kind(),
    note: pick(3) === 0 ? null : `n${i}`,
  }));
}

let db: Db;
before(async () => {
  db = await openDb(process.env.TEST_DATABASE_URL ? { databaseUrl: process.env.TEST_DATABASE_URL } : {});
});
after(async () => db?.close());

test("a shared column every row agrees on is sent once, beside an empty array; any other is sent whole", () => {
  const rows: Row[] = [
    { id: "1", tenant: "000000", day: "2026-12-02", kind: 6, note: null },
    { id: "2", tenant: "000000", day: null, kind: 6, note: "x" },
  ];
  assert.deepEqual(columnParams(COLUMNS, rows), [
    ["1", "2"],
    [],
    "000000",
    ["2026-12-02", null],
    null,
    [],
    6,
    [null, "x"],
  ]);
  assert.deepEqual(columnParams(COLUMNS, []), [[], [], null, [], null, [], null, []]);
  const { sql, names, next } = columnRows(COLUMNS, 3, "u");
  assert.equal(names, "id, tenant, day, kind, note");
  assert.equal(next, 11, "two parameters for each of the three shared columns, one for the others");
  assert.equal(
    sql,
    "(select x.id, coalesce(x.tenant, $5::varchar) as tenant, coalesce(x.day, $7::date) as day, " +
      "coalesce(x.kind, $9::int) as kind, x.note from unnest($3::bigint[], $4::varchar[], $6::date[], " +
      "$8::int[], $10::varchar[]) as x(id, tenant, day, kind, note)) as u",
  );
});

test("the database reads back every row as it was, whichever way each column was sent", async () => {
  const { sql } = columnRows(COLUMNS, 1, "u");
  const statement = `select u.id::text as id, u.tenant, to_char(u.day, 'YYYY-MM-DD') as day, u.kind, u.note
                       from ${sql} order by u.id`;
  let sentOnce = 0;
  for (let seed = 1; seed <= 60; seed++) {
    const rows = rowsOf(seed);
    const params = columnParams(COLUMNS, rows);
    sentOnce += params.filter((p) => Array.isArray(p) && p.length === 0).length;
    // Sent as the sink sends them: the arrays as literals (db/array-literal.ts).
    const back = await db.query<Row>(statement, withArrayLiterals(params));
    assert.deepEqual(back, rows, `seed ${seed}`);
  }
  assert.ok(sentOnce > 30, `the cases include shared columns sent once (${sentOnce})`);
});
