import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { balanceLevel, mayRestore, restoreAmount, shouldCut, type Thresholds } from "./levels.ts";

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

test("the restore amount: the debt beyond the overdraft plus a fen, offered in whole yuan", () => {
  // 123.45 owed, 10.00 of overdraft: 113.46 lifts the balance to -9.99; 114 is offered.
  assert.deepEqual(restoreAmount(-12345n, scheme), { leastFen: 11346n, offerFen: 11400n });
  // Exactly at the line: one fen more is needed, so the next whole yuan.
  assert.deepEqual(restoreAmount(-1000n, scheme), { leastFen: 1n, offerFen: 100n });
  assert.deepEqual(restoreAmount(-11000n, scheme), { leastFen: 10001n, offerFen: 10100n });
  assert.equal(restoreAmount(-999n, scheme), null);
  assert.equal(restoreAmount(-5000n, { ...scheme, tripOnArrears: false }), null);
});

test("paying the restore amount restores supply, a fen less does not, and the offer is whole yuan", () => {
  fc.assert(
    fc.property(
      fc.bigInt({ min: -(10n ** 9n), max: 10n ** 9n }),
      fc.bigInt({ min: 0n, max: 10n ** 6n }),
      (balance, overdraft) => {
        const t = { ...scheme, arrearsLimit: overdraft };
        const amount = restoreAmount(balance, t);
        assert.equal(amount === null, mayRestore(balance, t));
        if (!amount) return;
        assert.ok(amount.leastFen > 0n);
        assert.ok(mayRestore(balance + amount.leastFen, t));
        assert.ok(shouldCut(balance + amount.leastFen - 1n, t));
        assert.equal(amount.offerFen % 100n, 0n);
        assert.ok(amount.offerFen >= amount.leastFen && amount.offerFen - amount.leastFen < 100n);
      },
    ),
  );
});
