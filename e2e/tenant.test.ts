import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { test } from "node:test";
import { dialog, field, openResource, rowsWith, toast } from "./crud-helpers.ts";
import { apiHeaders, signIn, textOf, useBrowserSuite } from "./harness.ts";

const suite = useBrowserSuite();

/** The token endpoint's answer for a tenant's administrator (read, not asserted: refusals too). */
async function adminSignIn(tenantId: string, password: string) {
  const query = new URLSearchParams({
    tenantId,
    username: "admin",
    password: createHash("md5").update(password).digest("hex"),
    grant_type: "password",
    scope: "all",
    type: "account",
  });
  const answer = await fetch(`${suite.server.baseUrl}/api/blade-auth/oauth/token?${query}`, {
    method: "POST",
    headers: { ...apiHeaders(), "Tenant-Id": tenantId },
  });
  return (await answer.json()) as { access_token?: string; tenant_id?: string; error_description?: string };
}

test("creating a tenant shows its administrator's one-time password, which signs in", async () => {
  const { page } = suite.session;
  await signIn(page);
  const screen = await openResource(page, "/system/tenant", "tenant");
  await screen.getByTestId("crud-add").click();
  await field(page, "tenantName").fill("东城水务");
  await dialog(page).getByTestId("crud-dialog-ok").click();
  await toast(page, "新增成功");
  await rowsWith(screen, "东城水务").waitFor();

  const created = page.getByTestId("tenant-created");
  await created.waitFor();
  const text = await textOf(created);
  const tenantId = text.match(/租户编号\s*(\d{6})/)?.[1];
  // The hint names the initial password too; the value is the last entry.
  const password = text.match(/初始密码\s*(\w+)$/)?.[1];
  assert.ok(tenantId && password, text);
  assert.match(text, /管理员账号\s*admin/);
  await page.locator(".ant-modal-confirm .ant-btn-primary").click();

  await page.getByTestId("tenant-created").waitFor({ state: "detached" });

  // The list shows each tenant's code first and whole, the new one's beside its name.
  const row = rowsWith(screen, "东城水务").first();
  assert.equal(await row.getByTestId("tenant-id").textContent(), tenantId);
  assert.equal(
    (await screen.locator(".ant-table-thead th").allInnerTexts()).find((h) => h.includes("租户编号")),
    "租户编号",
  );

  // The shown password is the real one: the new tenant's administrator gets a token with it.
  const token = await adminSignIn(tenantId, password);
  assert.ok(token.access_token, JSON.stringify(token));
  assert.equal(token.tenant_id, tenantId);
});

test("授权配置 sets the ticked tenants' account limit and expiry; an expired tenant cannot sign in", async () => {
  const { page } = suite.session;
  await signIn(page);
  const screen = await openResource(page, "/system/tenant", "tenant");
  await screen.getByTestId("crud-add").click();
  await field(page, "tenantName").fill("西城电力");
  await dialog(page).getByTestId("crud-dialog-ok").click();
  const created = page.getByTestId("tenant-created");
  const text = await textOf(created);
  const tenantId = text.match(/租户编号\s*(\d{6})/)?.[1];
  const password = text.match(/初始密码\s*(\w+)$/)?.[1];
  assert.ok(tenantId && password, text);
  await page.locator(".ant-modal-confirm .ant-btn-primary").click();
  await created.waitFor({ state: "detached" });

  // Nothing ticked says so; then the new tenant's row.
  await screen.getByTestId("tenant-setting").click();
  await toast(page, "请选择至少一条数据");
  const row = rowsWith(screen, "西城电力");
  await row.locator(".ant-checkbox-input").check();
  await screen.getByTestId("tenant-setting").click();
  const settingDialog = page.getByTestId("tenant-setting-dialog");
  await settingDialog.waitFor();
  await settingDialog.locator("#accountNumber").fill("3");
  const expiry = settingDialog.locator("#expireTime");
  await expiry.click();
  await expiry.fill("2020-01-01 00:00:00");
  await page.locator(".ant-picker-dropdown:visible .ant-picker-ok button").click();
  await page.getByTestId("tenant-setting-ok").click();
  await toast(page, "已为 1 个租户保存授权配置");
  await settingDialog.waitFor({ state: "detached" });
  await row.getByText("2020-01-01 00:00:00").waitFor();
  assert.match(await textOf(row), /西城电力.*3/s);

  // Past its expiry the tenant's administrator gets no token.
  const body = await adminSignIn(tenantId, password);
  assert.equal(body.access_token, undefined, JSON.stringify(body));
  assert.match(body.error_description ?? "", /过期/);
});
