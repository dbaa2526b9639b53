import assert from "node:assert/strict";
import { test } from "node:test";
import { leaveDays } from "../src/pages/work/leave-days.ts";
import { detailPath, formPath, handlePath, parseLeavePath } from "../src/pages/work/leave-paths.ts";

test("the leave pages' addresses carry their ids and read back the same (spec §2)", () => {
  const form = formPath("leave", "Leave:1:42");
  assert.equal(form, "/work/process/leave/form/Leave:1:42");
  assert.deepEqual(parseLeavePath(form), { page: "form", params: ["Leave:1:42"] });
  assert.deepEqual(parseLeavePath(handlePath("leave", "7", "8", "9")), {
    page: "handle",
    params: ["7", "8", "9"],
  });
  assert.deepEqual(parseLeavePath(detailPath("leave", "8", "9")), { page: "detail", params: ["8", "9"] });
  // A slash inside an id stays inside its segment.
  assert.deepEqual(parseLeavePath(detailPath("leave", "a/b", "9"))?.params, ["a/b", "9"]);
  assert.equal(parseLeavePath("/work/process/leave/detail/8"), null);
  assert.equal(parseLeavePath("/work/process/expense/form/x"), null);
  assert.equal(parseLeavePath("/work/todo"), null);
});

test("leave days count started days as the server does, and nothing until the end is after the start", () => {
  const at = (text: string) => new Date(`${text}+08:00`);
  assert.equal(leaveDays(at("2026-12-01T09:00:00"), at("2026-12-03T09:00:00")), 2);
  assert.equal(leaveDays(at("2026-12-01T09:00:00"), at("2026-12-03T09:00:01")), 3);
  assert.equal(leaveDays(at("2026-12-01T09:00:00"), at("2026-12-01T12:00:00")), 1);
  assert.equal(leaveDays(at("2026-12-01T09:00:00"), at("2026-12-01T09:00:00")), null);
  assert.equal(leaveDays(at("2026-12-01T09:00:00"), undefined), null);
});
