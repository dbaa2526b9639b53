import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { PollScheduler } from "@meterline/gateway";

describe("poll scheduler", () => {
  const meters = [
    { meterId: "a", intervalMs: 1000 },
    { meterId: "b", intervalMs: 1000 },
    { meterId: "never", intervalMs: 0 },
  ];

  test("first polls come after the first delay; the most overdue meter goes first", () => {
    const s = new PollScheduler(meters, 0, 100);
    assert.equal(s.next(99), undefined);
    assert.equal(s.nextDueAt(), 100);
    s.completed("a", 100);
    assert.equal(s.next(150), "b");
    s.completed("b", 150);
    assert.equal(s.next(1099), undefined);
    assert.equal(s.next(1100), "a");
    assert.equal(s.next(5000), "a", "a is due since 1100, b since 1100 too; a first by order of due time");
  });

  test("cadence is kept after a slightly late poll, but a very late round does not cause a burst", () => {
    const s = new PollScheduler([{ meterId: "a", intervalMs: 1000 }], 0, 0);
    s.completed("a", 300);
    assert.equal(s.nextDueAt(), 1000, "due one interval after it was due, not after it ran");
    s.completed("a", 5000);
    assert.equal(s.nextDueAt(), 6000, "late by more than an interval: one interval from now");
  });

  test("meters with interval 0 are polled only on demand, once", () => {
    const s = new PollScheduler(meters, 0, 100);
    assert.equal(s.pollNow(10, ["never"]), 1);
    assert.equal(s.next(10), "never");
    s.completed("never", 20);
    s.completed("a", 20);
    s.completed("b", 20);
    assert.equal(s.next(30), undefined);
  });

  test("daily frozen data is due once per local day", () => {
    const s = new PollScheduler(meters, 0, 0);
    assert.equal(s.frozenDue("a", "2026-11-22"), true);
    s.frozenRead("a", "2026-11-22");
    assert.equal(s.frozenDue("a", "2026-11-22"), false);
    assert.equal(s.frozenDue("a", "2026-11-23"), true);
  });

  test("replacing the meter list keeps known meters' schedule", () => {
    const s = new PollScheduler(meters, 0, 0);
    s.completed("a", 0);
    s.setMeters(
      [
        { meterId: "a", intervalMs: 1000 },
        { meterId: "c", intervalMs: 1000 },
      ],
      500,
    );
    assert.equal(s.size, 2);
    assert.equal(s.next(500), "c");
  });
});
