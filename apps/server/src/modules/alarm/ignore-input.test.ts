import assert from "node:assert/strict";
import { test } from "node:test";
import { readIgnoreInput } from "./ignore-input.ts";

const fails = (params: Record<string, unknown>, field: string) =>
  assert.throws(
    () => readIgnoreInput(params),
    (error: Error & { status?: number }) => error.message.startsWith(`${field}: `),
    JSON.stringify(params),
  );

test("ignore types and days agree: 1 ↔ 0, 2 ↔ 7, 3 ↔ 9999; neither means 7 days", () => {
  const pick = (params: Record<string, unknown>) => {
    const input = readIgnoreInput({ recordId: "42", ...params });
    return [input.ignoreType, input.days];
  };
  assert.deepEqual(pick({}), [2, 7]);
  assert.deepEqual(pick({ days: "0" }), [1, 0]);
  assert.deepEqual(pick({ days: 7 }), [2, 7]);
  assert.deepEqual(pick({ days: 9999, reason: "拆表" }), [3, 9999]);
  assert.deepEqual(pick({ ignoreType: 1 }), [1, 0]);
  assert.deepEqual(pick({ ignoreType: "3", days: "9999", remark: "拆表" }), [3, 9999]);
  // The family's own name of the days.
  assert.deepEqual(pick({ ignoreDate: "0" }), [1, 0]);
  assert.deepEqual(pick({ ignoreDate: 9999, reason: "拆表" }), [3, 9999]);
  assert.deepEqual(pick({ ignoreDate: 7, days: "7" }), [2, 7]);
});

test("the reason comes from reason or remark, trimmed; permanent needs one", () => {
  assert.equal(readIgnoreInput({ recordId: "1", days: 9999, remark: " 拆表 " }).reason, "拆表");
  assert.equal(readIgnoreInput({ recordId: "1", reason: "甲", remark: "乙" }).reason, "甲");
  assert.equal(readIgnoreInput({ recordId: "1", days: 0 }).reason, "");
  fails({ recordId: "1", days: 9999 }, "reason");
  fails({ recordId: "1", ignoreType: 3, reason: "   " }, "reason");
  fails({ recordId: "1", days: 7, reason: "x".repeat(256) }, "reason");
});

test("every wrong parameter is named", () => {
  fails({}, "recordId");
  fails({ recordId: "abc" }, "recordId");
  fails({ recordId: "1", meterId: "x1" }, "meterId");
  for (const ignoreType of ["0", "4", "permanent", "1.5"]) fails({ recordId: "1", ignoreType }, "ignoreType");
  for (const days of ["1", "30", "-7", "9998", "7.0"]) fails({ recordId: "1", days }, "days");
  fails({ recordId: "1", ignoreType: 2, days: 0 }, "days");
  fails({ recordId: "1", ignoreType: 1, days: 9999, reason: "x" }, "days");
  for (const ignoreDate of ["30", "2026-12-01"]) fails({ recordId: "1", ignoreDate }, "ignoreDate");
  fails({ recordId: "1", ignoreType: 2, ignoreDate: 0 }, "ignoreDate");
  fails({ recordId: "1", days: 7, ignoreDate: 9999, reason: "x" }, "ignoreDate");
});
