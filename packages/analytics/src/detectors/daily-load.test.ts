import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { type LoadDay, loadWithoutEnergy } from "./daily-load.ts";

const DAY = 86_400_000;
const dayOf = (index: number, maxPowerKw: number | undefined, energyKwh: number | undefined): LoadDay => ({
  day: `2026-11-${String(index + 1).padStart(2, "0")}`,
  from: index * DAY,
  to: (index + 1) * DAY,
  maxPowerKw,
  energyKwh,
});

test("days showing a load while the register stood still are a suspect, named with their power and energy", () => {
  const days = [
    dayOf(0, 1.2, 8.4),
    dayOf(1, 1.5, 0),
    dayOf(2, 0.8, 0.01),
    dayOf(3, 2.1, 9.1),
    dayOf(4, 1.1, 0),
  ];
  const found = loadWithoutEnergy("m7", days);
  assert.ok(found);
  assert.equal(found.kind, "load-without-energy");
  assert.equal(found.subject, "m7");
  assert.equal(found.from, 1 * DAY);
  assert.equal(found.to, 5 * DAY);
  assert.deepEqual(found.figures.slice(0, 2), [
    { name: "days with load, no energy", value: 3, unit: "days" },
    { name: "highest power", value: 1.5, unit: "kW" },
  ]);
  assert.deepEqual(
    found.figures.slice(2).map((f) => [f.day, f.name, f.value]),
    [
      ["2026-11-02", "highest power", 1.5],
      ["2026-11-02", "energy counted", 0],
      ["2026-11-03", "highest power", 0.8],
      ["2026-11-03", "energy counted", 0.01],
      ["2026-11-05", "highest power", 1.1],
      ["2026-11-05", "energy counted", 0],
    ],
  );
  assert.ok(found.score > 0.6 && found.score < 0.7, `score ${found.score}`);
});

test("a standby, a counting register, a day without a poll or a usage row, or too few days are not suspects", () => {
  // 50 W of standby with nothing counted: a room left with its router on.
  assert.equal(
    loadWithoutEnergy(
      "a",
      [0, 1, 2, 3].map((i) => dayOf(i, 0.05, 0)),
    ),
    undefined,
  );
  // Load and energy both: a normal room.
  assert.equal(
    loadWithoutEnergy(
      "b",
      [0, 1, 2, 3].map((i) => dayOf(i, 1.5, 6)),
    ),
    undefined,
  );
  // No power polled, or no usage row: nothing to judge.
  assert.equal(
    loadWithoutEnergy(
      "c",
      [0, 1, 2, 3].map((i) => dayOf(i, undefined, 0)),
    ),
    undefined,
  );
  assert.equal(
    loadWithoutEnergy(
      "d",
      [0, 1, 2, 3].map((i) => dayOf(i, 1.5, undefined)),
    ),
    undefined,
  );
  // Two days may be brief loads between polls; a third makes it.
  const two = [dayOf(0, 1, 0), dayOf(1, 1, 0)];
  assert.equal(loadWithoutEnergy("e", two), undefined);
  assert.ok(loadWithoutEnergy("e", [...two, dayOf(2, 1, 0)]));
  assert.ok(loadWithoutEnergy("e", two, { minDays: 2 }));
  // The thresholds are the caller's: 0.2 kW and no energy at all.
  assert.equal(
    loadWithoutEnergy(
      "f",
      [0, 1, 2].map((i) => dayOf(i, 0.15, 0)),
      { minPowerKw: 0.2 },
    ),
    undefined,
  );
  assert.equal(
    loadWithoutEnergy(
      "g",
      [0, 1, 2].map((i) => dayOf(i, 1, 0.01)),
      { maxKwh: 0 },
    ),
    undefined,
  );
});

test("only the latest seven days are listed one by one; the count names them all", () => {
  const found = loadWithoutEnergy(
    "h",
    Array.from({ length: 10 }, (_, i) => dayOf(i, 0.5 + i / 10, 0)),
  );
  assert.ok(found);
  assert.equal(found.figures[0]!.value, 10);
  assert.equal(found.figures[1]!.value, 1.4);
  const listed = found.figures.filter((f) => f.day !== undefined);
  assert.equal(listed.length, 14);
  assert.equal(listed[0]!.day, "2026-11-04");
});

const arbitraryDay = fc.record({
  maxPowerKw: fc.option(fc.double({ min: -5, max: 20, noNaN: true }), { nil: undefined }),
  energyKwh: fc.option(fc.double({ min: -5, max: 50, noNaN: true }), { nil: undefined }),
});
const arbitraryDays = fc
  .array(arbitraryDay, { maxLength: 30 })
  .map((list) => list.map((d, i) => dayOf(i, d.maxPowerKw, d.energyKwh)));

test("property: found exactly when enough days qualify; its figures are of those days only", () => {
  fc.assert(
    fc.property(arbitraryDays, fc.integer({ min: 1, max: 6 }), (days, minDays) => {
      const qualifying = days.filter(
        (d) =>
          d.maxPowerKw !== undefined &&
          d.energyKwh !== undefined &&
          d.maxPowerKw >= 0.1 &&
          d.energyKwh >= 0 &&
          d.energyKwh <= 0.01,
      );
      const found = loadWithoutEnergy("p", days, { minDays });
      assert.equal(found !== undefined, qualifying.length >= minDays);
      if (!found) return;
      assert.equal(found.figures[0]!.value, qualifying.length);
      assert.ok(found.score > 0 && found.score < 1);
      const named = new Set(qualifying.map((d) => d.day));
      for (const figure of found.figures.filter((f) => f.day !== undefined))
        assert.ok(named.has(figure.day!));
      assert.ok(found.from <= found.to);
      assert.equal(found.from, qualifying[0]!.from);
      assert.equal(found.to, qualifying.at(-1)!.to);
    }),
  );
});

test("property: more qualifying days never lower the score, and the order of the days does not matter", () => {
  fc.assert(
    fc.property(arbitraryDays, fc.integer({ min: 0, max: 29 }), (days, extra) => {
      const base = loadWithoutEnergy("p", days, { minDays: 1 });
      const more = loadWithoutEnergy("p", [...days, dayOf(30 + extra, 3, 0)], { minDays: 1 });
      assert.ok(more);
      assert.ok(more.score >= (base?.score ?? 0));
      const shuffled = loadWithoutEnergy("p", [...days].reverse(), { minDays: 1 });
      assert.deepEqual(shuffled, base);
    }),
  );
});
