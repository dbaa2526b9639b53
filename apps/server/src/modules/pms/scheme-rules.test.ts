import assert from "node:assert/strict";
import { test } from "node:test";
import {
  bandsUsed,
  checkAlarmAmounts,
  checkLadder,
  checkProtectDates,
  checkProtectTimes,
  checkTouPeriods,
  SchemeError,
  scaled,
} from "./scheme-rules.ts";

const json = (value: unknown) => JSON.stringify(value);
const fails = (fn: () => unknown, message: RegExp) =>
  assert.throws(fn, (error: unknown) => error instanceof SchemeError && message.test(error.message));

test("decimals become exact integer units", () => {
  assert.equal(scaled("0.4883", 4), 4883n);
  assert.equal(scaled("12", 2), 1200n);
  assert.equal(scaled("-1.5", 2), -150n);
  assert.equal(scaled("99999999.99", 2), 9999999999n);
  assert.throws(() => scaled("1.234", 2));
  assert.throws(() => scaled("1e3", 2));
});

test("a ladder has rising limits and an open last tier", () => {
  const tiers = checkLadder(
    json([
      { limit: "2880", price: "0.4883" },
      { limit: "4800", price: "0.5383" },
      { limit: null, price: "0.7883" },
    ]),
  );
  assert.deepEqual(tiers.at(-1), { limit: null, price: "0.7883" });
  fails(() => checkLadder(json([{ limit: null, price: "1" }])), /^ladder: 阶梯应为 2 到 8 档/);
  fails(
    () => checkLadder(json([{ limit: "100", price: "1" }, { limit: "50", price: "2" }, { price: "3" }])),
    /第 2 档上限必须大于上一档/,
  );
  fails(
    () =>
      checkLadder(
        json([
          { limit: "100", price: "1" },
          { limit: "200", price: "2" },
        ]),
      ),
    /最后一档不设上限/,
  );
  fails(() => checkLadder(json([{ limit: "100", price: "0.12345" }, { price: "2" }])), /第 1 档单价/);
  fails(() => checkLadder(json([{ limit: 100, price: "1" }, { price: "2" }])), /第 1 档上限/);
  fails(() => checkLadder("[{"), /^ladder: 不是合法的 JSON/);
  fails(() => checkLadder(""), /^ladder: 不能为空/);
});

test("time-of-use slots cover the day once, wrap past midnight, and are sorted", () => {
  const periods = checkTouPeriods(
    json([
      { start: "22:00", end: "08:00", band: "low" },
      { start: "08:00", end: "10:00", band: "peace" },
      { start: "10:00", end: "12:00", band: "peak" },
      { start: "12:00", end: "19:00", band: "peace" },
      { start: "19:00", end: "21:00", band: "tip" },
      { start: "21:00", end: "22:00", band: "peace" },
    ]),
  );
  assert.deepEqual(
    periods.map((p) => p.start),
    ["08:00", "10:00", "12:00", "19:00", "21:00", "22:00"],
  );
  assert.deepEqual(bandsUsed(periods).sort(), ["low", "peace", "peak", "tip"]);
  assert.equal(checkTouPeriods(json([{ start: "00:00", end: "24:00", band: "peace" }])).length, 1);
});

test("time-of-use gaps, overlaps, unknown bands, bad times and same-band neighbours are refused", () => {
  fails(
    () => checkTouPeriods(json([{ start: "00:00", end: "12:00", band: "peak" }])),
    /未覆盖全天\(12:00 起无费率\)/,
  );
  fails(
    () =>
      checkTouPeriods(
        json([
          { start: "00:00", end: "13:00", band: "peak" },
          { start: "12:00", end: "24:00", band: "low" },
        ]),
      ),
    /第 2 段与第 1 段重叠/,
  );
  fails(() => checkTouPeriods(json([{ start: "00:00", end: "24:00", band: "night" }])), /费率应为/);
  fails(() => checkTouPeriods(json([{ start: "0:00", end: "24:00", band: "low" }])), /应为 HH:mm/);
  fails(() => checkTouPeriods(json([{ start: "08:00", end: "08:00", band: "low" }])), /为空/);
  fails(
    () =>
      checkTouPeriods(
        json([
          { start: "00:00", end: "12:00", band: "low" },
          { start: "12:00", end: "24:00", band: "low" },
        ]),
      ),
    /费率相同,请合并/,
  );
  const fifteen = Array.from({ length: 15 }, (_, i) => ({
    start: `${String(i).padStart(2, "0")}:00`,
    end: `${String(i + 1).padStart(2, "0")}:00`,
    band: i % 2 ? "peak" : "low",
  }));
  fails(() => checkTouPeriods(json(fifteen)), /1 到 14 段/);
});

test("alarm amounts fall from the first to the second", () => {
  checkAlarmAmounts("50.00", "10");
  fails(() => checkAlarmAmounts("10", "10.00"), /^firstAlarm: /);
  fails(() => checkAlarmAmounts("9.99", "10"), /^firstAlarm: /);
});

test("protection windows take times of day, dates and weekends", () => {
  assert.deepEqual(checkProtectTimes(json([{ start: "22:00", end: "07:00" }])), [
    { start: "22:00", end: "07:00" },
  ]);
  fails(() => checkProtectTimes(json([{ start: "25:00", end: "07:00" }])), /^protectTimes: /);
  assert.deepEqual(checkProtectDates(json(["2026-10-01", "weekend", "2026-01-01", "2026-10-01"])), [
    "2026-01-01",
    "2026-10-01",
    "weekend",
  ]);
  fails(() => checkProtectDates(json(["2026-02-30"])), /不存在/);
  fails(() => checkProtectDates(json(["tomorrow"])), /yyyy-MM-dd 或 weekend/);
});
