import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { balanceLevel, mayRestore, shouldCut, type Thresholds } from "./levels.ts";

const scheme: Thresholds = {
  firstAlarm: 5000n,
  secondAlarm: 2000n,
  arrearsLimit: 1000n,
  tripOnArrears: true,
};

test("levels follow the alarm scheme", () => {
  assert.equal(balanceLevel(5001n, scheme), 0);
  assert.equal(balanceLevel(5000n, scheme), 1);
  assert.equal(balanceLevel(2001n, scheme), 1);
  assert.equal(balanceLevel(2000n, scheme), 2);
  assert.equal(balanceLevel(1n, scheme), 2);
  assert.equal(balanceLevel(0n, scheme), 3);
  assert.equal(balanceLevel(-999n, scheme), 3);
});

test("the cut waits for the overdraft to be used up, and only where the scheme trips", () => {
  assert.equal(shouldCut(-999n, scheme), false);
  assert.equal(shouldCut(-1000n, scheme), true);
  assert.equal(shouldCut(-5000n, { ...scheme, tripOnArrears: false }), false);
  assert.equal(mayRestore(-999n, scheme), true);
  assert.equal(mayRestore(-1000n, scheme), false);
});

test("a lower balance never has a better level", () => {
  fc.assert(
    fc.property(
      fc.bigInt({ min: -(10n ** 9n), max: 10n ** 9n }),
      fc.bigInt({ min: 0n, max: 10n ** 6n }),
      (balance, less) => {
        assert.ok(balanceLevel(balance - less, scheme) >= balanceLevel(balance, scheme));
        if (shouldCut(balance, scheme)) assert.ok(shouldCut(balance - less, scheme));
      },
    ),
  );
});
