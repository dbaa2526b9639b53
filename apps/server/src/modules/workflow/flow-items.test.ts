import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { durationText, taskUser } from "./flow-items.ts";

describe("flow items", () => {
  it("says a duration as the family does", () => {
    const from = new Date("2026-12-01T00:00:00Z");
    const at = (seconds: number) => new Date(from.getTime() + seconds * 1000);
    assert.equal(durationText(from, at(0)), "");
    assert.equal(durationText(from, null), "");
    assert.equal(durationText(from, at(65)), "0小时1分5秒");
    assert.equal(durationText(from, at(86_400 + 2 * 3600 + 3 * 60 + 4)), "1天2小时3分4秒");
    assert.equal(durationText(from, at(-5)), "");
  });

  it("names users taskUser_<id>, nobody as empty", () => {
    assert.equal(taskUser("42"), "taskUser_42");
    assert.equal(taskUser(null), "");
  });
});
