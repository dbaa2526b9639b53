import assert from "node:assert/strict";
import { test } from "node:test";
import type { Page } from "playwright-core";
import { axeViolations, describeViolations } from "./axe.ts";
import { textOf, useBrowserSuite } from "./harness.ts";

const suite = useBrowserSuite({ signedIn: true });

const pathname = (page: Page) => new URL(page.url()).pathname;
const style = (page: Page, selector: string, property: "backgroundColor" | "color") =>
  page
    .locator(selector)
    .first()
    .evaluate((element, name) => getComputedStyle(element)[name], property);

test("lock: the password is required, a wrong one is refused, the right one returns to the page", async () => {
  const { page } = suite.session;
  await page.locator('[data-testid="menu-item"][data-code="dashboard"]').click();
  await page.getByTestId("dashboard-page").waitFor();

  await page.getByTestId("lock-button").click();
  await page.getByTestId("lock-dialog").waitFor();
  await page.getByTestId("lock-dialog-ok").click();
  await page.locator(".ant-form-item-explain-error", { hasText: "锁屏密码不能为空" }).waitFor();
  assert.equal(pathname(page), "/wel/dashboard");

  await page.getByTestId("lock-dialog-password").fill("s3cret");
  await page.getByTestId("lock-dialog-ok").click();
  await page.getByTestId("lock-page").waitFor();
  assert.equal(pathname(page), "/lock");
  assert.equal(await page.title(), "锁屏");

  await page.getByTestId("unlock-password").fill("wrong");
  await page.getByTestId("unlock-submit").click();
  await page.getByText("解锁密码错误，请重新输入").waitFor();
  assert.equal(pathname(page), "/lock");

  await page.getByTestId("unlock-password").fill("s3cret");
  await page.getByTestId("unlock-submit").click();
  await page.getByTestId("dashboard-page").waitFor();
  assert.equal(pathname(page), "/wel/dashboard");

  // The lock password is set now: the next lock goes straight to /lock, and survives a reload.
  await page.getByTestId("lock-button").click();
  await page.getByTestId("lock-page").waitFor();
  await page.goto("/wel/index");
  await page.getByTestId("lock-page").waitFor();
  assert.equal(pathname(page), "/lock", "a locked session cannot leave /lock");
  await page.getByTestId("lock-logout").click();
  await page.getByTestId("login-form").waitFor();
  assert.equal(await page.evaluate(() => localStorage.getItem("saber-lock-password")), null);
});

test("language: English everywhere, remembered across reloads, and back to Chinese", async () => {
  const { page } = suite.session;
  const groups = () => page.getByTestId("sidebar").getByTestId("menu-group").allInnerTexts();
  await page.getByTestId("language-switch").click();
  await page.getByTestId("language-en").click();
  await page.waitForFunction(() => document.title === "Home");
  const english = await groups();
  assert.ok(english.includes("Workbench") && english.includes("Monitoring"), `groups: ${english}`);
  assert.deepEqual(await page.getByTestId("tab").allInnerTexts(), ["Home"]);
  assert.match(await textOf(page.getByTestId("home-greeting")), /^Good (morning|afternoon|evening), /);
  assert.equal(await page.evaluate(() => document.documentElement.lang), "en");

  await page.reload();
  await page.getByTestId("home-page").waitFor();
  assert.deepEqual(await groups(), english);

  await page.getByTestId("language-switch").click();
  await page.getByTestId("language-zh").click();
  await page.waitForFunction(() => document.title === "首页");
  const chinese = await groups();
  assert.ok(chinese.includes("工作台") && chinese.includes("系统监控"), `groups: ${chinese}`);
});

test("theme and colour: each theme restyles the shell; the colour drives the primary colour", async () => {
  const { page } = suite.session;
  // Colour: the picked primary colour restyles the selected menu entry.
  const selected = ".ml-sider .ant-menu-item-selected";
  // The spec colour #409EFF is drawn as its AA shade #006bd9 (white text 4.5:1), #52c41a as #347c10.
  assert.equal(await style(page, selected, "backgroundColor"), "rgb(0, 107, 217)");
  await page.getByTestId("color-picker").click();
  // Presets: #409EFF, #1677ff, #13c2c2, #52c41a, …
  await page.locator(".ant-color-picker-presets-color").nth(3).click();
  await page.waitForFunction(
    (selector) =>
      getComputedStyle(document.querySelector(selector) as Element).backgroundColor === "rgb(52, 124, 16)",
    selected,
  );
  const stored = await page.evaluate(() => JSON.parse(localStorage.getItem("saber-color") ?? "{}").content);
  assert.equal(String(stored).toLowerCase(), "#52c41a");
  await page.keyboard.press("Escape");

  // Themes.
  const layout = page.getByTestId("layout");
  assert.match((await layout.getAttribute("class")) ?? "", /\btheme-default\b/);
  assert.equal(await style(page, ".ml-header", "backgroundColor"), "rgb(255, 255, 255)");
  assert.equal(await style(page, ".ml-sider", "backgroundColor"), "rgb(32, 34, 42)");

  await page.getByTestId("theme-button").click();
  await page.getByTestId("theme-option-theme-dark").click();
  assert.match((await layout.getAttribute("class")) ?? "", /\btheme-dark\b/);
  assert.equal(await style(page, ".ml-header", "backgroundColor"), "rgb(25, 26, 35)");
  assert.equal(await style(page, ".ml-content", "backgroundColor"), "rgb(0, 0, 0)");

  await page.getByTestId("theme-option-theme-lte").click();
  assert.equal(await style(page, ".ml-header", "backgroundColor"), "rgb(50, 118, 157)");
  await page.getByTestId("theme-option-theme-white").click();
  assert.equal(await style(page, ".ml-sider", "backgroundColor"), "rgb(255, 255, 255)");
  await page.keyboard.press("Escape");

  await page.reload();
  await page.getByTestId("home-page").waitFor();
  assert.match((await layout.getAttribute("class")) ?? "", /\btheme-white\b/);
});

test("every theme: header, top menu and logo text reach AA contrast; the picked colour reaches table links", async () => {
  const { page } = suite.session;
  const dialog = page.getByTestId("theme-dialog");
  await page.getByTestId("theme-button").click();
  // The dialog's code loads with the first press.
  await dialog.waitFor();
  const options = await dialog
    .locator('[data-testid^="theme-option-"]')
    .evaluateAll((buttons) => buttons.map((button) => button.getAttribute("data-testid") ?? ""));
  await page.keyboard.press("Escape");
  await dialog.waitFor({ state: "hidden" });
  assert.equal(options.length, 11, `themes offered: ${options}`);
  const failures: string[] = [];
  for (const option of options) {
    await page.getByTestId("theme-button").click();
    await page.getByTestId(option).click();
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "hidden" });
    // The home page is open: the top menu's 首页 is the active entry, drawn in the accent colour.
    await page.locator(".ml-top-menu .ant-btn.is-active").waitFor();
    const found = await axeViolations(page, {
      include: [".ml-header", ".ml-logo"],
      rules: ["color-contrast"],
    });
    if (found.length > 0) failures.push(`${option}:\n${describeViolations(found)}`);
  }
  assert.equal(failures.length, 0, failures.join("\n\n"));

  // The picked colour restyles links in tables: row actions and links inside cells.
  await page.getByTestId("theme-button").click();
  await page.getByTestId("theme-option-theme-default").click();
  await page.keyboard.press("Escape");
  await page.getByTestId("color-picker").click();
  await page.locator(".ant-color-picker-presets-color").nth(3).click();
  await page.keyboard.press("Escape");
  await page.goto("/system/user");
  const screen = page.locator('[data-testid="resource-page"][data-resource="user"]');
  const rowAction = screen.locator(".ant-table-tbody .crud-row-actions .ant-btn-link").first();
  await rowAction.waitFor();
  // #52c41a is drawn as its AA shade #347c10 (see the colour test above).
  assert.equal(await rowAction.evaluate((element) => getComputedStyle(element).color), "rgb(52, 124, 16)");
  const cellLink = await screen
    .locator(".ant-table-tbody td")
    .first()
    .evaluate((cell) => {
      const link = cell.appendChild(document.createElement("a"));
      link.href = "/system/user";
      link.textContent = "link";
      const color = getComputedStyle(link).color;
      link.remove();
      return color;
    });
  assert.equal(cellLink, "rgb(52, 124, 16)");
});
