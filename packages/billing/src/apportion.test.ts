import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { type ApportionShare, apportion } from "./apportion.ts";
import { BillingInputError } from "./units.ts";

const sharesArb = fc
  .array(fc.bigInt({ min: 0n, max: 10_000_000n }), { minLength: 1, maxLength: 40 })
  .filter((weights) => weights.some((weight) => weight > 0n))
  .map((weights) => weights.map((weight, index): ApportionShare => ({ id: `r${index}`, weight })));
const amountArb = fc.bigInt({ min: -100_000_000n, max: 100_000_000n });
const ruleArb = fc.constantFrom("area" as const, "usage" as const, "equal" as const);

const sum = (values: bigint[]) => values.reduce((total, value) => total + value, 0n);

test("a month's shares add up to the amount to the fen, whatever the weights and the sign", () => {
  fc.assert(
    fc.property(amountArb, sharesArb, ruleArb, (amount, shares, rule) => {
      const parts = apportion(amount, shares, rule);
      assert.deepEqual(
        parts.map((part) => part.id),
        shares.map((share) => share.id),
      );
      assert.equal(sum(parts.map((part) => part.amount)), amount);
    }),
    { numRuns: 2000 },
  );
});

test("each share is its exact proportion rounded down or up by less than one unit", () => {
  fc.assert(
    fc.property(amountArb, sharesArb, (amount, shares) => {
      const total = sum(shares.map((share) => share.weight));
      apportion(amount, shares, "area").forEach((part, index) => {
        const exact = amount * shares[index]!.weight; // over `total`
        const gap = part.amount * total - exact;
        assert.ok(gap > -total && gap < total, `${part.id}: ${part.amount} for ${exact}/${total}`);
      });
    }),
    { numRuns: 2000 },
  );
});

test("a room without area or usage pays nothing, and more weight never pays less", () => {
  fc.assert(
    fc.property(fc.bigInt({ min: 0n, max: 100_000_000n }), sharesArb, (amount, shares) => {
      const parts = apportion(amount, shares, "usage");
      parts.forEach((part, index) => {
        if (shares[index]!.weight === 0n) assert.equal(part.amount, 0n);
        parts.forEach((other, j) => {
          if (shares[index]!.weight > shares[j]!.weight) assert.ok(part.amount >= other.amount);
        });
      });
    }),
    { numRuns: 1000 },
  );
});

test("a reversal computed afresh is the exact mirror of the booking, so the month is undone", () => {
  fc.assert(
    fc.property(amountArb, sharesArb, ruleArb, (amount, shares, rule) => {
      const booked = apportion(amount, shares, rule);
      const reversed = apportion(-amount, shares, rule);
      booked.forEach((part, index) => {
        assert.equal(part.amount + reversed[index]!.amount, 0n);
      });
    }),
    { numRuns: 1000 },
  );
});

test("equal shares differ by at most one fen and the earlier rooms take the odd fen", () => {
  fc.assert(
    fc.property(fc.bigInt({ min: 0n, max: 10_000_000n }), sharesArb, (amount, shares) => {
      const amounts = apportion(amount, shares, "equal").map((part) => part.amount);
      // Non-increasing (ties go to the earlier room), the first and the last at most a fen apart.
      for (let index = 1; index < amounts.length; index++) assert.ok(amounts[index - 1]! >= amounts[index]!);
      assert.ok(amounts[0]! - amounts.at(-1)! <= 1n);
    }),
  );
  const three = ["a", "b", "c"].map((id) => ({ id, weight: 0n }));
  assert.deepEqual(
    apportion(100n, three, "equal").map((part) => part.amount),
    [34n, 33n, 33n],
  );
});

test("by area: 1,000.00 yuan over rooms of 55.00, 55.00 and 90.00 m²", () => {
  const rooms = [
    { id: "301", weight: 5500n },
    { id: "302", weight: 5500n },
    { id: "303", weight: 9000n },
  ];
  assert.deepEqual(
    apportion(100_000n, rooms, "area").map((part) => part.amount),
    [27_500n, 27_500n, 45_000n],
  );
  // 0.01 yuan left over by the floors goes to the largest remainder, 303 (0.45 of a fen against 0.275).
  assert.deepEqual(
    apportion(100_001n, rooms, "area").map((part) => part.amount),
    [27_500n, 27_500n, 45_001n],
  );
  // Equal remainders: the earlier room takes it.
  assert.deepEqual(
    apportion(1n, rooms.slice(0, 2), "area").map((part) => part.amount),
    [1n, 0n],
  );
});

test("what cannot be shared is refused naming the field", () => {
  const refused = (run: () => unknown, field: string) =>
    assert.throws(run, (error) => error instanceof BillingInputError && error.field === field);
  refused(() => apportion(100n, [], "area"), "rooms");
  refused(() => apportion(100n, [{ id: "a", weight: 0n }], "area"), "weight");
  refused(() => apportion(100n, [{ id: "a", weight: -1n }], "usage"), "weight");
  refused(
    () =>
      apportion(
        100n,
        [
          { id: "a", weight: 1n },
          { id: "a", weight: 2n },
        ],
        "area",
      ),
    "rooms",
  );
  // Equal shares need no weight at all.
  assert.deepEqual(
    apportion(3n, [{ id: "a", weight: 0n }], "equal").map((part) => part.amount),
    [3n],
  );
});
