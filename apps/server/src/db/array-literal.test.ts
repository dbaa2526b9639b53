import assert from "node:assert/strict";
import { test } from "node:test";
import pg from "pg";
import { arrayLiteral, withArrayLiterals, withArrayLiteralsInSlices } from "./array-literal.ts";
import { openDb } from "./client.ts";

/** Strings an array literal must carry exactly: quotes, backslashes, separators, braces, the word NULL. */
const AWKWARD = [
  "",
  " ",
  " lead and trail ",
  "NULL",
  "null",
  'say "hi"',
  "back\\slash",
  '\\"',
  "a,b",
  "{braces}",
  "tab\there",
  "line\nbreak",
  "电表 3号楼",
  "😀",
  "'single'",
];

test("plain values are written as the literal PostgreSQL reads back, quoted only where needed", () => {
  assert.equal(arrayLiteral([]), "{}");
  assert.equal(arrayLiteral([1, -2, 3.5, 10n, null, undefined, true]), "{1,-2,3.5,10,NULL,NULL,true}");
  assert.equal(arrayLiteral(["a", 'b"c', "d\\e"]), '{"a","b\\"c","d\\\\e"}');
  assert.equal(arrayLiteral(["a", "b c", ""]), '{"a","b c",""}');
  assert.equal(arrayLiteral([1, 2n]), "{1,2}", "mixed kinds: element by element");
  assert.equal(arrayLiteral(["1", null]), '{"1",NULL}');
  // Anything whose text the driver decides (dates by its time zone setting, objects as JSON) is left to it.
  assert.equal(arrayLiteral([new Date(0)]), undefined);
  assert.equal(arrayLiteral([[1, 2]]), undefined);
  assert.equal(arrayLiteral([{ a: 1 }]), undefined);
  assert.equal(arrayLiteral([Buffer.from("x")]), undefined);
});

test("only flat arrays of plain values are replaced, the parameters given are not changed", () => {
  const params = [1, "x", [1, 2], [new Date(0)], null];
  const out = withArrayLiterals(params);
  assert.deepEqual(out, [1, "x", "{1,2}", [new Date(0)], null]);
  assert.deepEqual(params[2], [1, 2], "the caller's array is left as it was");
  const plain = [1, "x"];
  assert.equal(withArrayLiterals(plain), plain, "nothing to replace: the same parameters");
  assert.equal(withArrayLiterals(undefined), undefined);
});

test("written a few at a time, the parameters come out as written all at once", async () => {
  const params = Array.from({ length: 41 }, (_, i) =>
    i % 5 === 0 ? `scalar ${i}` : i % 7 === 0 ? [new Date(i)] : [i, String(i), null, `"${i}"`],
  );
  const before = structuredClone(params);
  assert.deepEqual(await withArrayLiteralsInSlices(params, 4), withArrayLiterals(params));
  assert.deepEqual(await withArrayLiteralsInSlices(params), withArrayLiterals(params));
  assert.deepEqual(params, before, "the caller's parameters are left as they were");
});

test("the literal reads back as the driver's own writing of the same array, on a PostgreSQL server", {
  skip: !process.env.TEST_DATABASE_URL && "PostgreSQL only (TEST_DATABASE_URL)",
}, async () => {
  const db = await openDb({ databaseUrl: process.env.TEST_DATABASE_URL! });
  const driver = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await driver.connect();
  try {
    // Random strings over the awkward alphabet as well as the fixed ones.
    const alphabet = ['"', "\\", ",", "{", "}", " ", "a", "N", "U", "L", "电", "\n", "'"];
    const random = Array.from({ length: 200 }, (_, i) =>
      Array.from({ length: i % 9 }, () => alphabet[Math.floor(Math.random() * alphabet.length)]).join(""),
    );
    const texts = [...AWKWARD, ...random, null];
    const numbers = [0, -1, 2147483647, -2147483648, null];
    const bigints = ["9007199254740993", -9007199254740993n, 0n, null];
    const decimals = ["0.01", "-12345678901234.99", 1.5, null];
    const flags = [true, false, null];
    const sql =
      "select $1::text[] as t, $2::int[] as i, $3::bigint[] as b, $4::numeric[] as n, $5::bool[] as f";
    const params = [texts, numbers, bigints, decimals, flags];
    const [ours] = await db.query<Record<string, unknown>>(sql, params);
    const { rows } = await driver.query(sql, params);
    assert.deepEqual(ours, rows[0]);
    assert.deepEqual((ours as { t: unknown }).t, texts, "every string back as it was sent");
    // Arrays all of one kind without nulls take the joined writer: strings with separators,
    // braces, spaces, the word NULL and empty ones among them, but no quote or backslash.
    const plainTexts = [...AWKWARD, ...random].filter((t) => !/["\\]/.test(t));
    const ids = ["1", "007", "-12", "123456789012345678"];
    const amounts = [0, -1, 2.5, 2147483647];
    const joinedSql = "select $1::text[] as t, $2::text[] as d, $3::numeric[] as n, $4::bigint[] as b";
    const joinedParams = [plainTexts, ids, amounts, [1n, -9007199254740993n]];
    assert.ok(arrayLiteral(plainTexts)!.startsWith('{"'), "joined: quoted as a whole");
    const [joined] = await db.query<Record<string, unknown>>(joinedSql, joinedParams);
    const { rows: driven } = await driver.query(joinedSql, joinedParams);
    assert.deepEqual(joined, driven[0]);
    assert.deepEqual((joined as { t: unknown }).t, plainTexts);
  } finally {
    await driver.end();
    await db.close();
  }
});
