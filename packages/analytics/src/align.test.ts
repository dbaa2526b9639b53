import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { type RegisterRead, sortedReads, valueAt } from "./align.ts";

const HOUR = 3_600_000;
const reads = (...pairs: [number, bigint][]): RegisterRead[] => pairs.map(([at, value]) => ({ at, value }));

test("a value between two reads is interpolated exactly in 0.0001 units", () => {
  // 100.00 kWh at 00:00, 101.00 at 03:00: at 01:00 one third of a kWh more, 100.3333.
  const series = reads([0, 10_000n], [3 * HOUR, 10_100n]);
  assert.deepEqual(valueAt(series, HOUR), { kind: "value", value: 1_003_333n });
  // Two thirds rounds up: 100.6667.
  assert.deepEqual(valueAt(series, 2 * HOUR), { kind: "value", value: 1_006_667n });
  // A read at the instant itself is taken as it is.
  assert.deepEqual(valueAt(series, 3 * HOUR), { kind: "value", value: 1_010_000n });
});

test("no value is guessed outside the reads, across a long gap, or across a register running back", () => {
  const series = reads([HOUR, 500n], [2 * HOUR, 510n], [20 * HOUR, 600n], [21 * HOUR, 590n]);
  assert.equal(valueAt(series, 0).kind, "missing");
  assert.equal(valueAt(series, 22 * HOUR).kind, "missing");
  assert.equal(valueAt(series, 10 * HOUR).kind, "missing", "18 h between the reads either side");
  assert.equal(valueAt(series, 10 * HOUR, 24 * HOUR).kind, "value");
  assert.equal(valueAt(series, 20.5 * HOUR).kind, "backwards");
  assert.equal(valueAt([], 0).kind, "missing");
});

test("sorted reads keep one read per instant, the later one", () => {
  assert.deepEqual(sortedReads(reads([2, 5n], [1, 3n], [2, 6n])), reads([1, 3n], [2, 6n]));
});

test("an interpolated value lies between the reads either side and never falls as time goes on", () => {
  const series = fc
    .array(fc.tuple(fc.integer({ min: 1, max: HOUR }), fc.bigInt({ min: 0n, max: 100_000n })), {
      minLength: 2,
      maxLength: 30,
    })
    .map((steps) => {
      let at = 0;
      let value = 1_000_000n;
      return steps.map(([gap, rise]) => {
        at += gap;
        value += rise;
        return { at, value };
      });
    });
  fc.assert(
    fc.property(
      series,
      fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 2 }),
      (list, points) => {
        const first = list[0]!.at;
        const last = list.at(-1)!.at;
        const instants = points
          .map((point) => Math.floor(first + point * (last - first)))
          .sort((a, b) => a - b);
        let previous = -1n;
        for (const at of instants) {
          const aligned = valueAt(list, at, HOUR);
          assert.equal(aligned.kind, "value");
          const value = (aligned as { value: bigint }).value;
          assert.ok(value >= list[0]!.value * 100n && value <= list.at(-1)!.value * 100n);
          assert.ok(value >= previous, `${value} after ${previous}`);
          previous = value;
        }
      },
    ),
  );
});
