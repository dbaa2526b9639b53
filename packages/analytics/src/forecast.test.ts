import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import {
  addDays,
  backtest,
  type DaySpend,
  daysUntilSpent,
  forecastDaily,
  weekdayOf,
  weekdayShares,
} from "./forecast.ts";

/** `count` days from Monday 2026-09-07, each charged fen(index, weekday). */
function history(count: number, fen: (index: number, weekday: number) => number): DaySpend[] {
  return Array.from({ length: count }, (_, index) => {
    const day = addDays("2026-09-07", index);
    return { day, fen: fen(index, weekdayOf(day)) };
  });
}

const weekends = (_index: number, weekday: number) => (weekday >= 5 ? 300 : 100);

test("weekdays: Monday is 0, Sunday 6; a week's shares average one", () => {
  assert.equal(weekdayOf("2026-09-07"), 0);
  assert.equal(weekdayOf("2026-09-13"), 6);
  assert.throws(() => weekdayOf("2026-13-01"), RangeError);
  const shares = weekdayShares(history(56, weekends));
  assert.ok(Math.abs(shares.reduce((a, b) => a + b, 0) - 7) < 1e-9);
  assert.ok(Math.abs(shares[5]! / shares[0]! - 3) < 1e-9);
  assert.deepEqual(weekdayShares(history(5, weekends)), [1, 1, 1, 1, 1, 1, 1]);
});

test("a room that uses three times as much at weekends runs out before the weekend is over", () => {
  // Eight weeks ending on a Thursday; next come Friday 100, Saturday 300, Sunday 300.
  const past = history(53, weekends);
  assert.equal(weekdayOf(past.at(-1)!.day), 3);
  const next = forecastDaily(past, 4).map((fen) => Math.round(fen));
  assert.deepEqual(next, [100, 300, 300, 100]);
  assert.equal(daysUntilSpent(700, past), 3);
  // The plain average (157 fen a day) would have said 5 days.
  assert.equal(daysUntilSpent(0, past), 0);
  assert.equal(daysUntilSpent(1_000_000, past, { maxDays: 30 }), null);
  assert.equal(
    daysUntilSpent(
      500,
      history(30, () => 0),
    ),
    null,
  );
});

test("a rising season is followed: the forecast's error in days is below the plain average's", () => {
  // 2 % more each day (the heating season), with the weekend pattern on top.
  const rising = history(90, (index, weekday) => weekends(index, weekday) * 1.02 ** index);
  const ours = backtest(rising);
  assert.ok(ours.cases > 30, `${ours.cases} cases`);
  // The plain average's own error, on the same cases: a balance of 10 average days lasts 10 days.
  let flatErrors = 0;
  let flatCases = 0;
  for (let start = 28; start < rising.length; start++) {
    const average = rising.slice(start - 28, start).reduce((sum, entry) => sum + entry.fen, 0) / 28;
    let left = average * 10;
    for (let index = start; index < rising.length; index++) {
      left -= rising[index]!.fen;
      if (left <= 0) {
        flatErrors += Math.abs(10 - (index - start + 1));
        flatCases++;
        break;
      }
    }
  }
  assert.equal(flatCases, ours.cases);
  assert.ok(
    ours.meanAbsoluteError < flatErrors / flatCases / 2,
    `${ours.meanAbsoluteError} vs ${flatErrors / flatCases}`,
  );
  // A steady pattern is forecast to the day.
  assert.ok(backtest(history(90, weekends)).meanAbsoluteError < 0.5);
});

test("forecasts are never negative, and more money never runs out sooner", () => {
  fc.assert(
    fc.property(
      fc.array(fc.integer({ min: 0, max: 2000 }), { minLength: 1, maxLength: 80 }),
      fc.integer({ min: 1, max: 50_000 }),
      fc.integer({ min: 1, max: 50_000 }),
      (charges, a, b) => {
        const past = history(charges.length, (index) => charges[index]!);
        assert.ok(forecastDaily(past, 60).every((fen) => fen >= 0));
        const low = daysUntilSpent(Math.min(a, b), past) ?? Number.POSITIVE_INFINITY;
        const high = daysUntilSpent(Math.max(a, b), past) ?? Number.POSITIVE_INFINITY;
        assert.ok(low <= high);
      },
    ),
  );
});
