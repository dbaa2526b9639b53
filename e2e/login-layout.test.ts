import assert from "node:assert/strict";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import {
  repoRoot,
  signIn,
  signInWithForm,
  startServer,
  storedToken,
  textOf,
  useBrowserSuite,
} from "./harness.ts";

const suite = useBrowserSuite();

test("an anonymous visit lands on the Chinese login page; a wrong password is refused", async () => {
  const { page } = suite.session;
  await page.goto("/wel/dashboard");
  await page.getByTestId("login-form").waitFor();
  assert.equal(new URL(page.url()).pathname, "/login");
  assert.equal(await page.title(), "登录");
  assert.equal(await textOf(page.getByTestId("login-submit")), "登 录");
  assert.equal(await page.getByTestId("login-tenant").inputValue(), "000000");

  await page.getByTestId("login-username").fill("admin");
  await page.getByTestId("login-password").fill("not-the-password");
  await page.getByTestId("login-submit").click();
  await page.locator(".ant-message-notice", { hasText: "用户名或密码错误" }).waitFor();
  assert.equal(new URL(page.url()).pathname, "/login");
  assert.equal(await storedToken(page), null);
});

test("admin signs in and sees the layout in Chinese with the seeded menus", async () => {
  const { page, errors } = suite.session;
  await signInWithForm(page);
  assert.equal(new URL(page.url()).pathname, "/wel/index");
  assert.equal(await page.title(), "首页");
  const sidebar = page.getByTestId("sidebar");
  const groups = await sidebar.getByTestId("menu-group").allInnerTexts();
  assert.deepEqual(groups.slice(0, 1), ["工作台"]);
  assert.ok(groups.includes("系统监控"), `groups: ${groups}`);
  // The group of the current page is open: its leaves are listed.
  const leaves = await sidebar.getByTestId("menu-item").allInnerTexts();
  assert.deepEqual(leaves.slice(0, 2), ["首页", "控制台"]);
  assert.equal(
    await sidebar.locator(".ant-menu-item-selected").getByTestId("menu-item").getAttribute("data-path"),
    "/wel/index",
  );
  // The home page right after signing in, kept for a look when a run fails.
  const shots = path.join(repoRoot, "e2e", "artifacts");
  await mkdir(shots, { recursive: true });
  await page.getByTestId("home-shortcut").first().waitFor();
  await page.waitForLoadState("networkidle");
  await page.screenshot({ path: path.join(shots, "screenshot.png") });

  await sidebar.locator('[data-testid="menu-group"][data-code="monitor"]').click();
  await sidebar.locator('[data-testid="menu-item"][data-code="api_doc"]').waitFor();
  assert.equal(await textOf(sidebar.locator('[data-testid="menu-item"][data-code="api_doc"]')), "接口文档");
  const topMenu = await page.getByTestId("top-menu-item").allInnerTexts();
  assert.equal(topMenu[0]?.trim(), "首页");
  assert.ok(topMenu.length >= 2, `top menu items: ${topMenu}`);
  assert.match(await textOf(page.getByTestId("home-greeting")), /管理员/);
  assert.deepEqual(await page.getByTestId("tab").allInnerTexts(), ["首页"]);
  assert.ok(await storedToken(page));
  assert.deepEqual(errors, []);

  // An external entry opens inside the iframe route, as its own tab.
  await sidebar.locator('[data-testid="menu-item"][data-code="api_doc"]').click();
  await page.getByTestId("iframe").waitFor();
  assert.equal(new URL(page.url()).pathname, "/myiframe/api_doc");
  // A full URL on this server, as the family opens such entries (contract §7.1).
  assert.match(
    (await page.getByTestId("iframe").getAttribute("src")) ?? "",
    /^http:\/\/127\.0\.0\.1:\d+\/api\/docs\//,
  );
  assert.deepEqual(await page.getByTestId("tab").allInnerTexts(), ["首页", "接口文档"]);
  assert.equal(await page.title(), "接口文档");
});

test("an unknown path shows the 404 page with a way back home", async () => {
  const { page } = suite.session;
  await signIn(page);
  await page.goto("/no/such/page");
  await page.getByTestId("error-404").waitFor();
  assert.equal(new URL(page.url()).pathname, "/404");
  await page.getByTestId("back-home").click();
  await page.getByTestId("home-page").waitFor();
  assert.equal(new URL(page.url()).pathname, "/wel/index");
});

test("logging out asks for confirmation, then returns to /login without stored tokens", async () => {
  const { page } = suite.session;
  await signIn(page);
  await page.getByTestId("user-dropdown").click();
  await page.getByTestId("logout").click();
  await page.locator(".ml-logout-confirm").click();
  await page.getByTestId("login-form").waitFor();
  assert.equal(new URL(page.url()).pathname, "/login");
  assert.equal(await storedToken(page), null);
  assert.equal(await page.evaluate(() => localStorage.getItem("saber-refresh-token")), null);
  await page.goto("/wel/index");
  await page.getByTestId("login-form").waitFor();
  assert.equal(new URL(page.url()).pathname, "/login");
});

test("in captcha mode the login asks for the code, refreshes it on click and after a failure", async () => {
  const captchaServer = await startServer({ CAPTCHA_ENABLED: "true" });
  try {
    const { page } = suite.session;
    await page.goto(`${captchaServer.baseUrl}/login`);
    const image = page.locator('[data-testid="login-captcha-image"] img');
    await image.waitFor();
    const first = await image.getAttribute("src");
    assert.match(first ?? "", /^data:image\/png;base64,/);
    await page.getByTestId("login-captcha-image").click();
    await page.waitForFunction(
      (old) => document.querySelector('[data-testid="login-captcha-image"] img')?.getAttribute("src") !== old,
      first,
    );
    const second = await image.getAttribute("src");

    await page.getByTestId("login-username").fill("admin");
    await page.getByTestId("login-password").fill("admin");
    await page.getByTestId("login-captcha").fill("wrong");
    await page.getByTestId("login-captcha").press("Enter");
    await page.locator(".ant-message-notice", { hasText: "验证码不正确" }).waitFor();
    await page.waitForFunction(
      (old) => document.querySelector('[data-testid="login-captcha-image"] img')?.getAttribute("src") !== old,
      second,
    );
    assert.equal(await page.getByTestId("login-captcha").inputValue(), "");
    assert.equal(new URL(page.url()).pathname, "/login");
  } finally {
    await captchaServer.stop();
  }
});
