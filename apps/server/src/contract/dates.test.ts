import assert from "node:assert/strict";
import { test } from "node:test";
import { formatDateTime, parseDateTime } from "./dates.ts";

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
