import assert from "node:assert/strict";
import { test } from "node:test";
import type { Page } from "playwright-core";
import { expectAccessible } from "./axe.ts";
import {
  clickRowAction,
  dialog,
  field,
  openResource,
  pickTreeNode,
  rowsWith,
  settled,
  toast,
} from "./crud-helpers.ts";
import { signIn, useBrowserSuite } from "./harness.ts";

const suite = useBrowserSuite();

/**
 * The checkbox of the post screen (offset 0) or of one of its buttons in the open grant dialog's
 * menu tree: buttons follow their screen in sort order (1 add, 2 edit, …), whatever their ids.
 */
async function postCheckbox(page: Page, offset: 0 | 1 | 2) {
  const nodes = page.getByTestId("grant-tree-menu").locator(".ant-tree-treenode:not([aria-hidden])");
  await nodes.first().waitFor();
  const titles = (await nodes.allInnerTexts()).map((text) => text.trim());
  const screen = titles.indexOf("岗位管理");
  assert.ok(screen >= 0, "the post screen can be granted");
  return nodes.nth(screen + offset).locator(".ant-tree-checkbox");
}
const classOf = async (page: Page, offset: 0 | 1 | 2) =>
  (await (await postCheckbox(page, offset)).getAttribute("class")) ?? "";

test("a granted role shows its user only the granted menus and buttons", async () => {
  const { page } = suite.session;
  await signIn(page);
  const roles = await openResource(page, "/authority/role", "role");
  await roles.getByTestId("crud-add").click();
  await field(page, "roleName").fill("值班员");
  await field(page, "roleAlias").fill("duty");
  await dialog(page).getByTestId("crud-dialog-ok").click();
  await toast(page, "新增成功");

  await clickRowAction(rowsWith(roles, "值班员"), "row-grant");
  await (await postCheckbox(page, 0)).click();
  await (await postCheckbox(page, 1)).click();
  // The post screen is now half checked: some of its buttons, not all.
  assert.match(await classOf(page, 0), /indeterminate/);
  await page.getByTestId("grant-ok").click();
  await toast(page, "权限设置成功");

  // Reopening shows what was saved.
  await clickRowAction(rowsWith(roles, "值班员"), "row-grant");
  assert.match(await classOf(page, 0), /indeterminate/);
  assert.doesNotMatch(await classOf(page, 1), /checkbox-checked/);
  assert.match(await classOf(page, 2), /checkbox-checked/);
  // No scope rule exists yet: the scope tabs say so and lead to the screen where rules are added.
  await page.getByRole("tab", { name: "接口权限" }).click();
  await page.getByTestId("grant-empty-apiScope").getByText("还没有接口权限规则").waitFor();
  await page.getByRole("tab", { name: "数据权限" }).click();
  const empty = page.getByTestId("grant-empty-dataScope");
  await empty.getByText("还没有数据权限规则").waitFor();
  await expectAccessible(page, "grant dialog without scope rules");
  await empty.getByTestId("grant-empty-go-dataScope").click();
  await page.getByTestId("grant-dialog").waitFor({ state: "detached" });
  await page.waitForURL(/\/authority\/datascope$/);

  const users = await openResource(page, "/system/user", "user");
  await users.getByTestId("crud-add").click();
  await field(page, "account").fill("duty1");
  await field(page, "password").fill("Duty#2026");
  await field(page, "name").fill("值班一");
  await field(page, "realName").fill("张值班");
  await pickTreeNode(page, "roleId", "值班员");
  await pickTreeNode(page, "deptId", "Meterline");
  await dialog(page).getByTestId("crud-dialog-ok").click();
  await toast(page, "新增成功");
  await rowsWith(users, "duty1").waitFor();

  await page.getByTestId("user-dropdown").click();
  await page.getByTestId("logout").click();
  await page.locator(".ml-logout-confirm").click();
  await page.getByTestId("login-form").waitFor();

  await signIn(page, { username: "duty1", password: "Duty#2026" });
  await page.locator(".ant-menu-submenu-title", { hasText: "系统管理" }).click();
  await page.locator('[data-testid="menu-item"][data-code="post"]').waitFor();
  const codes = await page
    .locator('[data-testid="menu-group"], [data-testid="menu-item"]')
    .evaluateAll((nodes) => nodes.map((node) => node.getAttribute("data-code")));
  assert.deepEqual(codes, ["system", "post"]);

  const posts = await openResource(page, "/system/post", "post");
  await settled(posts);
  assert.equal(await posts.getByTestId("crud-add").count(), 0, "post_add was not granted");
  assert.equal(await posts.getByTestId("crud-remove").count(), 1);
  assert.equal(await posts.getByTestId("crud-export").count(), 1);
});

test("菜单配置 sets the screens of a top menu: the sidebar under it shows them, and the dialog again", async () => {
  const { page } = suite.session;
  await signIn(page);
  const topMenus = await openResource(page, "/system/topmenu", "topMenu");
  const screenNode = (title: string) =>
    page
      .getByTestId("topmenu-grant-tree")
      .locator(".ant-tree-treenode:not([aria-hidden])")
      .filter({ has: page.locator(".ant-tree-title", { hasText: new RegExp(`^${title}$`) }) });
  await clickRowAction(rowsWith(topMenus, "系统监控"), "row-topmenu-grant");
  // The group it holds is checked; 运行控制 is not, until its 告警记录 is.
  await screenNode("运行控制").waitFor();
  assert.match(
    (await screenNode("系统监控").locator(".ant-tree-checkbox").getAttribute("class")) ?? "",
    /checked/,
  );
  assert.doesNotMatch(
    (await screenNode("运行控制").locator(".ant-tree-checkbox").getAttribute("class")) ?? "",
    /checked|indeterminate/,
  );
  await expectAccessible(page, "菜单配置 dialog");
  await screenNode("告警记录").locator(".ant-tree-checkbox").click();
  await page.getByTestId("topmenu-grant-ok").click();
  await toast(page, "菜单配置成功");

  // Under 系统监控 the sidebar now holds 运行控制 (the group of 告警记录) beside 系统监控.
  await page.getByTestId("top-menu-item").filter({ hasText: "系统监控" }).click();
  const groups = () => page.getByTestId("sidebar").getByTestId("menu-group").allInnerTexts();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="menu-group"]').length === 2);
  assert.deepEqual((await groups()).sort(), ["系统监控", "运行控制"].sort());

  await page.getByTestId("top-menu-item").filter({ hasText: "首页" }).click();
  await clickRowAction(rowsWith(topMenus, "系统监控"), "row-topmenu-grant");
  await screenNode("运行控制").waitFor();
  assert.match(
    (await screenNode("告警记录").locator(".ant-tree-checkbox").getAttribute("class")) ?? "",
    /checked/,
  );
  assert.match(
    (await screenNode("运行控制").locator(".ant-tree-checkbox").getAttribute("class")) ?? "",
    /indeterminate/,
  );
});
