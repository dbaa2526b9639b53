import assert from "node:assert/strict";
import { test } from "node:test";
import { daysBack, fillDays, fillMonths, isDay, localDay, monthsBack } from "./usage-periods.ts";

test("day ranges count both ends and cross months and leap days", () => {
  assert.equal(daysBack("2026-03-01", 1), "2026-03-01");
  assert.equal(daysBack("2024-03-01", 2), "2024-02-29");
  assert.equal(daysBack("2026-01-03", 7), "2025-12-28");
});

test("month ranges start on the first day and cross years", () => {
  assert.equal(monthsBack("2026-11-22", 1), "2026-11-01");
  assert.equal(monthsBack("2026-02-28", 12), "2025-03-01");
});

test("days and months without rows are filled with zero, rows found are kept", () => {
  const days = fillDays("2026-02-27", "2026-03-01", [{ day: "2026-02-28", usage: "1.50", meters: 2 }]);
  assert.deepEqual(days, [
    { day: "2026-02-27", usage: "0.00", meters: 0 },
    { day: "2026-02-28", usage: "1.50", meters: 2 },
    { day: "2026-03-01", usage: "0.00", meters: 0 },
  ]);
  const months = fillMonths("2025-11-15", "2026-02-03", [{ day: "2026-01-01", usage: "9.00", meters: 1 }]);
  assert.deepEqual(
    months.map((m) => [m.day, m.usage]),
    [
      ["2025-11-01", "0.00"],
      ["2025-12-01", "0.00"],
      ["2026-01-01", "9.00"],
      ["2026-02-01", "0.00"],
    ],
  );
});

test("only real calendar days are days", () => {
  assert.ok(isDay("2024-02-29"));
  // Date.parse rolls 30 February on to March; the database would refuse it.
  for (const text of ["2025-02-29", "2025-02-30", "2025-02-32", "2025-13-01", "2025-2-1", ""]) {
    assert.equal(isDay(text), false, text);
  }
});

test("a local day is Intl's day of the instant in its zone, across midnights and summer-time changes", () => {
  const intl = (at: Date, timeZone: string) =>
    new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(
      at,
    );
  // Instants spread over years, and each side of a local midnight and of a clock change.
  const instants = [
    ...Array.from({ length: 400 }, (_, i) => Date.UTC(2024, 0, 1) + i * 79_193_117),
    Date.parse("2026-11-29T15:59:59.999Z"),
    Date.parse("2026-11-29T16:00:00Z"),
    Date.parse("2026-03-08T06:59:59Z"),
    Date.parse("2026-03-08T07:00:00Z"),
    Date.parse("2026-10-25T00:59:59Z"),
    Date.parse("2026-10-25T01:00:00Z"),
  ];
  for (const timeZone of ["Asia/Shanghai", "America/Los_Angeles", "Europe/London", "Asia/Kolkata", "UTC"])
    for (const ms of instants) assert.equal(localDay(new Date(ms), timeZone), intl(new Date(ms), timeZone));
  assert.equal(localDay(new Date("2026-11-29T16:00:00Z"), "Asia/Shanghai"), "2026-11-30");
});
