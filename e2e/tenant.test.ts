import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { test } from "node:test";
import { dialog, field, openResource, rowsWith, toast } from "./crud-helpers.ts";
import { apiHeaders, signIn, textOf, useBrowserSuite } from "./harness.ts";

const suite = useBrowserSuite();

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

  // The shown password is the real one: the new tenant's administrator gets a token with it.
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
  const token = (await answer.json()) as { access_token?: string; tenant_id?: string };
  assert.ok(token.access_token, JSON.stringify(token));
  assert.equal(token.tenant_id, tenantId);
});
