import assert from "node:assert/strict";
import { test } from "node:test";
import type { Page } from "playwright-core";
import { apiHeaders, storedToken, textOf, useBrowserSuite } from "./harness.ts";

const suite = useBrowserSuite({ signedIn: true });

const pathname = (page: Page) => new URL(page.url()).pathname;
const logBadge = (page: Page) =>
  page.locator(".ant-badge", { has: page.getByTestId("log-button") }).locator(".ant-badge-count");

test("a token revoked elsewhere sends the next request's user back to /login", async () => {
  const { page } = suite.session;
  // The home page's own calls (the metering overview) finish first, so the click makes the next one.
  await page.waitForLoadState("networkidle");
  const token = await storedToken(page);
  assert.ok(token);
  const revoke = await fetch(`${suite.server.baseUrl}/api/blade-auth/oauth/logout`, {
    headers: apiHeaders(token),
  });
  assert.deepEqual(await revoke.json(), { success: "true", msg: "success" });

  // The click makes the next request, unless a poll of the top bar (notices, approvals) meets the
  // revoked token first (in CI it once did, tearing the layout down mid-click): either way the user
  // must land on /login, which the waits below decide.
  const loginForm = page.getByTestId("login-form");
  const click = page
    .getByTestId("top-menu-item")
    .filter({ hasText: "系统监控" })
    .click({ timeout: 10_000 })
    .catch(() => undefined);
  await loginForm.waitFor();
  await click;
  assert.equal(pathname(page), "/login");
  assert.equal(await storedToken(page), null);
});

test("an old token is refreshed in the background and the new one is stored", async () => {
  const { page } = suite.session;
  const before = await storedToken(page);
  // Age the stored token past website.tokenTime (3000 s); the token check must then refresh it.
  await page.evaluate(() => {
    const record = JSON.parse(localStorage.getItem("saber-token") ?? "{}");
    localStorage.setItem("saber-token", JSON.stringify({ ...record, datetime: Date.now() - 3_001_000 }));
  });
  await page.reload();
  await page.getByTestId("home-page").waitFor();
  await page.waitForFunction(
    (old) => {
      const record = JSON.parse(localStorage.getItem("saber-token") ?? "{}");
      return record.content && record.content !== old && Date.now() - record.datetime < 60_000;
    },
    before,
    { timeout: 15_000 },
  );
  const after = await storedToken(page);
  assert.ok(after && after !== before);
  const check = await fetch(`${suite.server.baseUrl}/api/blade-auth/oauth/user-info`, {
    headers: apiHeaders(after),
  });
  assert.equal(((await check.json()) as { code: number }).code, 200);
});

test("uncaught errors land in the local log; clear and upload are confirmed", async () => {
  const { page } = suite.session;
  await page.evaluate(() => {
    setTimeout(() => {
      throw new Error("e2e boom");
    });
  });
  await logBadge(page).waitFor();
  assert.equal(await textOf(logBadge(page)), "1");

  await page.getByTestId("log-button").click();
  const dialog = page.getByTestId("log-dialog");
  await dialog.getByText("e2e boom").waitFor();
  await dialog.locator(".ant-table-row-expand-icon").first().click();
  await dialog.locator(".ml-log-detail pre", { hasText: "Error: e2e boom" }).waitFor();

  await page.getByTestId("log-clear").click();
  await page.locator(".ant-modal-confirm .ant-btn-primary").click();
  await page.locator(".ant-message-notice", { hasText: "清空成功" }).waitFor();
  await dialog.getByText("e2e boom").waitFor({ state: "detached" });
  await logBadge(page).waitFor({ state: "hidden" });

  await page.evaluate(() => {
    // Not returned: the rejection must stay unhandled in the page.
    void Promise.reject(new Error("e2e rejected"));
  });
  await dialog.getByText("e2e rejected").waitFor();
  await page.getByTestId("log-upload").click();
  await page.locator(".ant-modal-confirm .ant-btn-primary").click();
  await page.locator(".ant-message-notice", { hasText: "发送成功" }).waitFor();
  await dialog.getByText("e2e rejected").waitFor({ state: "detached" });
});

test("the dashboard shows the server's health and the session's token countdown", async () => {
  const { page } = suite.session;
  await page.getByTestId("user-dropdown").click();
  await page.getByTestId("user-menu-dashboard").click();
  const dashboard = page.getByTestId("dashboard-page");
  await dashboard.getByText("内置 PGlite").waitFor();
  const health = (await (await fetch(`${suite.server.baseUrl}/api/health`)).json()) as {
    data: { version: string };
  };
  await dashboard.getByText(health.data.version, { exact: true }).waitFor();
  // The server's start reads as a local date and time, never the raw UTC ISO text.
  const shown = await textOf(dashboard);
  assert.match(shown, /启动时间: \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/);
  assert.doesNotMatch(shown, /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/);
  const first = await textOf(page.getByTestId("token-countdown"));
  assert.match(first, /^\d+ 天 \d+ 小时 \d+ 分 \d+ 秒$/);
  await page.waitForFunction(
    (text) => document.querySelector('[data-testid="token-countdown"]')?.textContent !== text,
    first,
  );
  assert.equal(await page.title(), "控制台");
});
