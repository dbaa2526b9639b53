import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import {
  advance,
  bookedToDate,
  type CycleUsage,
  chargeBetween,
  cycleCost,
  cycleKey,
  cycleOf,
  monthlyFeeFen,
  NO_USAGE,
  registerStep,
} from "./charges.ts";
import { BANDS, type Tariff, tariffOf } from "./tariff.ts";
import { fenToYuan, toUnits } from "./units.ts";

const kwh = (text: string) => toUnits(text, 2);
const total = (text: string): CycleUsage => ({ total: kwh(text) });

const flat = tariffOf({ priceMode: 1, price: "0.5883", monthlyFee: "5.0000" });
const ladderYear = tariffOf({
  priceMode: 2,
  ladderCycle: 2,
  ladder: JSON.stringify([
    { limit: "2880", price: "0.4883" },
    { limit: "4800", price: "0.5383" },
    { limit: null, price: "0.7883" },
  ]),
});
const tou = tariffOf({
  priceMode: 3,
  tipPrice: "1.2000",
  peakPrice: "0.9000",
  peacePrice: "0.6000",
  lowPrice: "0.3000",
});

test("flat price: usage × price, booked to the fen", () => {
  assert.equal(fenToYuan(bookedToDate(flat, total("100"))), "58.83");
  // 0.01 kWh costs 0.005883 yuan: rounds to 1 fen on its own, but 3 such steps book 2 fen, not 3.
  assert.equal(bookedToDate(flat, total("0.01")), 1n);
  assert.equal(bookedToDate(flat, total("0.03")), 2n);
  assert.equal(monthlyFeeFen(flat), 500n);
});

test("ladder over a year: a reading that crosses a tier is split at the limit", () => {
  // 2870 → 2890 kWh: 10 kWh at 0.4883 and 10 kWh at 0.5383 = 10.266 yuan.
  const before = total("2870");
  const after = total("2890");
  assert.equal(cycleCost(ladderYear, after) - cycleCost(ladderYear, before), 10_266_000n);
  assert.equal(fenToYuan(chargeBetween(ladderYear, before, after)), "10.27");
  // Past the second limit: everything above 4800 at 0.7883.
  const exact = 2880n * 4883n * 100n + 1920n * 5383n * 100n + 200n * 7883n * 100n;
  assert.equal(cycleCost(ladderYear, total("5000")), exact);
  // Exactly on a limit stays in the lower tier.
  assert.equal(cycleCost(ladderYear, total("2880")), 2880n * 4883n * 100n);
});

test("ladder cycles reset on the tenant's calendar: month or year", () => {
  assert.equal(cycleKey("2026-11-24", "month"), "2026-11");
  assert.equal(cycleKey("2026-11-24", "year"), "2026");
  assert.equal(cycleOf(ladderYear), "year");
  assert.equal(cycleOf(flat), "month");
  const monthly = tariffOf({
    priceMode: 2,
    ladderCycle: 1,
    ladder: JSON.stringify([
      { limit: "50", price: "0.5" },
      { limit: null, price: "1" },
    ]),
  });
  assert.equal(cycleOf(monthly), "month");
  // A new month starts from the first tier again: 60 kWh in each month costs the same.
  assert.equal(bookedToDate(monthly, total("60")), 3500n);
  assert.throws(() => cycleKey("2026-11", "month"));
});

test("time of use: each band at its price", () => {
  const usage: CycleUsage = {
    total: kwh("10"),
    bands: { tip: kwh("1"), peak: kwh("3"), peace: kwh("4"), low: kwh("2") },
  };
  // 1×1.2 + 3×0.9 + 4×0.6 + 2×0.3 = 6.9
  assert.equal(fenToYuan(bookedToDate(tou, usage)), "6.90");
  // A band the scheme does not price is charged at the flat band's price, never for nothing.
  const partial = tariffOf({ priceMode: 3, peakPrice: "0.9", peacePrice: "0.6" });
  assert.ok(partial.mode === "tou");
  assert.equal(partial.prices.tip, partial.prices.peace);
});

test("a register that runs backwards is not charged", () => {
  assert.deepEqual(registerStep(1000n, 1250n), { usage: 250n, reset: false });
  assert.deepEqual(registerStep(1000n, 3n), { usage: 0n, reset: true });
});

const arbTariff: fc.Arbitrary<Tariff> = fc.oneof(
  fc.bigInt({ min: 0n, max: 99_999n }).map((price): Tariff => ({ mode: "flat", price, monthlyFee: 0n })),
  fc.uniqueArray(fc.bigInt({ min: 1n, max: 500_000n }), { minLength: 1, maxLength: 7 }).chain((limits) =>
    fc
      .array(fc.bigInt({ min: 0n, max: 99_999n }), {
        minLength: limits.length + 1,
        maxLength: limits.length + 1,
      })
      .map((prices): Tariff => {
        const sorted = [...limits].sort((a, b) => (a < b ? -1 : 1));
        return {
          mode: "ladder",
          cycle: "year",
          tiers: prices.map((price, i) => ({ limit: sorted[i] ?? null, price })),
          monthlyFee: 0n,
        };
      }),
  ),
  fc.tuple(...BANDS.map(() => fc.bigInt({ min: 0n, max: 99_999n }))).map(
    ([tip, peak, peace, low]): Tariff => ({
      mode: "tou",
      prices: { tip: tip!, peak: peak!, peace: peace!, low: low! },
      monthlyFee: 0n,
    }),
  ),
);

/** A reading's usage: some in each band, the total their sum. */
const arbStep: fc.Arbitrary<CycleUsage> = fc
  .tuple(...BANDS.map(() => fc.bigInt({ min: 0n, max: 5_000n })))
  .map(([tip, peak, peace, low]) => ({
    total: tip! + peak! + peace! + low!,
    bands: { tip: tip!, peak: peak!, peace: peace!, low: low! },
  }));

const sumCharges = (tariff: Tariff, steps: CycleUsage[]) => {
  let position = NO_USAGE;
  let charged = 0n;
  for (const step of steps) {
    const next = advance(position, step);
    const charge = chargeBetween(tariff, position, next);
    assert.ok(charge >= 0n, "usage never books a negative charge");
    charged += charge;
    position = next;
  }
  return { charged, position };
};

test("no fen lost or made: charges of any split add up to the usage priced at once", () => {
  fc.assert(
    fc.property(arbTariff, fc.array(arbStep, { maxLength: 60 }), (tariff, steps) => {
      const { charged, position } = sumCharges(tariff, steps);
      assert.equal(charged, bookedToDate(tariff, position));
    }),
    { numRuns: 500 },
  );
});

test("a period books the same whether its usage came in many readings or one", () => {
  fc.assert(
    fc.property(
      arbTariff,
      fc.array(arbStep, { maxLength: 30 }),
      fc.array(arbStep, { maxLength: 30 }),
      (tariff, earlier, period) => {
        const { position: start } = sumCharges(tariff, earlier);
        // The period's readings one by one …
        let position = start;
        let charged = 0n;
        for (const step of period) {
          const next = advance(position, step);
          charged += chargeBetween(tariff, position, next);
          position = next;
        }
        // … against the period's usage as one reading.
        const whole = period.reduce(advance, NO_USAGE);
        assert.equal(charged, chargeBetween(tariff, start, advance(start, whole)));
      },
    ),
    { numRuns: 300 },
  );
});

test("the exact cost never falls as usage grows (no tier or band pays back)", () => {
  fc.assert(
    fc.property(arbTariff, arbStep, arbStep, (tariff, a, b) => {
      assert.ok(cycleCost(tariff, advance(a, b)) >= cycleCost(tariff, a));
    }),
  );
});
