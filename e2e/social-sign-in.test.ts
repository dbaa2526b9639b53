import assert from "node:assert/strict";
import { after, test } from "node:test";
import type { Page } from "playwright-core";
import { OIDC_CLIENT, startOidcProvider } from "../apps/server/test/oidc-double.ts";
import { toast } from "./crud-helpers.ts";
import { admin, apiHeaders, openSession, signIn, useBrowserSuite } from "./harness.ts";

const suite = useBrowserSuite();
let oidc: Awaited<ReturnType<typeof startOidcProvider>>;

/** The provider runs on the loopback; the platform tenant offers it on its login page. */
async function setUpProvider() {
  const redirect = `${suite.server.baseUrl}/api/blade-auth/oauth/callback/oidc`;
  oidc = await startOidcProvider(redirect);
  const query = new URLSearchParams({
    tenantId: admin.tenantId,
    username: admin.username,
    password: (await import("node:crypto")).createHash("md5").update(admin.password).digest("hex"),
    grant_type: "password",
    scope: "all",
  });
  const login = await fetch(`${suite.server.baseUrl}/api/blade-auth/oauth/token?${query}`, {
    method: "POST",
    headers: { ...apiHeaders(), "Tenant-Id": admin.tenantId },
  });
  const token = ((await login.json()) as { access_token: string }).access_token;
  const created = await fetch(`${suite.server.baseUrl}/api/blade-system/social-provider/submit`, {
    method: "POST",
    headers: { ...apiHeaders(token), "Content-Type": "application/json" },
    body: JSON.stringify({
      source: "oidc",
      displayName: "统一身份认证",
      clientId: OIDC_CLIENT.id,
      clientSecret: OIDC_CLIENT.secret,
      issuer: oidc.issuer,
      scopes: "openid profile email",
      redirectUri: redirect,
      enabled: 1,
      joinByEmail: 0,
    }),
  });
  assert.equal(created.status, 200, await created.text());
}

after(async () => {
  await oidc?.close();
});

/** Clicks the provider's button and, at the provider's own pages, signs in and consents. */
async function signInWithProvider(page: Page, login: string) {
  await page.goto("/login");
  await page.getByTestId("login-social-oidc").click();
  await atProvider(page, login, "/wel/index");
}

/** At the provider (unless it knows the browser already and sends it straight back to `home`). */
async function atProvider(page: Page, login: string, home: string) {
  await page.waitForURL((url) => url.origin === oidc.issuer || url.pathname === home);
  if (new URL(page.url()).origin === oidc.issuer) {
    await page.locator('input[name="login"]').fill(login);
    await page.locator('input[name="password"]').fill("any");
    await page.locator("button.login-submit").click();
    await page.locator('input[value="consent"]').waitFor({ state: "attached" });
    await page.locator("button.login-submit").click();
  }
}

test("a newcomer signs in at the provider, applies, is approved by the administrator, then signs in", async () => {
  const { page } = suite.session;
  await setUpProvider();
  await signInWithProvider(page, "zoe");

  // Back at the console without an account: the registration dialog, tenant and name filled in.
  const dialog = page.getByTestId("register-dialog");
  await dialog.waitFor();
  assert.equal(await page.getByTestId("register-tenant").inputValue(), admin.tenantId);
  assert.equal(await page.getByTestId("register-account").inputValue(), "zoe");
  await page.getByTestId("register-password").fill("zoe-secret-1");
  await page.getByTestId("register-password2").fill("zoe-secret-1");
  await page.locator(".ant-modal", { has: dialog }).locator(".ant-modal-footer .ant-btn-primary").click();
  await toast(page, "注册申请已提交");
  await dialog.waitFor({ state: "detached" });

  // The administrator, in a browser of their own, approves with a role and a department.
  const reviewer = await openSession(suite.browser, suite.server.baseUrl);
  try {
    await signIn(reviewer.page);
    await reviewer.page.goto("/system/registration");
    const row = reviewer.page.locator(".ant-table-row", { hasText: "zoe" });
    await row.waitFor();
    assert.match((await row.textContent()) ?? "", /Person zoe[\s\S]*zoe@example\.test/);
    await row.getByTestId("registration-approve").click();
    const form = reviewer.page.getByTestId("registration-approve-form");
    // Roles and departments are trees: the first node of each.
    for (const name of ["roleId", "deptId"]) {
      await form.locator(`#${name}`).click();
      const popup = reviewer.page.locator(".ant-select-dropdown:visible");
      await popup.locator(".ant-select-tree-node-content-wrapper").first().click();
      await reviewer.page.keyboard.press("Escape");
    }
    await reviewer.page
      .locator(".ant-modal", { has: form })
      .locator(".ant-modal-footer .ant-btn-primary")
      .click();
    await toast(reviewer.page, "已通过");
  } finally {
    await reviewer.context.close();
  }

  // Now known: the same provider button signs straight in.
  await signInWithProvider(page, "zoe");
  await page.getByTestId("home-page").waitFor();

  // The profile's third tab lists the account; linking it again goes to the provider and back.
  await page.goto("/info/index");
  await page.getByRole("tab", { name: "第三方账号" }).click();
  const linked = page.getByTestId("linked-accounts");
  await linked.getByText("zoe@example.test").waitFor();
  await page.getByTestId("linked-link-oidc").click();
  await atProvider(page, "zoe", "/info/index");
  await toast(page, "绑定成功");
  await linked.getByText("zoe@example.test").waitFor();
});
