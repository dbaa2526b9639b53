import assert from "node:assert/strict";
import { test } from "node:test";
import { resources } from "@meterline/contracts";
import dayjs from "dayjs";
import { formFields, newFormValues, toFormValues, toSubmitBody } from "../src/crud/fields.ts";
import { toFilters } from "../src/crud/SearchForm.tsx";
import { checkedLeaves, scopeKeys } from "../src/pages/role/grant-keys.ts";

test("a user row becomes form values and back into the engine's wire format", () => {
  const row = { id: "7", account: "a", roleId: "1,2", sex: 1, birthday: "1990-05-06", userType: 1 };
  const values = toFormValues(resources.user, row);
  assert.deepEqual(values.roleId, ["1", "2"]);
  assert.equal(values.sex, "1", "dictionary selects hold string keys");
  assert.ok(dayjs.isDayjs(values.birthday));
  const body = toSubmitBody(resources.user, values);
  assert.equal(body.id, "7");
  assert.equal(body.roleId, "1,2");
  assert.equal(body.birthday, "1990-05-06");
  assert.equal(body.sex, 1);
  assert.equal(body.userType, 1);
});

test("an empty optional number is left out rather than sent as text", () => {
  const body = toSubmitBody(resources.tenant, { tenantName: "t", accountNumber: "" });
  assert.equal("accountNumber" in body, false);
  assert.equal(body.tenantName, "t");
});

test("a new tree row without a parent is a root; adding a child presets the parent", () => {
  assert.equal(toSubmitBody(resources.dept, newFormValues(resources.dept)).parentId, "0");
  assert.equal(newFormValues(resources.dept, "42").parentId, "42");
  assert.equal(newFormValues(resources.post).sort, 1, "definition defaults fill a new row");
});

test("secret fields are only in the add form", () => {
  const names = (creating: boolean) => formFields(resources.user, creating).map(([name]) => name);
  assert.ok(names(true).includes("password"));
  assert.ok(!names(false).includes("password"));
});

test("search values become like/equal filters and createTime range suffixes", () => {
  const from = dayjs("2026-01-01 00:00:00");
  const to = dayjs("2026-02-01 12:30:00");
  assert.deepEqual(toFilters(resources.post, { postName: " ops ", category: "2", createTime: [from, to] }), {
    category: "2",
    postName: "ops",
    createTime_datege: "2026-01-01 00:00:00",
    createTime_datelt: "2026-02-01 12:30:00",
  });
  assert.deepEqual(toFilters(resources.dept, { deptName: "" }), {}, "no audit columns: no time range");
});

const tree = [
  {
    id: "1",
    parentId: "0",
    title: "m",
    key: "1",
    value: "1",
    children: [
      { id: "2", parentId: "1", title: "a", key: "2", value: "2" },
      { id: "3", parentId: "1", title: "b", key: "3", value: "3" },
    ],
  },
];

test("granted ancestors are not shown checked, so a parent does not check all its children", () => {
  assert.deepEqual(checkedLeaves(tree, ["1", "2"]), ["2"]);
});

test("scope grants leave out the menu nodes that group the scopes", () => {
  assert.deepEqual(scopeKeys(tree, ["1", "2", "3"]), ["2", "3"]);
});

test("an image field holds its link, and a cleared image is sent as empty so the server drops it", () => {
  const values = toFormValues(resources.user, { id: "7", avatar: "/api/blade-resource/oss/file/a.png" });
  assert.equal(values.avatar, "/api/blade-resource/oss/file/a.png");
  assert.equal(toSubmitBody(resources.user, { ...values, avatar: "" }).avatar, "");
});
