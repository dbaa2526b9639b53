import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  accumulate,
  bandAt,
  checkSlots,
  DEFAULT_SLOTS,
  newAccumulator,
  nextSlotStart,
  rateAt,
  STEP,
  weekday,
} from "@meterline/simulator";

const HOUR = 3_600_000;
const schedule = {
  bandAt: (m: number) => bandAt(DEFAULT_SLOTS, m),
  nextChange: (m: number) => nextSlotStart(DEFAULT_SLOTS, m),
};
// 2026-11-23 is a Monday; local time is read as UTC by design (offset 0 here).
const MONDAY = Date.UTC(2026, 10, 23);

describe("tariff bands", () => {
  test("the default day: valley at night, tip in the evening", () => {
    assert.equal(bandAt(DEFAULT_SLOTS, 0), 3);
    assert.equal(bandAt(DEFAULT_SLOTS, 8 * 60), 2);
    assert.equal(bandAt(DEFAULT_SLOTS, 19 * 60 + 59), 0);
    assert.equal(bandAt(DEFAULT_SLOTS, 23 * 60), 3);
    assert.equal(nextSlotStart(DEFAULT_SLOTS, 22 * 60), 1440);
    assert.equal(nextSlotStart(DEFAULT_SLOTS, 600), 720);
  });

  test("schedules a meter would refuse are refused", () => {
    assert.throws(() => checkSlots([]));
    assert.throws(() => checkSlots([{ start: 60, band: 0 }]));
    assert.throws(() =>
      checkSlots([
        { start: 0, band: 1 },
        { start: 60, band: 1 },
      ]),
    );
    assert.throws(() =>
      checkSlots([
        { start: 0, band: 1 },
        { start: 0, band: 2 },
      ]),
    );
    assert.throws(() =>
      checkSlots(Array.from({ length: 15 }, (_, i) => ({ start: i * 60, band: (i % 2) as 0 | 1 }))),
    );
    checkSlots(DEFAULT_SLOTS);
  });
});

describe("load profile", () => {
  const profile = { mean: 1000, seed: "p" };

  test("weekday and weekend shapes; the evening peak beats the small hours", () => {
    assert.equal(weekday(MONDAY), 1);
    assert.equal(weekday(MONDAY + 5 * 24 * HOUR), 6);
    assert.ok(rateAt(profile, MONDAY + 19 * HOUR) > 2 * rateAt(profile, MONDAY + 3 * HOUR));
    assert.equal(
      rateAt(profile, MONDAY + 19 * HOUR + 59_000),
      rateAt(profile, MONDAY + 19 * HOUR),
      "constant within the hour",
    );
    assert.equal(
      rateAt(profile, MONDAY + 19 * HOUR),
      rateAt({ ...profile }, MONDAY + 19 * HOUR),
      "deterministic",
    );
  });

  test("integration is exact: any split of the interval gives the same registers", () => {
    const whole = newAccumulator(4);
    accumulate(whole, profile, schedule, MONDAY, MONDAY + 24 * HOUR, 0);
    const pieces = newAccumulator(4);
    let t = MONDAY;
    for (const step of [1, 999, 61_000, 3_599_999, 7 * HOUR, 17]) {
      accumulate(pieces, profile, schedule, t, t + step, 0);
      t += step;
    }
    accumulate(pieces, profile, schedule, t, MONDAY + 24 * HOUR, 0);
    assert.deepEqual(pieces.steps, whole.steps);
    assert.deepEqual(pieces.remainder, whole.remainder);
  });

  test("each hour's energy lands in its band: registers equal the hourly sums", () => {
    const acc = newAccumulator(4);
    accumulate(acc, profile, schedule, MONDAY, MONDAY + 24 * HOUR, 0);
    const expected = [0, 0, 0, 0];
    for (let hour = 0; hour < 24; hour++)
      expected[bandAt(DEFAULT_SLOTS, hour * 60)]! += rateAt(profile, MONDAY + hour * HOUR) * HOUR;
    assert.deepEqual(
      acc.steps,
      expected.map((total) => Math.floor(total / STEP)),
    );
    assert.deepEqual(
      acc.remainder,
      expected.map((total) => total % STEP),
    );
  });

  test("the meter's local offset decides the band (a drifting clock books into the wrong band)", () => {
    const onTime = newAccumulator(4);
    const drifted = newAccumulator(4);
    accumulate(onTime, profile, schedule, MONDAY + 19 * HOUR, MONDAY + 20 * HOUR, 0);
    accumulate(drifted, profile, schedule, MONDAY + 19 * HOUR, MONDAY + 20 * HOUR, 3 * HOUR);
    assert.ok(onTime.steps[0]! > 0 && onTime.steps[3] === 0, "tip");
    assert.ok(drifted.steps[3]! > 0 && drifted.steps[0] === 0, "22:00 on the meter's clock: valley");
  });
});
