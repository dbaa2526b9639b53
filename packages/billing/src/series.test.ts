import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { advance, type CycleUsage, chargeBetween, cycleKey, cycleOf } from "./charges.ts";
import { NO_REGISTERS, priceSeries, type RegisterState, type SeriesRead, usageStep } from "./series.ts";
import { type Tariff, tariffOf } from "./tariff.ts";

const tariffs: Tariff[] = [
  tariffOf({ priceMode: 1, price: "0.5883" }),
  tariffOf({
    priceMode: 2,
    ladderCycle: 1,
    ladder: JSON.stringify([
      { limit: "30", price: "0.4883" },
      { limit: "60", price: "0.5383" },
      { limit: null, price: "0.7883" },
    ]),
  }),
  tariffOf({
    priceMode: 2,
    ladderCycle: 2,
    ladder: JSON.stringify([
      { limit: "50", price: "0.3333" },
      { limit: null, price: "0.7777" },
    ]),
  }),
  tariffOf({
    priceMode: 3,
    tipPrice: "1.2345",
    peakPrice: "0.9001",
    peacePrice: "0.6007",
    lowPrice: "0.3003",
  }),
];

/** Pricing as readings arrive (usage-pricing.ts): each reading charged the step of its cycle's rounded cost. */
function priceIncrementally(tariff: Tariff, reads: readonly SeriesRead[]): bigint {
  let registers: RegisterState = NO_REGISTERS;
  let key: string | undefined;
  let position: CycleUsage = { total: 0n };
  let charged = 0n;
  for (const read of reads) {
    const { step, after } = usageStep(registers, read);
    registers = after;
    const next = cycleKey(read.day, cycleOf(tariff));
    if (next !== key) position = { total: 0n, bands: { tip: 0n, peak: 0n, peace: 0n, low: 0n } };
    key = next;
    const moved = advance(position, step);
    charged += chargeBetween(tariff, position, moved);
    position = moved;
  }
  return charged;
}

/** A day from its index (0 = 2025-12-01): a hundred days cross month ends and a year end. */
const dayOf = (index: number) =>
  new Date(Date.UTC(2025, 11, 1) + index * 86_400_000).toISOString().slice(0, 10);

/** A reading: the day, the total and, for a time-of-use meter, bands that add up to it. */
const readArb = (withBands: boolean) =>
  fc
    .record({
      dayIndex: fc.integer({ min: 0, max: 100 }),
      total: fc.bigInt({ min: 0n, max: 20_000n }),
      split: fc.array(fc.bigInt({ min: 0n, max: 5_000n }), { minLength: 4, maxLength: 4 }),
    })
    .map(({ dayIndex, total, split }) => ({
      dayIndex,
      total,
      bands: withBands
        ? { tip: split[0]!, peak: split[1]!, peace: split[2]!, low: split[3]! }
        : { tip: null, peak: null, peace: null, low: null },
    }));

const seriesArb = (withBands: boolean) =>
  fc
    .array(readArb(withBands), { minLength: 0, maxLength: 25 })
    .map((reads) =>
      [...reads]
        .sort((a, b) => a.dayIndex - b.dayIndex)
        .map((r) => ({ day: dayOf(r.dayIndex), total: r.total, bands: r.bands }) satisfies SeriesRead),
    );

/** Mostly rising registers, as meters count, with now and then a step back (replaced or reset). */
const risingArb = (withBands: boolean) =>
  seriesArb(withBands).map((reads) => {
    let total = 0n;
    const bands = { tip: 0n, peak: 0n, peace: 0n, low: 0n };
    return reads.map((read, i) => {
      if (i % 7 === 6) return read; // the odd reading out of line
      total += read.total;
      if (read.bands.tip === null) return { ...read, total };
      bands.tip += read.bands.tip;
      bands.peak += read.bands.peak!;
      bands.peace += read.bands.peace!;
      bands.low += read.bands.low!;
      return { ...read, total, bands: { ...bands } };
    });
  });

const caseArb = fc
  .integer({ min: 0, max: tariffs.length - 1 })
  .chain((t) => risingArb(t === 3).map((reads) => ({ tariff: tariffs[t]!, reads, bands: t === 3 })));

test("a series priced from scratch costs what its readings were charged one by one, to the fen", () => {
  fc.assert(
    fc.property(caseArb, ({ tariff, reads }) => {
      assert.equal(priceSeries(tariff, NO_REGISTERS, reads).charged, priceIncrementally(tariff, reads));
    }),
    { numRuns: 500 },
  );
});

test("a series splits at a cycle's start: the part before plus the part after, from where it left off", () => {
  fc.assert(
    fc.property(caseArb, fc.integer({ min: 0, max: 100 }), ({ tariff, reads }, at) => {
      const key = cycleKey(dayOf(at), cycleOf(tariff));
      const before = reads.filter((r) => cycleKey(r.day, cycleOf(tariff)) < key);
      const after = reads.filter((r) => cycleKey(r.day, cycleOf(tariff)) >= key);
      const head = priceSeries(tariff, NO_REGISTERS, before);
      assert.equal(
        head.charged + priceSeries(tariff, head.registers, after).charged,
        priceSeries(tariff, NO_REGISTERS, reads).charged,
      );
    }),
    { numRuns: 500 },
  );
});

/**
 * What a correction books, as the server re-prices it: only the span from the start of the
 * corrected reading's cycle, priced before and after from the registers the earlier cycles left.
 */
function correctionDelta(tariff: Tariff, before: SeriesRead[], after: SeriesRead[], day: string): bigint {
  const key = cycleKey(day, cycleOf(tariff));
  const inSpan = (r: SeriesRead) => cycleKey(r.day, cycleOf(tariff)) >= key;
  const start = priceSeries(
    tariff,
    NO_REGISTERS,
    before.filter((r) => !inSpan(r)),
  ).registers;
  return (
    priceSeries(tariff, start, after.filter(inSpan)).charged -
    priceSeries(tariff, start, before.filter(inSpan)).charged
  );
}

test("charges plus corrections for random voids and insertions equal the final series priced from scratch", () => {
  const change = fc.record({
    void: fc.boolean(),
    pick: fc.nat(),
    dayIndex: fc.integer({ min: 0, max: 100 }),
    total: fc.bigInt({ min: 0n, max: 400_000n }),
    split: fc.array(fc.bigInt({ min: 0n, max: 100_000n }), { minLength: 4, maxLength: 4 }),
  });
  fc.assert(
    fc.property(caseArb, fc.array(change, { maxLength: 8 }), ({ tariff, reads, bands }, changes) => {
      let series: SeriesRead[] = reads;
      let booked = priceIncrementally(tariff, series);
      for (const c of changes) {
        let next: SeriesRead[];
        let day: string;
        if (c.void && series.length > 0) {
          const index = c.pick % series.length;
          day = series[index]!.day;
          next = series.filter((_, i) => i !== index);
        } else {
          day = dayOf(c.dayIndex);
          const read: SeriesRead = {
            day,
            total: c.total,
            bands: bands
              ? { tip: c.split[0]!, peak: c.split[1]!, peace: c.split[2]!, low: c.split[3]! }
              : { tip: null, peak: null, peace: null, low: null },
          };
          // After the readings of its day (a later time of the day), before the next day's.
          const at = series.findIndex((r) => r.day > day);
          next = at < 0 ? [...series, read] : [...series.slice(0, at), read, ...series.slice(at)];
        }
        booked += correctionDelta(tariff, series, next, day);
        series = next;
      }
      assert.equal(booked, priceSeries(tariff, NO_REGISTERS, series).charged);
    }),
    { numRuns: 400 },
  );
});

test("a spike voided gives back what it charged; the reading after it is charged from the one before", () => {
  const flat = tariffs[0]!;
  const read = (day: string, total: bigint): SeriesRead => ({
    day,
    total,
    bands: { tip: null, peak: null, peace: null, low: null },
  });
  const withSpike = [read("2026-01-05", 10_000n), read("2026-01-06", 99_000n), read("2026-01-07", 10_500n)];
  // 890 kWh charged at 0.5883: 523.587 → 523.59 yuan; the step back after it is never charged.
  assert.equal(priceSeries(flat, NO_REGISTERS, withSpike).charged, 52_359n);
  const without = [withSpike[0]!, withSpike[2]!];
  assert.equal(priceSeries(flat, NO_REGISTERS, without).charged, 294n); // 5 kWh: 2.9415 → 2.94
  assert.equal(correctionDelta(flat, withSpike, without, "2026-01-06"), 294n - 52_359n);
});
