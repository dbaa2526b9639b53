import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import type { Thresholds } from "./levels.ts";
import { balanceOutlook, cutWithin } from "./outlook.ts";

const scheme: Thresholds = {
  firstAlarm: 5000n,
  secondAlarm: 2000n,
  arrearsLimit: 1000n,
  tripOnArrears: true,
};
const week = (charged: bigint) => ({ charged, days: 7 });

test("a balance lasts its days at the recent pace, rounded up", () => {
  // 7.00 元 a week is 1.00 元 a day: 15.00 元 is spent within 15 days, the 10.00 元 overdraft 10 more.
  assert.deepEqual(balanceOutlook(1500n, week(700n), scheme), { daysUntilEmpty: 15, daysUntilCut: 25 });
  // 15.01 元 lasts into the 16th day.
  assert.deepEqual(balanceOutlook(1501n, week(700n), scheme), { daysUntilEmpty: 16, daysUntilCut: 26 });
  // Spent already, overdraft left: empty now, cut in 5 days.
  assert.deepEqual(balanceOutlook(-500n, week(700n), scheme), { daysUntilEmpty: 0, daysUntilCut: 5 });
  // At the cut line: cut now, whatever the pace.
  assert.deepEqual(balanceOutlook(-1000n, week(0n), scheme), { daysUntilEmpty: 0, daysUntilCut: 0 });
});

test("no estimate without a recent charge, and no cut where the scheme never trips", () => {
  assert.deepEqual(balanceOutlook(1500n, week(0n), scheme), { daysUntilEmpty: null, daysUntilCut: null });
  assert.deepEqual(balanceOutlook(1500n, { charged: 700n, days: 0 }, scheme), {
    daysUntilEmpty: null,
    daysUntilCut: null,
  });
  assert.deepEqual(balanceOutlook(1500n, week(700n), { ...scheme, tripOnArrears: false }), {
    daysUntilEmpty: 15,
    daysUntilCut: null,
  });
});

const money = fc.bigInt({ min: -(10n ** 7n), max: 10n ** 7n });
const recent = fc.record({
  charged: fc.bigInt({ min: 1n, max: 10n ** 6n }),
  days: fc.integer({ min: 1, max: 7 }),
});
const thresholds = fc.record({
  firstAlarm: fc.constant(5000n),
  secondAlarm: fc.constant(2000n),
  arrearsLimit: fc.bigInt({ min: 0n, max: 10n ** 5n }),
  tripOnArrears: fc.constant(true),
});

test("the days are the least whole days after which the pace has spent the balance", () => {
  fc.assert(
    fc.property(money, recent, thresholds, (balance, pace, t) => {
      const { daysUntilEmpty, daysUntilCut } = balanceOutlook(balance, pace, t);
      // Spent after n days: n × charged ≥ left × days (the pace is charged per days).
      const spentAfter = (left: bigint, n: number) => BigInt(n) * pace.charged >= left * BigInt(pace.days);
      for (const [left, n] of [
        [balance, daysUntilEmpty],
        [balance + t.arrearsLimit, daysUntilCut],
      ] as const) {
        assert.ok(n !== null && n >= 0);
        assert.ok(spentAfter(left, n));
        if (n > 0) assert.ok(!spentAfter(left, n - 1));
      }
      assert.ok(daysUntilCut! >= daysUntilEmpty!);
    }),
  );
});

test("cut within N days holds exactly up to the cut's day, and a lower balance is cut no later", () => {
  fc.assert(
    fc.property(
      money,
      recent,
      thresholds,
      fc.integer({ min: 0, max: 400 }),
      fc.bigInt({ min: 0n, max: 10n ** 5n }),
      (balance, pace, t, n, less) => {
        const until = balanceOutlook(balance, pace, t).daysUntilCut!;
        assert.equal(cutWithin(balance, pace, t, n), until <= n);
        assert.ok(balanceOutlook(balance - less, pace, t).daysUntilCut! <= until);
      },
    ),
  );
});
