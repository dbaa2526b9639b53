import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import {
  dailyHistory,
  episodeStep,
  forecastDays,
  HISTORY_DAYS,
  historyWindow,
  storedWarnDays,
  withinWarning,
} from "./warning-rules.ts";

/** Ten yuan a day for every day of the window before `today`. */
const tenADay = (today: string, days = HISTORY_DAYS) => {
  const window = historyWindow(today, "2000-01-01")!;
  const charges = new Map<string, number>();
  for (const entry of dailyHistory(window, new Map()).slice(-days)) charges.set(entry.day, 1000);
  return charges;
};

describe("warning days a tenant stored", () => {
  test("empty, zero and anything unreadable are off; whole days up to 30 count", () => {
    assert.deepEqual(
      ["", "0", "3", " 7 ", "30", "31", "-1", "2.5", "abc", undefined].map(storedWarnDays),
      [0, 0, 3, 7, 30, 0, 0, 0, 0, 0],
    );
  });
});

describe("the history a forecast reads", () => {
  test("closed days only, at most six weeks, none before the account opened", () => {
    assert.deepEqual(historyWindow("2026-11-29", "2000-01-01"), { from: "2026-10-18", to: "2026-11-28" });
    assert.deepEqual(historyWindow("2026-11-29", "2026-11-20"), { from: "2026-11-20", to: "2026-11-28" });
    assert.equal(historyWindow("2026-11-29", "2026-11-29"), undefined, "opened today: nothing closed yet");
  });
  test("days without charges spent nothing", () => {
    assert.deepEqual(dailyHistory({ from: "2026-11-01", to: "2026-11-03" }, new Map([["2026-11-02", 500]])), [
      { day: "2026-11-01", fen: 0 },
      { day: "2026-11-02", fen: 500 },
      { day: "2026-11-03", fen: 0 },
    ]);
  });
});

describe("days until the balance is spent", () => {
  test("25 yuan at 10 a day lasts into the third day; 500 yuan lasts 50", () => {
    assert.equal(forecastDays(2500n, "2026-11-29", "2026-10-01", tenADay("2026-11-29")), 3);
    assert.equal(forecastDays(50_000n, "2026-11-29", "2026-10-01", tenADay("2026-11-29")), 50);
  });
  test("spent is 0; no spend or no closed day is unknown (null)", () => {
    assert.equal(forecastDays(0n, "2026-11-29", "2026-10-01", tenADay("2026-11-29")), 0);
    assert.equal(forecastDays(-100n, "2026-11-29", "2026-10-01", new Map()), 0);
    assert.equal(forecastDays(2500n, "2026-11-29", "2026-10-01", new Map()), null);
    assert.equal(forecastDays(2500n, "2026-11-29", "2026-11-29", tenADay("2026-11-29")), null);
  });
  test("an account opened two weeks ago is judged on those two weeks, not on six weeks with zeros", () => {
    assert.equal(forecastDays(2500n, "2026-11-29", "2026-11-15", tenADay("2026-11-29", 14)), 3);
  });
});

describe("a warning episode", () => {
  test("opens once when the forecast falls within the warning days, ends when it rises above", () => {
    const run = (forecasts: (number | null)[], warnDays = 3) => {
      let open = false;
      return forecasts.map((days) => {
        const step = episodeStep(open, days, warnDays);
        if (step === "warn") open = true;
        if (step === "end") open = false;
        return step;
      });
    };
    assert.deepEqual(run([10, 4, 3, 2, 1]), ["stay", "stay", "warn", "stay", "stay"]);
    // Spent: no new warning, and a small recharge back within the days is the same episode.
    assert.deepEqual(run([3, 0, 2]), ["warn", "stay", "stay"]);
    // A recharge lifts it above (or to plenty), then it falls again: a new warning.
    assert.deepEqual(run([2, 12, 3]), ["warn", "end", "warn"]);
    assert.deepEqual(run([2, null, 1]), ["warn", "end", "warn"]);
    // Warnings off: nothing sent, and an open episode ends.
    assert.deepEqual(run([2, 1], 0), ["stay", "stay"]);
  });

  test("properties: at most one warning while the forecast stays within the days; never off or spent", () => {
    const forecast = fc.option(fc.integer({ min: 0, max: 60 }), { nil: null });
    fc.assert(
      fc.property(
        fc.array(forecast, { maxLength: 40 }),
        fc.integer({ min: 0, max: 30 }),
        (forecasts, warnDays) => {
          let open = false;
          let warnedThisEpisode = 0;
          for (const days of forecasts) {
            const step = episodeStep(open, days, warnDays);
            if (step === "warn") {
              assert.ok(withinWarning(days, warnDays), "a warning is for a forecast within the days");
              assert.ok(warnDays > 0 && days !== 0);
              warnedThisEpisode++;
              open = true;
            }
            if (step === "end") {
              assert.ok(!withinWarning(days, warnDays) && days !== 0, "an episode ends only above the days");
              open = false;
              warnedThisEpisode = 0;
            }
            assert.ok(warnedThisEpisode <= 1);
            // After any step, a forecast within the days is always covered by an open episode.
            if (withinWarning(days, warnDays)) assert.ok(open);
          }
        },
      ),
    );
  });
});
