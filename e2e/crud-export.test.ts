import assert from "node:assert/strict";
import { test } from "node:test";
import { openResource, settled } from "./crud-helpers.ts";
import { signIn, useBrowserSuite } from "./harness.ts";
import { exportSheet } from "./workbook-helpers.ts";

const suite = useBrowserSuite();

test("the user table is exported as .xlsx with the labelled header and the rows of the search", async () => {
  const { page } = suite.session;
  await signIn(page);
  const screen = await openResource(page, "/system/user", "user");
  const tableRows = await screen.locator(".ant-table-row").count();

  const all = await exportSheet(page, screen);
  const [header = [], ...rows] = all;
  // The listed fields in definition order (the user's own status among them), framed by id / tenant
  // and the audit columns; no password.
  assert.deepEqual(header, [
    ...["编号", "租户编号", "登录账号", "用户昵称", "用户姓名", "用户平台", "电子邮箱", "手机号码", "性别"],
    ...[
      "所属角色",
      "所属部门",
      "所属岗位",
      "用户状态",
      "创建人",
      "创建部门",
      "创建时间",
      "修改人",
      "修改时间",
    ],
  ]);
  assert.equal(rows.length, tableRows);
  const adminRow = rows.find((row) => row[2] === "admin");
  assert.ok(adminRow, "the administrator is exported");
  // Dictionary columns are exported by name, not by key.
  assert.equal(adminRow[header.indexOf("用户平台")], "WEB");

  // The export follows the current search.
  await screen.getByTestId("search-account").fill("no-such-account");
  await screen.getByTestId("crud-search-submit").click();
  await settled(screen);
  const none = await exportSheet(page, screen);
  assert.deepEqual(none, [header]);
});
