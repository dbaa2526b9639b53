import assert from "node:assert/strict";
import { test } from "node:test";
import { amountProblem, fenToYuan, sumTwoPlaces, yuanToFen } from "../src/pages/money/counter/money-text.ts";

test("the counter takes positive amounts with at most two decimals, up to the server's bound", () => {
  assert.equal(amountProblem("100"), undefined);
  assert.equal(amountProblem(" 100.5 "), undefined);
  assert.equal(amountProblem("0.01"), undefined);
  assert.equal(amountProblem("1000000.00"), undefined);
  assert.equal(amountProblem(""), "empty");
  assert.equal(amountProblem("  "), "empty");
  assert.equal(amountProblem("abc"), "format");
  assert.equal(amountProblem("-5"), "format");
  assert.equal(amountProblem("1e3"), "format");
  assert.equal(amountProblem("12."), "format");
  assert.equal(amountProblem("1.234"), "precision");
  assert.equal(amountProblem("0"), "zero");
  assert.equal(amountProblem("0.00"), "zero");
  assert.equal(amountProblem("1000000.01"), "tooLarge");
});

test("yuan and fen convert exactly, signs and zeros included", () => {
  assert.equal(yuanToFen("123.45"), 12345n);
  assert.equal(yuanToFen("0.3"), 30n);
  assert.equal(yuanToFen("-0.05"), -5n);
  assert.equal(yuanToFen("1.005"), undefined);
  assert.equal(fenToYuan(12345n), "123.45");
  assert.equal(fenToYuan(-5n), "-0.05");
  assert.equal(fenToYuan(0n), "0.00");
});

test("balances add up to the fen without floating point drift", () => {
  // 0.1 + 0.2 in floating point is 0.30000000000000004.
  assert.equal(sumTwoPlaces(["0.10", "0.20"]), "0.30");
  assert.equal(sumTwoPlaces(["100.00", "-120.50"]), "-20.50");
  assert.equal(sumTwoPlaces(["9007199254740.99", "0.01"]), "9007199254741.00");
  assert.equal(sumTwoPlaces([]), "0.00");
  assert.equal(sumTwoPlaces(["0", "12.3"]), "12.30");
});
