import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import pg from "pg";
import { TIMESTAMPTZ, timestamptzOfText } from "./timestamp-text.ts";

const driverDate = pg.types.getTypeParser(TIMESTAMPTZ, "text") as (text: string) => Date | number | null;
const timeOf = (value: Date | number | null) => (value instanceof Date ? value.getTime() : value);
const two = (n: number) => String(n).padStart(2, "0");

test("timestamptz text reads as the driver reads it, in every form PostgreSQL writes and some it does not", () => {
  const zone = fc.oneof(
    fc.constant("+00"),
    fc.tuple(fc.constantFrom("+", "-"), fc.integer({ min: 0, max: 15 })).map(([s, h]) => `${s}${two(h)}`),
    fc
      .tuple(fc.constantFrom("+", "-"), fc.integer({ min: 0, max: 15 }), fc.integer({ min: 0, max: 59 }))
      .map(([s, h, m]) => `${s}${two(h)}:${two(m)}`),
    fc
      .tuple(
        fc.constantFrom("+", "-"),
        fc.integer({ min: 0, max: 15 }),
        fc.integer({ min: 0, max: 59 }),
        fc.integer({ min: 0, max: 59 }),
      )
      .map(([s, h, m, x]) => `${s}${two(h)}:${two(m)}:${two(x)}`),
  );
  const fraction = fc.oneof(
    fc.constant(""),
    fc
      .integer({ min: 1, max: 6 })
      .chain((n) => fc.stringMatching(new RegExp(`^[0-9]{${n}}$`)).map((d) => `.${d}`)),
  );
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 12000 }),
      fc.integer({ min: 1, max: 12 }),
      fc.integer({ min: 1, max: 31 }),
      fc.integer({ min: 0, max: 23 }),
      fc.integer({ min: 0, max: 59 }),
      fc.integer({ min: 0, max: 59 }),
      fraction,
      zone,
      fc.constantFrom("", " BC"),
      (year, month, day, hour, minute, second, fractionText, zoneText, era) => {
        const text = `${String(year).padStart(4, "0")}-${two(month)}-${two(day)} ${two(hour)}:${two(minute)}:${two(second)}${fractionText}${zoneText}${era}`;
        assert.equal(timeOf(timestamptzOfText(text)), timeOf(driverDate(text)), text);
      },
    ),
    { numRuns: 20000 },
  );
  for (const text of [
    "infinity",
    "-infinity",
    "2026-12-02 08:15:00+08 BC",
    "0099-01-01 00:00:00+00",
    "2026-12-02",
  ])
    assert.equal(timeOf(timestamptzOfText(text)), timeOf(driverDate(text)), text);
  assert.equal(
    (timestamptzOfText("2026-12-02 08:15:00.5+08") as Date).toISOString(),
    "2026-12-02T00:15:00.500Z",
  );
});

test("what a PostgreSQL server writes in zones with odd offsets reads as the instant it stored", {
  skip: !process.env.TEST_DATABASE_URL && "PostgreSQL only (TEST_DATABASE_URL)",
}, async () => {
  const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await client.connect();
  try {
    const instants = [
      "1900-01-01T00:00:00Z",
      "1970-01-01T00:00:00.000Z",
      "2026-03-08T10:30:00.123Z",
      "2026-12-02T00:15:00.999Z",
      "9999-12-31T23:59:59.999Z",
    ];
    for (const zone of [
      "UTC",
      "Asia/Shanghai",
      "Asia/Kolkata",
      "Asia/Kathmandu",
      "America/St_Johns",
      "Africa/Monrovia",
    ]) {
      await client.query(`set time zone '${zone}'`);
      const { rows } = await client.query<{ text: string }>(
        "select t::text as text from unnest($1::timestamptz[]) as u(t)",
        [instants],
      );
      rows.forEach(({ text }, i) => {
        assert.equal(
          (timestamptzOfText(text) as Date).toISOString(),
          new Date(instants[i]!).toISOString(),
          `${zone}: ${text}`,
        );
      });
    }
  } finally {
    await client.end();
  }
});
