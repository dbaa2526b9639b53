import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { dlt645 } from "@meterline/protocols";
import fc from "fast-check";
import { meterDayTable, TARIFF_OF_BAND } from "../src/modules/money/tou-day-table.ts";
import { BANDS, type Band, SchemeError, windowMinutes } from "../src/modules/pms/scheme-rules.ts";

const hhmm = (minute: number) =>
  `${String(Math.floor(minute / 60)).padStart(2, "0")}:${String(minute % 60).padStart(2, "0")}`;

/**
 * Valid time-of-use periods as an operator could save them: 1..14 cut points around the clock,
 * the last period wrapping to the first, neighbours (around midnight too) in different bands.
 */
const touPeriods = fc
  .uniqueArray(fc.integer({ min: 0, max: 1439 }), { minLength: 1, maxLength: 14 })
  .chain((cuts) =>
    fc.tuple(
      fc.constant([...cuts].sort((a, b) => a - b)),
      fc.array(fc.constantFrom(...BANDS), { minLength: cuts.length, maxLength: cuts.length }),
    ),
  )
  .filter(
    ([cuts, bands]) => cuts.length === 1 || bands.every((band, i) => band !== bands[(i + 1) % bands.length]),
  )
  .map(([cuts, bands]) =>
    // One period can only be the whole day.
    cuts.length === 1
      ? [{ start: "00:00", end: "24:00", band: bands[0]! }]
      : cuts.map((start, i) => ({
          start: hhmm(start),
          end: hhmm(cuts[(i + 1) % cuts.length]!),
          band: bands[i]!,
        })),
  );

/** The band of every minute of the day as the scheme rules read the periods (the server's own reading). */
function bandsByMinute(periods: { start: string; end: string; band: Band }[]): Band[] {
  const out = new Array<Band>(1440);
  for (const period of periods)
    for (const minute of windowMinutes("", period.start, period.end)) out[minute] = period.band;
  return out;
}

describe("time-of-use periods → the meter's day table", () => {
  test("every minute of the day is in the same band on the meter as in the scheme, or the table is refused", () => {
    fc.assert(
      fc.property(touPeriods, (periods) => {
        const wraps = !periods.some((p) => p.start === "00:00");
        const needed = periods.length + (wraps ? 1 : 0);
        if (needed > 14) {
          assert.throws(
            () => meterDayTable(JSON.stringify(periods)),
            (e) => e instanceof SchemeError && e.field === "touPeriods",
          );
          return;
        }
        const table = meterDayTable(JSON.stringify(periods));
        assert.equal(table.length, needed);
        assert.equal(table[0]!.start, 0);
        assert.ok(table.every((p, i) => i === 0 || p.start > table[i - 1]!.start));
        // The value a meter is written holds it (tariffs 1..4, ≤ 14 entries, valid times).
        assert.deepEqual(dlt645.parseDayTable(dlt645.dayTableValue(table)), table);
        const expected = bandsByMinute(periods);
        for (let minute = 0; minute < 1440; minute++)
          assert.equal(dlt645.tariffAt(table, minute), TARIFF_OF_BAND[expected[minute]!], `minute ${minute}`);
      }),
      { numRuns: 300 },
    );
  });

  test("a night valley across midnight becomes two entries; 14 periods that wrap need 15 and are refused", () => {
    const table = meterDayTable(
      JSON.stringify([
        { start: "07:00", end: "22:00", band: "peak" },
        { start: "22:00", end: "07:00", band: "low" },
      ]),
    );
    assert.deepEqual(table, [
      { start: 0, tariff: 4 },
      { start: 420, tariff: 2 },
      { start: 1320, tariff: 4 },
    ]);
    const fourteen = Array.from({ length: 14 }, (_, i) => ({
      start: hhmm(60 + i * 60),
      end: hhmm(i === 13 ? 60 : 120 + i * 60),
      band: i % 2 === 0 ? "peak" : "low",
    }));
    assert.throws(
      () => meterDayTable(JSON.stringify(fourteen)),
      /^SchemeError: touPeriods: 表计每日最多 14 个时段|touPeriods: 表计每日最多 14 个时段/,
    );
    assert.throws(() => meterDayTable("[]"), SchemeError);
  });
});
