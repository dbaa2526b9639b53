import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { test } from "node:test";
import type { Locator, Page } from "playwright-core";
import { expectAccessible } from "./axe.ts";
import { clickRowAction, dialog, openResource, rowsWith, settled, toast } from "./crud-helpers.ts";
import { apiHeaders, textOf, useBrowserSuite } from "./harness.ts";
import { downloadOf, sheetRows, workbookOf } from "./workbook-helpers.ts";

const suite = useBrowserSuite({ signedIn: true });
const md5 = (text: string) => createHash("md5").update(text).digest("hex");

/** A 1×1 PNG: small, and real enough for the server's content check. */
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  "base64",
);

const importDialog = (page: Page) => page.getByTestId("user-import-dialog");
const importCount = async (page: Page, key: "created" | "updated" | "rejected") =>
  textOf(page.getByTestId(`user-import-${key}`));

/** The row of the user whose account is exactly `account`. */
const userRow = (screen: Locator, account: string) =>
  screen.locator(".ant-table-row", {
    has: screen.page().locator("td", { hasText: new RegExp(`^${account}$`) }),
  });

/** Picks a file in the import dialog's drop zone. */
const chooseImportFile = (page: Page, name: string, buffer: Buffer) =>
  importDialog(page).locator('input[type="file"]').setInputFiles({
    name,
    mimeType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    buffer,
  });

test("users are imported from the template through the dialog, refused rows come back with a reason", async () => {
  const { page } = suite.session;
  const screen = await openResource(page, "/system/user", "user");
  await screen.getByTestId("user-import").click();
  await importDialog(page).waitFor();

  // The template comes through the console's authenticated download; its header drives the sheet.
  const template = await downloadOf(page, () => page.getByTestId("user-import-template").click());
  assert.match(template.suggestedFilename(), /\.xlsx$/);
  const [header = []] = await sheetRows(template);
  assert.deepEqual(header, [
    "登录账号",
    "用户昵称",
    "用户姓名",
    "手机号码",
    "电子邮箱",
    "角色别名",
    "部门名称",
    "性别",
  ]);
  const rowOf = (cells: Record<string, string>) => header.map((name) => cells[name] ?? "");
  const good = {
    登录账号: "e2e_imp_ok",
    用户昵称: "导入",
    用户姓名: "导入用户",
    手机号码: "13800000001",
    角色别名: "user",
    部门名称: "Meterline",
    性别: "男",
  };
  const bad = { ...good, 登录账号: "e2e_imp_bad", 手机号码: "13800000002", 角色别名: "no_such_role" };

  // Wrong kinds and oversized files never leave the console.
  const submit = page.getByTestId("user-import-submit");
  await chooseImportFile(page, "users.csv", Buffer.from("登录账号\nx"));
  await toast(page, "只能导入 .xlsx 格式的 Excel 文件");
  await chooseImportFile(page, "big.xlsx", Buffer.alloc(5 * 1024 * 1024 + 1));
  await toast(page, "导入文件大小不能超过 5MB");
  assert.equal(await submit.isDisabled(), true, "nothing to upload yet");

  await chooseImportFile(page, "users.xlsx", await workbookOf([header, rowOf(good), rowOf(bad)]));
  await importDialog(page).getByText("users.xlsx").waitFor();
  await submit.click();
  await page.getByTestId("user-import-result").waitFor();
  assert.equal(await importCount(page, "created"), "1");
  assert.equal(await importCount(page, "updated"), "0");
  assert.equal(await importCount(page, "rejected"), "1");

  // The refused rows download as a workbook: the bad row, as it was sent, with its reason.
  const refused = await downloadOf(page, () => page.getByTestId("user-import-rejected-file").click());
  const [refusedHeader = [], ...refusedRows] = await sheetRows(refused);
  assert.deepEqual(refusedHeader, [...header, "失败原因"]);
  assert.equal(refusedRows.length, 1);
  const [refusedRow = []] = refusedRows;
  assert.equal(refusedRow[0], "e2e_imp_bad");
  assert.match(refusedRow[header.length] ?? "", /no_such_role/);

  // The table reloaded by itself: the good user is listed, the refused one is not.
  await page.getByTestId("user-import-close").click();
  await userRow(screen, "e2e_imp_ok").waitFor();
  assert.equal(await userRow(screen, "e2e_imp_bad").count(), 0);

  // With the switch on, a row whose account exists updates that user instead of being refused.
  await screen.getByTestId("user-import").click();
  await page.getByTestId("user-import-covered").click();
  await chooseImportFile(
    page,
    "again.xlsx",
    await workbookOf([header, rowOf({ ...good, 用户姓名: "导入用户改" })]),
  );
  await submit.click();
  await page.getByTestId("user-import-result").waitFor();
  assert.equal(await importCount(page, "created"), "0");
  assert.equal(await importCount(page, "updated"), "1");
  assert.equal(await importCount(page, "rejected"), "0");
  assert.equal(await page.getByTestId("user-import-rejected-file").count(), 0);
  await page.getByTestId("user-import-close").click();
  await rowsWith(screen, "导入用户改").waitFor();
});

test("a user is disabled in 用户管理, shows as 禁用, is found by the status filter, and is enabled again", async () => {
  const { page } = suite.session;
  const screen = await openResource(page, "/system/user", "user");
  // The user the import above created: an ordinary account, never the one signed in.
  const row = () => userRow(screen, "e2e_imp_ok");
  await row()
    .locator("td", { hasText: /^启用$/ })
    .waitFor();

  await clickRowAction(row(), "row-disable");
  const confirm = page.locator(".ant-modal-confirm");
  await confirm.locator(".ant-modal-confirm-title", { hasText: "禁用后该用户立即退出登录" }).waitFor();
  // antd spaces a two-character label ("禁 用"): the confirm's own button, by its place.
  await confirm.locator(".ant-modal-confirm-btns .ant-btn-primary").click();
  await toast(page, "已禁用");
  await settled(screen);
  await row()
    .locator("td", { hasText: /^禁用$/ })
    .waitFor();
  // Both row buttons (禁用 on the others, 启用 on this one) and the status column are on screen.
  await expectAccessible(page, "用户管理 with a disabled user");

  // The search form filters by status: the disabled user is among the disabled ones only.
  await screen.locator("#search_status").click();
  await page.locator(".ant-select-dropdown:visible .ant-select-item-option", { hasText: "禁用" }).click();
  await screen.getByTestId("crud-search-submit").click();
  await settled(screen);
  await row().waitFor();
  assert.equal(await rowsWith(screen, "启用").count(), 0, "no enabled user among the disabled");

  await clickRowAction(row(), "row-enable");
  await toast(page, "已启用");
  await settled(screen);
  assert.equal(await row().count(), 0, "no longer disabled, so no longer in this filter");
});

test("the platform dialog loads a user's platform, checks the JSON and saves it", async () => {
  const { page } = suite.session;
  const screen = await openResource(page, "/system/user", "user");
  const form = page.getByTestId("user-platform-dialog");
  const modal = page.locator(".ant-modal", { has: form });
  const platformShown = () => textOf(form.locator(".ant-form-item", { has: page.locator("#userType") }));
  const open = async () => {
    await clickRowAction(userRow(screen, "admin"), "row-platform");
    await modal.locator(".ant-modal-title", { hasText: "admin" }).waitFor();
    await modal.locator(".ant-spin-spinning").waitFor({ state: "detached" });
  };
  const pickPlatform = async (label: string) => {
    await form.locator("#userType").click();
    await page.locator(".ant-select-dropdown:visible .ant-select-item-option", { hasText: label }).click();
  };
  const save = () => page.getByTestId("user-platform-ok").click();

  await open();
  assert.match(await platformShown(), /WEB/);
  await form.locator("#userExt").fill("{theme: dark");
  await save();
  await form.locator(".ant-form-item-explain-error", { hasText: "请输入合法的 JSON" }).waitFor();
  await form.locator("#userExt").fill('{"theme": "dark"}');
  await pickPlatform("APP");
  await save();
  await toast(page, "修改成功");
  await modal.waitFor({ state: "detached" });
  await settled(screen);
  await userRow(screen, "admin").locator("td", { hasText: "APP" }).waitFor();

  // Saved on the server: opening again shows the platform and its settings.
  await open();
  assert.match(await platformShown(), /APP/);
  assert.deepEqual(JSON.parse(await form.locator("#userExt").inputValue()), { theme: "dark" });

  // Put the administrator back, so a shared server (E2E_BASE_URL) keeps its seed for other files.
  await pickPlatform("WEB");
  await form.locator("#userExt").fill("");
  await save();
  await toast(page, "修改成功");
});

test("an image field uploads a checked picture, shows it, and can be cleared", async () => {
  const { page } = suite.session;
  const screen = await openResource(page, "/system/user", "user");
  const image = dialog(page).getByTestId("image-input");
  const preview = image.locator("img");
  const openAdmin = async (action: "row-edit" | "row-view") => {
    await userRow(screen, "admin").getByTestId(action).click();
    await dialog(page)
      .locator(action === "row-edit" ? "#account" : '[data-field="account"]')
      .waitFor();
  };
  // The view dialog reads the avatar as a thumbnail, with nothing to change it by.
  const viewed = dialog(page).locator('[data-field="avatar"]');
  const saveAndClose = async () => {
    await dialog(page).getByTestId("crud-dialog-ok").click();
    await dialog(page).waitFor({ state: "detached" });
  };

  await openAdmin("row-edit");
  assert.equal(await preview.count(), 0, "the administrator has no avatar yet");
  const file = image.locator('input[type="file"]');
  await file.setInputFiles({ name: "me.gif", mimeType: "image/gif", buffer: Buffer.from("GIF89a") });
  await toast(page, "上传头像图片只能是 JPG/PNG 格式!");
  await file.setInputFiles({ name: "big.png", mimeType: "image/png", buffer: Buffer.alloc(501 * 1024) });
  await toast(page, "上传头像图片大小不能超过 500KB!");
  await file.setInputFiles({ name: "me.png", mimeType: "image/png", buffer: PNG });
  await preview.waitFor();
  const link = (await preview.getAttribute("src")) ?? "";
  assert.match(link, /^\/api\/blade-resource\/oss\/file\//);
  await saveAndClose();
  await toast(page, "修改成功");

  // The stored link is the user's avatar now; view mode shows it and offers no change.
  await openAdmin("row-view");
  assert.equal(await viewed.locator("img").getAttribute("src"), link);
  assert.equal(await image.count(), 0, "no upload control in the view dialog");
  const served = await page.request.get(link);
  assert.deepEqual(Buffer.from(await served.body()), PNG);
  await saveAndClose();

  await openAdmin("row-edit");
  await image.getByTestId("image-clear").click();
  assert.equal(await preview.count(), 0);
  await saveAndClose();
  await toast(page, "修改成功");
  await openAdmin("row-view");
  assert.equal(await viewed.locator("img").count(), 0, "the cleared avatar was saved");
  assert.equal(await textOf(viewed), "—");
});

/** The token endpoint's answer for `account` of the platform tenant (no assertion: refusals are read). */
async function signInAnswer(password: string, account = "e2e_imp_ok") {
  const query = new URLSearchParams({
    tenantId: "000000",
    username: account,
    password: md5(password),
    grant_type: "password",
    scope: "all",
  });
  const answer = await fetch(`${suite.server.baseUrl}/api/blade-auth/oauth/token?${query}`, {
    method: "POST",
    headers: { ...apiHeaders(), "Tenant-Id": "000000" },
  });
  return (await answer.json()) as { access_token?: string; error_description?: string };
}

/** Ticks the row's checkbox (kept if it already is) and clicks a toolbar button. */
async function onTickedRow(page: Page, row: Locator, button: string) {
  await row.locator(".ant-checkbox-input").check();
  await page.getByTestId(button).click();
}

test("ticked users are unlocked, given roles and given the initial password again from the toolbar", async () => {
  const { page } = suite.session;
  const screen = await openResource(page, "/system/user", "user");
  const row = () => userRow(screen, "e2e_imp_ok");
  await row().waitFor();

  // Nothing ticked: each bulk button says what is missing and opens nothing.
  await page.getByTestId("user-unlock").click();
  await toast(page, "请选择至少一条数据");

  // Five wrong passwords lock the account: even the right one is refused until an unlock.
  for (let i = 0; i < 5; i++) await signInAnswer("wrong-password");
  assert.match((await signInAnswer("123456")).error_description ?? "", /登录错误次数过多/);
  await onTickedRow(page, row(), "user-unlock");
  await page.locator(".ant-modal-confirm", { hasText: "确定解封所选 1 个用户" }).waitFor();
  await page.getByTestId("user-bulk-ok").click();
  await toast(page, "已解封 1 个用户");
  const first = await signInAnswer("123456");
  assert.ok(first.access_token, `unlocked, the initial password signs in: ${JSON.stringify(first)}`);

  // Roles: chosen in the dialog (required), shown in the table, and the user's session ends.
  await onTickedRow(page, row(), "user-role");
  const roleDialog = page.getByTestId("user-role-dialog");
  await roleDialog.waitFor();
  await page.getByTestId("user-role-ok").click();
  await roleDialog.getByText("请选择所属角色").waitFor();
  await expectAccessible(page, "角色配置 dialog");
  await roleDialog.locator("#user-role-roles").click();
  await page
    .locator(".ant-select-dropdown:visible .ant-select-tree-node-content-wrapper", { hasText: "超级管理员" })
    .click();
  // A multiple choice keeps its list open: the title closes it, as an operator's click elsewhere would.
  await page.locator(".ant-modal", { has: roleDialog }).locator(".ant-modal-title").click();
  await page.locator(".ant-select-dropdown:visible").waitFor({ state: "detached" });
  await page.getByTestId("user-role-ok").click();
  await toast(page, "已为 1 个用户设置角色");
  await roleDialog.waitFor({ state: "detached" });
  await settled(screen);
  await row()
    .locator("td", { hasText: /^超级管理员$/ })
    .waitFor();
  const ended = await fetch(`${suite.server.baseUrl}/api/blade-user/info`, {
    headers: apiHeaders(first.access_token),
  });
  assert.equal(ended.status, 401, "a grant ends the user's sessions: roles ride in the token");

  // A changed password goes back to the tenant's initial one.
  const second = (await signInAnswer("123456")).access_token;
  assert.ok(second);
  const changed = await fetch(
    `${suite.server.baseUrl}/api/blade-user/update-password?${new URLSearchParams({
      oldPassword: md5("123456"),
      newPassword: md5("Changed#2026"),
      newPassword1: md5("Changed#2026"),
    })}`,
    { method: "POST", headers: apiHeaders(second) },
  );
  assert.equal(changed.status, 200);
  assert.equal((await signInAnswer("123456")).access_token, undefined, "the old password no longer signs in");
  await onTickedRow(page, row(), "user-reset");
  await page.locator(".ant-modal-confirm", { hasText: "account.initPassword" }).waitFor();
  await page.getByTestId("user-bulk-ok").click();
  await toast(page, "已重置 1 个用户的密码");
  assert.ok((await signInAnswer("123456")).access_token, "the initial password signs in again");
  assert.equal((await signInAnswer("Changed#2026")).access_token, undefined);
});
