import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { againstBand, learnBand, median } from "./band.ts";

test("the band is the history's median give or take three scaled MADs, with a floor", () => {
  const band = learnBand([5, 6, 5.5, 6.5, 5, 6, 5.5]);
  assert.ok(band);
  assert.equal(band.median, 5.5);
  // MAD 0.5 → spread 0.7413 → 5.5 ± 2.2239.
  assert.ok(Math.abs(band.spread - 0.7413) < 1e-9);
  assert.equal(againstBand(7.7, band), "inside");
  assert.equal(againstBand(7.8, band), "above");
  assert.equal(againstBand(3.2, band), "below");
  // A node whose loss never changed still gets a band half a point wide either way (times 3).
  const flat = learnBand([4, 4, 4, 4, 4, 4, 4]);
  assert.equal(flat?.spread, 0.5);
  assert.equal(againstBand(5.4, flat!), "inside");
});

test("a short history has no band yet; non-finite days are not counted", () => {
  assert.equal(learnBand([1, 2, 3]), undefined);
  assert.equal(learnBand([1, 2, 3, 4, 5, 6, Number.NaN]), undefined);
  assert.equal(learnBand([1, 2, 3], { minDays: 3 })?.days, 3);
  assert.throws(() => median([]), RangeError);
});

test("a few outlying days in the history barely move the band (robustness)", () => {
  fc.assert(
    fc.property(
      fc.array(fc.double({ min: 2, max: 4, noNaN: true }), { minLength: 20, maxLength: 40 }),
      fc.array(fc.double({ min: 50, max: 100, noNaN: true }), { minLength: 1, maxLength: 3 }),
      (normal, theft) => {
        const dirty = learnBand([...normal, ...theft])!;
        // The median moves by at most a few ranks of the normal days: it stays inside their range.
        assert.ok(dirty.median >= 2 && dirty.median <= 4);
        assert.ok(dirty.high < 4 + 3 * Math.max(2 * 1.4826, 0.5) + 1e-9);
        assert.equal(againstBand(theft[0]!, dirty), "above");
      },
    ),
  );
});
