import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { wavesOf } from "./reading-batch.ts";

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
