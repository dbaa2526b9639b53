import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { chargeParts, settleParts } from "./charge-parts.ts";
import { advance, type CycleUsage, chargeBetween } from "./charges.ts";
import { tariffOf } from "./tariff.ts";
import { toUnits } from "./units.ts";

const kwh = (text: string) => toUnits(text, 2);
const ladder = tariffOf({
  priceMode: 2,
  ladderCycle: 1,
  ladder: JSON.stringify([
    { limit: "240", price: "0.4883" },
    { limit: "400", price: "0.5383" },
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
const flat = tariffOf({ priceMode: 1, price: "0.5883" });

test("a ladder step across a tier's limit is split at the limit, each side at its own price", () => {
  const parts = chargeParts(ladder, { total: kwh("200") }, { total: kwh("300") });
  assert.deepEqual(parts, [
    { part: "tier1", usage: kwh("40"), charge: 1953n }, // 40 × 0.4883
    { part: "tier2", usage: kwh("60"), charge: 3230n }, // 60 × 0.5383 = 32.298
  ]);
  assert.equal(
    parts.reduce((s, p) => s + p.charge, 0n),
    chargeBetween(ladder, { total: kwh("200") }, { total: kwh("300") }),
  );
});

test("a time-of-use step is split by band; bands without usage are left out", () => {
  const before: CycleUsage = { total: 0n, bands: { tip: 0n, peak: 0n, peace: 0n, low: 0n } };
  const after: CycleUsage = {
    total: kwh("3"),
    bands: { tip: kwh("1"), peak: 0n, peace: kwh("1"), low: kwh("1") },
  };
  assert.deepEqual(chargeParts(tou, before, after), [
    { part: "tip", usage: kwh("1"), charge: 120n },
    { part: "peace", usage: kwh("1"), charge: 60n },
    { part: "low", usage: kwh("1"), charge: 30n },
  ]);
});

test("the rounding difference goes to the part with the most usage", () => {
  assert.deepEqual(
    settleParts(
      [
        { part: "tip", usage: 1n, micro: 4_000n },
        { part: "peak", usage: 5n, micro: 4_000n },
      ],
      1n,
    ),
    [
      { part: "tip", usage: 1n, charge: 0n },
      { part: "peak", usage: 5n, charge: 1n },
    ],
  );
});

test("whatever the steps, the parts add up to the booked charge and the step's usage", () => {
  const band = fc.bigInt({ min: 0n, max: 5_000n });
  const step = fc.record({ tip: band, peak: band, peace: band, low: band });
  fc.assert(
    fc.property(fc.array(step, { minLength: 1, maxLength: 20 }), (steps) => {
      for (const tariff of [ladder, tou, flat]) {
        let position: CycleUsage = { total: 0n, bands: { tip: 0n, peak: 0n, peace: 0n, low: 0n } };
        for (const s of steps) {
          const moved = advance(position, { total: s.tip + s.peak + s.peace + s.low, bands: s });
          const parts = chargeParts(tariff, position, moved);
          assert.deepEqual(
            chargeParts(tariff, position, moved, chargeBetween(tariff, position, moved)),
            parts,
          );
          if (tariff.mode === "flat") {
            // The flat price's one part, as the general settling of its exact cost gives it.
            const usage = moved.total - position.total;
            const settled = settleParts(
              [{ part: "flat", usage, micro: usage * tariff.price }],
              chargeBetween(tariff, position, moved),
            );
            assert.deepEqual(parts, settled);
          }
          assert.equal(
            parts.reduce((sum, p) => sum + p.charge, 0n),
            chargeBetween(tariff, position, moved),
          );
          assert.equal(
            parts.reduce((sum, p) => sum + p.usage, 0n),
            moved.total - position.total,
          );
          position = moved;
        }
      }
    }),
  );
});
