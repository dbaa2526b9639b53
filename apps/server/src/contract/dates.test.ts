import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { formatDateTime, formatDay, formatWithIntl, parseDateTime } from "./dates.ts";

test("dates format as yyyy-MM-dd HH:mm:ss in the tenant zone", () => {
  assert.equal(formatDateTime(new Date("2026-11-22T16:05:09Z")), "2026-11-23 00:05:09");
  assert.equal(formatDateTime(new Date("2026-11-22T16:05:09Z"), "UTC"), "2026-11-22 16:05:09");
});

test("parsing is the inverse, lenient on the time part, strict on impossible dates", () => {
  assert.equal(parseDateTime("2026-11-23 00:05:09")?.toISOString(), "2026-11-22T16:05:09.000Z");
  assert.equal(parseDateTime("2026-11-23")?.toISOString(), "2026-11-22T16:00:00.000Z");
  assert.equal(parseDateTime("2026-02-30 00:00:00"), undefined);
  assert.equal(parseDateTime("2026-11-23 25:00:00"), undefined);
  assert.equal(parseDateTime("yesterday"), undefined);
});

/** What Intl itself says, as the formatter did before it cached each day's offset. */
const intlSays = formatWithIntl;

// Daylight saving (New York, London), a half-hour change (Lord Howe), a zone that once had summer
// time and before that a local mean time of +08:05:43 (Shanghai), and a zone that changed its
// standard offset (Kiritimati skipped a whole day).
const ZONES = [
  "Asia/Shanghai",
  "UTC",
  "America/New_York",
  "Europe/London",
  "Australia/Lord_Howe",
  "Pacific/Kiritimati",
];

test("the cached offsets say what Intl says, at any instant and around every change of offset", () => {
  fc.assert(
    fc.property(
      fc.integer({ min: Date.UTC(1890, 0, 1), max: Date.UTC(2100, 0, 1) }),
      fc.constantFrom(...ZONES),
      (ms, zone) => formatDateTime(new Date(ms), zone) === intlSays(new Date(ms), zone),
    ),
    { numRuns: 5000 },
  );
  const changes = [
    "2026-03-08T07:00:00Z", // New York springs forward
    "2026-11-01T06:00:00Z", // and falls back
    "2026-03-29T01:00:00Z", // London
    "2026-04-04T15:00:00Z", // Lord Howe, half an hour
    "1988-04-09T18:00:00Z", // Shanghai's summer time
    "1994-12-31T10:00:00Z", // Kiritimati jumps a day
    "1900-12-31T15:54:17Z", // Shanghai leaves local mean time
  ];
  for (const at of changes)
    for (const zone of ZONES)
      for (const delta of [-3_600_000, -1000, -1, 0, 1, 999, 1000, 1_800_000, 3_600_000]) {
        const date = new Date(Date.parse(at) + delta);
        assert.equal(formatDateTime(date, zone), intlSays(date, zone), `${date.toISOString()} in ${zone}`);
      }
});

test("the Shanghai offset and its old local mean time come out to the second", () => {
  assert.equal(formatDateTime(new Date("1900-06-01T00:00:00Z")), "1900-06-01 08:05:43");
  assert.equal(formatDateTime(new Date("2026-11-22T16:05:09.999Z")), "2026-11-23 00:05:09");
});

test("a day's text is formatDateTime's first ten characters, called in any order of zones and instants", () => {
  fc.assert(
    fc.property(
      fc.array(
        fc.tuple(
          fc.oneof(
            fc.integer({ min: Date.UTC(1890, 0, 1), max: Date.UTC(2100, 0, 1) }),
            // Around local midnights and changes of offset, where a kept day would go stale.
            fc.integer({ min: Date.UTC(2026, 2, 7), max: Date.UTC(2026, 2, 10) }),
            fc.integer({ min: Date.UTC(2026, 3, 3), max: Date.UTC(2026, 3, 6) }),
          ),
          fc.constantFrom(...ZONES),
        ),
        { minLength: 1, maxLength: 40 },
      ),
      (calls) => {
        for (const [ms, zone] of calls)
          assert.equal(formatDay(new Date(ms), zone), formatDateTime(new Date(ms), zone).slice(0, 10));
      },
    ),
    { numRuns: 500 },
  );
  // One zone's day kept does not answer for another's, nor for the next day of its own.
  const at = new Date("2026-11-30T16:30:00Z");
  assert.equal(formatDay(at, "Asia/Shanghai"), "2026-12-01");
  assert.equal(formatDay(at, "UTC"), "2026-11-30");
  assert.equal(formatDay(new Date("2026-11-30T15:59:59.999Z"), "Asia/Shanghai"), "2026-11-30");
  assert.equal(formatDay(new Date("2026-11-30T16:00:00Z"), "Asia/Shanghai"), "2026-12-01");
});
