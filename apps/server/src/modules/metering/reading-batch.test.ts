import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { cents, wavesOf } from "./reading-batch.ts";

const item = (meterId: string, n: number) => ({ reading: { meterId }, n });

test("a batch's waves hold each meter once, in arrival order", () => {
  const waves = wavesOf([item("a", 1), item("b", 2), item("a", 3), item("a", 4), item("c", 5), item("b", 6)]);
  assert.deepEqual(
    waves.map((wave) => wave.map((x) => x.n)),
    [[1, 2, 5], [3, 6], [4]],
  );
});

test("waves: nothing lost or repeated, no meter twice in a wave, a meter's readings in order across waves", () => {
  fc.assert(
    fc.property(fc.array(fc.constantFrom("1", "2", "3", "4", "5"), { maxLength: 60 }), (meters) => {
      const batch = meters.map((meterId, n) => item(meterId, n));
      const waves = wavesOf(batch);
      assert.deepEqual(
        waves
          .flat()
          .map((x) => x.n)
          .sort((a, b) => a - b),
        batch.map((x) => x.n),
      );
      for (const wave of waves) assert.equal(new Set(wave.map((x) => x.reading.meterId)).size, wave.length);
      for (const meterId of new Set(meters)) {
        const order = waves.flatMap((wave) =>
          wave.filter((x) => x.reading.meterId === meterId).map((x) => x.n),
        );
        assert.deepEqual(
          order,
          [...order].sort((a, b) => a - b),
        );
      }
      // As few waves as the most frequent meter needs.
      const most = Math.max(0, ...[...new Set(meters)].map((m) => meters.filter((x) => x === m).length));
      assert.equal(waves.length, most);
    }),
  );
});

/** cents by its match alone, as it was before registers with two decimals were kept as they came. */
function centsByMatch(value: string | undefined) {
  if (value === undefined) return null;
  const match = /^(-?\d+)(?:\.(\d+))?$/.exec(value);
  return match ? `${match[1]}.${(match[2] ?? "").padEnd(2, "0").slice(0, 2)}` : null;
}

test("cents: two decimals exactly, the same for any text whether it already had two or not", () => {
  assert.equal(cents("10001.00"), "10001.00");
  assert.equal(cents("10001.5"), "10001.50");
  assert.equal(cents("10001.567"), "10001.56");
  assert.equal(cents("-0.01"), "-0.01");
  assert.equal(cents("12"), "12.00");
  assert.equal(cents(".12"), null);
  assert.equal(cents("1.2a"), null);
  assert.equal(cents(undefined), null);
  fc.assert(
    fc.property(
      fc.oneof(
        fc.stringMatching(/^-?\d{0,8}(\.\d{0,4})?$/),
        fc.string({ unit: fc.constantFrom("0", "7", "9", ".", "-", " ", "a", "/", ":"), maxLength: 8 }),
      ),
      (value) => assert.equal(cents(value), centsByMatch(value), JSON.stringify(value)),
    ),
    { numRuns: 3000 },
  );
});
