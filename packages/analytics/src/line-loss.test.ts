import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { type LossMeter, lossPercent, nodeLoss } from "./line-loss.ts";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** A meter read every `every` ms over two days, counting `perHour` 0.01 units an hour. */
function meter(id: string, perHour: bigint, every = HOUR, offset = 0): LossMeter {
  const reads = [];
  for (let at = offset; at <= 2 * DAY; at += every) {
    reads.push({ at, value: 100_000n + (perHour * BigInt(at)) / BigInt(HOUR) });
  }
  return { id, reads };
}

test("a building's loss is its master's usage minus its rooms' over the same day, read at different moments", () => {
  // Master 12.00 kWh/h; rooms 5.00 and 6.00 kWh/h read 20 and 40 minutes after the hour.
  const result = nodeLoss({
    master: meter("master", 1200n),
    subs: [meter("301", 500n, HOUR, 20 * 60_000), meter("302", 600n, HOUR, 40 * 60_000)],
    from: DAY / 2,
    to: DAY / 2 + DAY,
  });
  assert.equal(result.kind, "loss");
  if (result.kind !== "loss") return;
  // 24 h: 288.0000 kWh in, 264.0000 out, 24.0000 lost = 8.33 %.
  assert.equal(result.input, 2_880_000n);
  assert.equal(result.delivered, 2_640_000n);
  assert.equal(result.loss, 240_000n);
  assert.equal(result.percent, 8.33);
});

test("sub-meters counting more than their master are a fault, not a gain", () => {
  const result = nodeLoss({
    master: meter("m", 100n),
    subs: [meter("a", 80n), meter("b", 40n)],
    from: 0,
    to: DAY,
  });
  assert.equal(result.kind, "negative");
  if (result.kind === "negative") assert.equal(result.percent, -20);
});

test("a meter without a read near the period's ends is named instead of guessed", () => {
  const silent = { id: "303", reads: meter("303", 100n).reads.filter((read) => read.at < 10 * HOUR) };
  const result = nodeLoss({
    master: meter("m", 1000n),
    subs: [meter("301", 100n), silent],
    from: 0,
    to: DAY,
  });
  assert.deepEqual(result, { kind: "missing", meters: ["303"] });
  const replaced = {
    id: "304",
    reads: [...meter("304", 100n).reads.slice(0, 5), { at: 5 * HOUR + 1, value: 0n }],
  };
  assert.deepEqual(nodeLoss({ master: meter("m", 1000n), subs: [replaced], from: 0, to: 5 * HOUR + 2 }), {
    kind: "missing",
    meters: ["304"],
  });
  const backwards = {
    id: "305",
    reads: [
      { at: 0, value: 500n },
      { at: DAY, value: 400n },
    ],
  };
  assert.deepEqual(nodeLoss({ master: meter("m", 1000n), subs: [backwards], from: 0, to: DAY }), {
    kind: "meter-fault",
    meters: ["305"],
  });
  assert.throws(() => nodeLoss({ master: meter("m", 1n), subs: [], from: DAY, to: DAY }), RangeError);
});

test("loss, input and delivered always add up, and the percentage is loss over input", () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 0, max: 5000 }),
      fc.array(fc.integer({ min: 0, max: 1000 }), { minLength: 0, maxLength: 12 }),
      fc.integer({ min: 0, max: 12 * HOUR }),
      (master, rooms, start) => {
        const result = nodeLoss({
          master: meter("m", BigInt(master)),
          subs: rooms.map((rate, index) =>
            meter(`r${index}`, BigInt(rate), HOUR, (index * 7 * 60_000) % HOUR),
          ),
          from: start + HOUR,
          to: start + HOUR + DAY,
        });
        assert.ok(result.kind === "loss" || result.kind === "negative", result.kind);
        if (result.kind !== "loss" && result.kind !== "negative") return;
        assert.equal(result.input - result.delivered, result.loss);
        assert.equal(result.kind === "negative", result.loss < 0n);
        assert.equal(result.percent, lossPercent(result.loss, result.input));
      },
    ),
  );
  assert.equal(lossPercent(1n, 3n), 33.33);
  assert.equal(lossPercent(2n, 3n), 66.67);
  assert.equal(lossPercent(-2n, 3n), -66.67);
  assert.equal(lossPercent(5n, 0n), null);
});
