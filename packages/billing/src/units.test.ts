import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import {
  BillingInputError,
  divideRounded,
  fromUnits,
  isPlainDecimal,
  microToFen,
  toUnits,
  yuanToFen,
} from "./units.ts";

test("decimals parse to exact units and print back", () => {
  assert.equal(toUnits("0.4883", 4), 4883n);
  assert.equal(toUnits("12", 2), 1200n);
  assert.equal(toUnits("12.50", 2), 1250n);
  assert.equal(toUnits("-0.01", 2), -1n);
  assert.equal(toUnits("1.2300", 2), 123n, "trailing zeros are not extra precision");
  assert.equal(toUnits("007.10", 2), 710n, "leading zeros are no digits");
  assert.equal(toUnits("123456789012345.67", 2), 12345678901234567n, "fifteen digits before the point");
  assert.throws(() => toUnits("1234567890123456.00", 2), BillingInputError, "sixteen are refused");
  assert.throws(() => toUnits("1.+5", 2), BillingInputError);
  assert.throws(() => toUnits("1/.00", 2), BillingInputError);
  assert.ok(isPlainDecimal("10001.00", 2));
  for (const [text, scale] of [
    ["10001.0", 2],
    ["-1.00", 2],
    [" 1.00", 2],
    ["1.00", 0],
    [".00", 2],
    ["1:00", 2],
  ] as const)
    assert.ok(!isPlainDecimal(text, scale), `${text} at scale ${scale}`);
  assert.equal(fromUnits(4883n, 4), "0.4883");
  assert.equal(fromUnits(-5n, 2), "-0.05");
  assert.equal(fromUnits(7n, 0), "7");
});

test("over-precise, empty and malformed decimals are refused with the field named", () => {
  for (const bad of ["0.001", "1e3", "", " ", "1.", ".5", "0x10", "NaN", "1,5", "12345678901234567"]) {
    assert.throws(
      () => yuanToFen(bad, "amount"),
      (e: unknown) => e instanceof BillingInputError && e.field === "amount",
      bad,
    );
  }
});

test("units round-trip for any integer and scale", () => {
  fc.assert(
    fc.property(
      fc.bigInt({ min: -(10n ** 14n), max: 10n ** 14n }),
      fc.integer({ min: 0, max: 6 }),
      (units, scale) => {
        assert.equal(toUnits(fromUnits(units, scale), scale), units);
      },
    ),
  );
});

test("any decimal text within the scale parses to its digits with the point moved, trailing zeros or not", () => {
  fc.assert(
    fc.property(
      fc.boolean(),
      fc.stringMatching(/^\d{1,15}$/),
      fc.stringMatching(/^\d{0,6}$/),
      fc.integer({ min: 0, max: 3 }),
      fc.integer({ min: 0, max: 6 }),
      (negative, whole, fraction, zeros, scale) => {
        const digits = fraction + "0".repeat(zeros);
        const text = `${negative ? "-" : ""}${whole}${digits ? `.${digits}` : ""}`;
        const significant = digits.replace(/0+$/, "");
        if (significant.length > scale) {
          assert.throws(() => toUnits(text, scale), BillingInputError, text);
          return;
        }
        // Reference: whole × 10^scale + the fraction's digits scaled, by plain arithmetic.
        const expected = BigInt(whole) * 10n ** BigInt(scale) + BigInt(significant.padEnd(scale, "0") || "0");
        assert.equal(toUnits(text, scale), negative ? -expected : expected, text);
      },
    ),
    { numRuns: 2000 },
  );
});

test("division rounds half away from zero", () => {
  assert.equal(divideRounded(5n, 10n), 1n);
  assert.equal(divideRounded(4n, 10n), 0n);
  assert.equal(divideRounded(-5n, 10n), -1n);
  assert.equal(divideRounded(-4n, 10n), 0n);
  assert.equal(divideRounded(15_000n, 10_000n), 2n);
  assert.equal(microToFen(14_999n), 1n);
  assert.equal(microToFen(5_000n), 1n);
  assert.equal(microToFen(4_999n), 0n);
});

test("rounding is within half a unit and symmetric", () => {
  fc.assert(
    fc.property(
      fc.bigInt({ min: -(10n ** 18n), max: 10n ** 18n }),
      fc.bigInt({ min: 1n, max: 10n ** 9n }),
      (n, d) => {
        const q = divideRounded(n, d);
        const error = n * 2n - q * 2n * d; // 2·(n − q·d), compared with d to stay in integers
        assert.ok(error <= d && error >= -d, `${n}/${d} → ${q}`);
        assert.equal(divideRounded(-n, d), -q);
      },
    ),
  );
});
