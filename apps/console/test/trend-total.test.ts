import assert from "node:assert/strict";
import { test } from "node:test";
import { trendTotal } from "../src/pages/reading/trend-calls.ts";

const day = (usage: string) => ({ day: "2026-11-01", usage, meters: 1 });

test("the trend total adds exact two-place decimals without floating point drift", () => {
  // 0.1 + 0.2 in floating point is 0.30000000000000004.
  assert.equal(trendTotal([day("0.10"), day("0.20")]), "0.30");
  assert.equal(trendTotal([day("1234567.89"), day("0.11")]), "1234568.00");
  assert.equal(trendTotal([]), "0.00");
  // A replaced meter can make a day negative; the total says so.
  assert.equal(trendTotal([day("-0.50"), day("0.20")]), "-0.30");
});
