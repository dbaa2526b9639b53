import assert from "node:assert/strict";
import { test } from "node:test";
import { detailPath, formPath, handlePath } from "../src/pages/work/leave-paths.ts";
import { parseMoneyApprovalPath } from "../src/pages/work/money-approval-paths.ts";

test("the money approval's handle and detail addresses (route key money) read back", () => {
  const handle = handlePath("money", "7", "8", "9");
  assert.equal(handle, "/work/process/money/handle/7/8/9");
  assert.deepEqual(parseMoneyApprovalPath(handle), { page: "handle", params: ["7", "8", "9"] });
  assert.deepEqual(parseMoneyApprovalPath(detailPath("money", "8", "9")), {
    page: "detail",
    params: ["8", "9"],
  });
  // No form: the money module starts the process, never a person.
  assert.equal(parseMoneyApprovalPath(formPath("money", "MoneyApproval:1:1")), null);
  assert.equal(parseMoneyApprovalPath(handlePath("leave", "7", "8", "9")), null);
});
