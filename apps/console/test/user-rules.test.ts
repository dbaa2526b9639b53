import assert from "node:assert/strict";
import { test } from "node:test";
import { importFileProblem } from "../src/components/import/import-file.ts";
import { prettyJson, USER_IMPORT_MAX_BYTES, userExtProblem } from "../src/pages/user/user-rules.ts";

test("only .xlsx files up to the import's limit are imported", () => {
  const max = USER_IMPORT_MAX_BYTES;
  assert.equal(importFileProblem({ name: "users.xlsx", size: 1000 }, max), null);
  assert.equal(importFileProblem({ name: "USERS.XLSX", size: max }, max), null);
  assert.deepEqual(importFileProblem({ name: "users.xlsx", size: max + 1 }, max), {
    key: "import.size",
    vars: { mb: 5 },
  });
  assert.deepEqual(importFileProblem({ name: "users.xls", size: 10 }, max), { key: "import.type" });
  assert.deepEqual(importFileProblem({ name: "users.csv", size: 10 }, max), { key: "import.type" });
  assert.deepEqual(importFileProblem({ name: "xlsx", size: 10 }, max), { key: "import.type" });
});

test("platform settings are empty or a JSON object", () => {
  assert.equal(userExtProblem(undefined), null);
  assert.equal(userExtProblem("  "), null);
  assert.equal(userExtProblem('{"theme": "dark"}'), null);
  assert.equal(userExtProblem("{theme: dark}"), "user.userExtJson");
  assert.equal(userExtProblem('{"a": 1'), "user.userExtJson");
  assert.equal(userExtProblem("[1, 2]"), "user.userExtObject");
  assert.equal(userExtProblem("42"), "user.userExtObject");
  assert.equal(userExtProblem("null"), "user.userExtObject");
});

test("stored settings are indented for editing, other text is kept", () => {
  assert.equal(prettyJson('{"a":1}'), '{\n  "a": 1\n}');
  assert.equal(prettyJson("not json"), "not json");
  assert.equal(prettyJson(""), "");
});
