import assert from "node:assert/strict";
import { test } from "node:test";
import { pagerTotal } from "../src/crud/pager-total.ts";
import { en } from "../src/i18n/en.ts";
import { zh } from "../src/i18n/zh.ts";

test("an exact total is shown as it is", () => {
  assert.deepEqual(pagerTotal(37, true), { key: "crud.total", total: 37 });
  assert.deepEqual(pagerTotal(0, true), { key: "crud.total", total: 0 });
});

test("a bounded total (one row past what it promises) reads N+ in both languages", () => {
  // The server counted up to 2,001 rows and stopped: there are more than 2,000.
  const shown = pagerTotal(2001, false);
  assert.deepEqual(shown, { key: "crud.totalAtLeast", total: 2000 });
  assert.equal(zh[shown.key].replace("{total}", String(shown.total)), "2000+ 条");
  assert.equal(en[shown.key].replace("{total}", String(shown.total)), "2000+ in total");
});
