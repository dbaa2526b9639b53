import assert from "node:assert/strict";
import { test } from "node:test";
import type { BatchJobSummary } from "@meterline/contracts";
import { en } from "../src/i18n/en.ts";
import type { MessageKey } from "../src/i18n/index.tsx";
import { zh } from "../src/i18n/zh.ts";
import { batchJobHref, settledShare } from "../src/pages/operation/batch-job/batch-job-calls.ts";
import { actionWords } from "../src/pages/operation/batch-job/job-words.ts";

const inZh = (key: MessageKey) => zh[key];
const inEn = (key: MessageKey) => en[key];

test("a job's action reads as the meter screens' buttons: the switch choice, else the kind", () => {
  assert.equal(actionWords({ kind: "switch", params: { switchType: 2 } }, inZh), "拉闸");
  assert.equal(actionWords({ kind: "switch", params: { switchType: "1" } }, inZh), "合闸");
  assert.equal(actionWords({ kind: "valve", params: { type: 2 } }, inZh), "关阀");
  assert.equal(actionWords({ kind: "writePrice", params: {} }, inZh), "写电价");
  assert.equal(actionWords({ kind: "waterPrice", params: {} }, inEn), "Write water prices");
  // A choice the console does not know falls back to the kind rather than a wrong word.
  assert.equal(actionWords({ kind: "switch", params: { switchType: 9 } }, inZh), "拉合闸");
});

test("the settled share counts every meter no longer remaining, and rounds down", () => {
  const job = { total: 200, remaining: 1 } as BatchJobSummary;
  assert.equal(settledShare(job), 99);
  assert.equal(settledShare({ ...job, remaining: 0 }), 100);
  assert.equal(settledShare({ ...job, total: 0, remaining: 0 }), 100);
});

test("the link to a job carries its id and, for the platform administrator, its tenant", () => {
  assert.equal(batchJobHref("123"), "/operation/batchjob?id=123");
  assert.equal(batchJobHref("123", "100001"), "/operation/batchjob?id=123&tenantId=100001");
});

test("every batch job string exists in both languages", () => {
  const keys = Object.keys(zh).filter((key) => key.startsWith("batchJob."));
  assert.ok(keys.length > 40);
  for (const key of keys) assert.ok(en[key as MessageKey], key);
});
