import assert from "node:assert/strict";
import { test } from "node:test";
import { phoneProblem } from "../src/pages/info/profile-rules.ts";

test("the phone helper checks presence, then length, then format (spec §5)", () => {
  assert.equal(phoneProblem(undefined), "info.phoneRequired");
  assert.equal(phoneProblem("  "), "info.phoneRequired");
  assert.equal(phoneProblem("1380013800"), "info.phoneLength");
  assert.equal(phoneProblem("138001380000"), "info.phoneLength");
  assert.equal(phoneProblem("12800138000"), "info.phoneFormat");
  assert.equal(phoneProblem("1380013800a"), "info.phoneFormat");
  assert.equal(phoneProblem("13800138000"), null);
  // Optional where the account never had one; a given phone is still checked.
  assert.equal(phoneProblem("", { optional: true }), null);
  assert.equal(phoneProblem("1380013", { optional: true }), "info.phoneLength");
});
