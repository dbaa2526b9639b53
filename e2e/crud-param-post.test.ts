import assert from "node:assert/strict";
import { test } from "node:test";
import { expectAccessible } from "./axe.ts";
import {
  clickRowAction,
  dialog,
  field,
  fieldErrors,
  openResource,
  pick,
  rowsWith,
  settled,
  toast,
} from "./crud-helpers.ts";
import { signIn, textOf, useBrowserSuite } from "./harness.ts";

const suite = useBrowserSuite();

test("the param screen: columns, required messages, search, view and an edit seen in the table", async () => {
  const { page } = suite.session;
  await signIn(page);
  const screen = await openResource(page, "/system/param", "param");
  const headers = await screen.locator(".ant-table-thead th").allInnerTexts();
  assert.deepEqual(headers.map((text) => text.trim()).filter(Boolean), [
    "#",
    "参数名称",
    "参数键名",
    "参数键值",
    "平台统一",
    "操作",
  ]);

  await screen.getByTestId("crud-add").click();
  await dialog(page).getByTestId("crud-dialog-ok").click();
  await dialog(page).locator(".ant-form-item-explain-error").nth(2).waitFor();
  assert.deepEqual(await fieldErrors(page), ["请输入参数名称", "请输入参数键名", "请输入参数键值"]);
  // The form says what is wrong under its fields; a failed validation is no error for the log.
  await page.evaluate(() => new Promise((settle) => setTimeout(settle, 150)));
  const logBadge = page
    .locator(".ant-badge", { has: page.getByTestId("log-button") })
    .locator(".ant-badge-count");
  assert.equal(await logBadge.count(), 0);
  // Every field of the param form spans the whole row.
  assert.equal(await dialog(page).locator(".ant-col-24").count(), 5);
  await page.keyboard.press("Escape");
  await dialog(page).waitFor({ state: "detached" });

  await screen.getByTestId("search-paramKey").fill("log.retention");
  await screen.getByTestId("crud-search-submit").click();
  await settled(screen);
  assert.equal(await screen.locator(".ant-table-row").count(), 1);
  const row = rowsWith(screen, "log.retentionDays");

  // 查看 reads the row as a description list (labels beside values), not as a disabled form.
  await row.getByTestId("row-view").click();
  const view = dialog(page);
  await view.locator('[data-field="paramValue"]').waitFor();
  assert.equal(await textOf(view.locator('[data-field="paramValue"]')), "30");
  assert.equal(await textOf(view.locator('[data-field="paramKey"]')), "log.retentionDays");
  assert.equal(await view.locator("input, textarea, .ant-select").count(), 0, "no form controls");
  assert.match(await textOf(view.locator(".ant-descriptions-view")), /参数键值\s*30/);
  await expectAccessible(page, "param view dialog");
  await view.getByTestId("crud-dialog-ok").click();
  await dialog(page).waitFor({ state: "detached" });

  await row.getByTestId("row-edit").click();
  assert.equal(await field(page, "paramKey").inputValue(), "log.retentionDays");
  await field(page, "paramValue").fill("90");
  await dialog(page).getByTestId("crud-dialog-ok").click();
  await toast(page, "修改成功");
  assert.match(await textOf(row), /日志保留天数\s*log\.retentionDays\s*90/);
  assert.equal(await dialog(page).count(), 0);
});

test("a post is created, searched, edited and deleted from the menu's screen", async () => {
  const { page } = suite.session;
  await signIn(page);
  await page.locator(".ant-menu-submenu-title", { hasText: "系统管理" }).click();
  await page.locator('[data-testid="menu-item"][data-code="post"]').click();
  const screen = page.locator('[data-testid="resource-page"][data-resource="post"]');
  await screen.waitFor();
  await settled(screen);

  await screen.getByTestId("crud-add").click();
  await pick(page, "category", "中层");
  await field(page, "postCode").fill("e2e-ops");
  await field(page, "postName").fill("运维值班");
  await dialog(page).getByTestId("crud-dialog-ok").click();
  await toast(page, "新增成功");
  await rowsWith(screen, "e2e-ops").waitFor();

  await screen.getByTestId("search-postName").fill("运维");
  await screen.getByTestId("crud-search-submit").click();
  await settled(screen);
  assert.equal(await screen.locator(".ant-table-row").count(), 1);
  assert.match(await textOf(rowsWith(screen, "e2e-ops")), /中层\s*e2e-ops\s*运维值班\s*1/);

  await rowsWith(screen, "e2e-ops").getByTestId("row-edit").click();
  await field(page, "postName").fill("运维夜班");
  await dialog(page).getByTestId("crud-dialog-ok").click();
  await toast(page, "修改成功");
  await rowsWith(screen, "运维夜班").waitFor();

  // Bulk delete without a selection only warns.
  await screen.getByTestId("crud-remove").click();
  await toast(page, "请选择至少一条数据");

  await clickRowAction(rowsWith(screen, "e2e-ops"), "row-remove");
  const confirm = page.locator(".ant-modal-confirm", { hasText: "确定将选择数据删除?" });
  await confirm.getByTestId("crud-remove-ok").click();
  await toast(page, "删除成功");
  await settled(screen);
  assert.equal(await rowsWith(screen, "e2e-ops").count(), 0);
});
