import assert from "node:assert/strict";
import { test } from "node:test";
import type { Page } from "playwright-core";
import { signIn, textOf, useBrowserSuite } from "./harness.ts";

const suite = useBrowserSuite();

const pathname = (page: Page) => new URL(page.url()).pathname;
const toast = (page: Page, text: string) => page.locator(".ant-message-notice", { hasText: text }).waitFor();

test("a page whose chunk fails to load shows a retry, logs a 'chunk' entry, and loads on retry", async () => {
  const { page } = suite.session;
  await signIn(page);
  const chunk = /\/assets\/TestPage-[^/]+\.js$/;
  await page.route(chunk, (route) => route.abort());
  await page.goto("/test/index");
  await page.getByTestId("page-chunk-error").waitFor();

  await page.getByTestId("log-button").click();
  const row = page.getByTestId("log-dialog").locator(".ant-table-row").first();
  await row.waitFor();
  assert.equal(await textOf(row.locator("td").nth(1)), "chunk");
  assert.match(await textOf(row.locator("td").nth(2)), /TestPage-[^/]+\.js$/);
  await page.keyboard.press("Escape");

  await page.unroute(chunk);
  await page.getByTestId("page-retry").click();
  await page.getByTestId("test-page").waitFor();
  assert.equal(await page.title(), "测试页");
});

test("a menu entry without a page yet shows the 'not available' state, never a blank page", async () => {
  const { page } = suite.session;
  // The seed has no such menu yet: add one to the server's real answer.
  await page.route("**/api/blade-system/menu/routes*", async (route) => {
    const response = await route.fetch();
    const body = await response.json();
    body.data.push({
      id: "990",
      parentId: "0",
      code: "meter_archive",
      name: "电表档案",
      alias: "menu",
      path: "/pms/meter",
      source: "no-such-icon",
      sort: 99,
      category: 1,
      action: 0,
      isOpen: 1,
      remark: "",
    });
    await route.fulfill({ response, json: body });
  });
  await signIn(page);
  await page.locator('[data-testid="menu-item"][data-code="meter_archive"]').click();
  await page.getByTestId("page-unavailable").waitFor();
  assert.equal(pathname(page), "/pms/meter/index");
  assert.match(await textOf(page.getByTestId("page-unavailable")), /页面暂未开放[\s\S]*电表档案/);
  assert.deepEqual(await page.getByTestId("tab").allInnerTexts(), ["首页", "电表档案"]);
  // The unknown icon name falls back to the default icon.
  const icon = page
    .locator(".ant-menu-item", { has: page.locator('[data-code="meter_archive"]') })
    .locator(".anticon");
  assert.match((await icon.getAttribute("class")) ?? "", /anticon-appstore/);
});

test("kept-alive pages survive tab switches; other pages are rebuilt", async () => {
  const { page } = suite.session;
  await signIn(page);
  const mark = (testId: string) =>
    page.getByTestId(testId).evaluate((node) => node.setAttribute("data-mark", "1"));
  const marked = (testId: string) =>
    page.getByTestId(testId).evaluate((node) => node.getAttribute("data-mark"));
  await mark("home-page");
  await page.locator('[data-testid="menu-item"][data-code="dashboard"]').click();
  await page.getByTestId("dashboard-page").waitFor();
  await mark("dashboard-page");
  assert.equal(await page.getByTestId("home-page").isHidden(), true);

  await page.locator('[data-testid="tab"][data-value="/wel/index"]').click();
  await page.getByTestId("home-page").waitFor();
  assert.equal(await marked("home-page"), "1", "the home page is the same, kept-alive node");
  await page.locator('[data-testid="tab"][data-value="/wel/dashboard"]').click();
  await page.getByTestId("dashboard-page").waitFor();
  assert.equal(await marked("dashboard-page"), null, "the dashboard was rebuilt");
});

test("the tenant expiry notice appears within 30 days and comes back 20 minutes after closing", async () => {
  const { page } = suite.session;
  await page.clock.install();
  // Five days and an hour from now, written as the server writes times: the site's clock
  // (Asia/Shanghai, UTC+8 all year), which the test browser keeps too (harness launchBrowser).
  const soon = new Date(Date.now() + 5 * 86_400_000 + 3_600_000 + 8 * 3_600_000);
  const pad = (value: number) => String(value).padStart(2, "0");
  const expireTime = `${soon.getUTCFullYear()}-${pad(soon.getUTCMonth() + 1)}-${pad(soon.getUTCDate())} ${pad(soon.getUTCHours())}:${pad(soon.getUTCMinutes())}:00`;
  // The platform tenant never expires: give the answer an expiry date.
  await page.route("**/api/blade-auth/oauth/user-info", async (route) => {
    const response = await route.fetch();
    const body = await response.json();
    body.data.tenantExpireTime = expireTime;
    await route.fulfill({ response, json: body });
  });
  await signIn(page);
  const notice = page.getByTestId("tenant-expiry-notice");
  await notice.waitFor();
  assert.match(await textOf(notice), /租户授权即将到期[\s\S]*剩余 5 天/);
  await notice.locator(".ant-notification-notice-close").click();
  await notice.waitFor({ state: "detached" });

  await page.clock.fastForward("19:00");
  assert.equal(await notice.count(), 0);
  await page.clock.fastForward("01:05");
  await notice.waitFor();
});

test("an unbound third-party user gets the registration dialog with its checks in order", async () => {
  const { page } = suite.session;
  await signIn(page);
  // Turn the stored user into an unbound social login (no user id), as the token endpoint would.
  await page.evaluate(() => {
    const record = JSON.parse(localStorage.getItem("saber-userInfo") ?? "{}");
    record.content = { ...record.content, user_id: "-1", oauth_id: "42" };
    localStorage.setItem("saber-userInfo", JSON.stringify(record));
  });
  await page.reload();
  const dialog = page.getByTestId("register-dialog");
  await dialog.waitFor();
  const submit = () =>
    page.locator(".ant-modal", { has: dialog }).locator(".ant-modal-footer .ant-btn-primary").click();

  await submit();
  await toast(page, "请先输入租户ID");
  await page.getByTestId("register-tenant").fill("000000");
  await page.getByTestId("register-account").fill("");
  await submit();
  await toast(page, "请先输入账号名称");
  await page.getByTestId("register-account").fill("guest1");
  await submit();
  await toast(page, "请先输入密码");
  await page.getByTestId("register-password").fill("abc123");
  await page.getByTestId("register-password2").fill("abc124");
  await submit();
  await toast(page, "两次密码输入不一致");
  await page.getByTestId("register-password2").fill("abc123");
  await submit();
  // This server has no third-party login record 42: its message is shown, the dialog stays.
  await toast(page, "第三方登陆信息错误");
  assert.equal(await dialog.isVisible(), true);
});
