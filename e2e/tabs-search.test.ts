import assert from "node:assert/strict";
import { test } from "node:test";
import type { Page } from "playwright-core";
import { useBrowserSuite } from "./harness.ts";

const suite = useBrowserSuite({ signedIn: true });

const tabs = (page: Page) => page.getByTestId("tab").allInnerTexts();
const pathname = (page: Page) => new URL(page.url()).pathname;

async function openTwoTabs(page: Page): Promise<void> {
  await page.locator('[data-testid="menu-item"][data-code="dashboard"]').click();
  await page.getByTestId("dashboard-page").waitFor();
  await page.locator('[data-testid="menu-group"][data-code="monitor"]').click();
  await page.locator('[data-testid="menu-item"][data-code="api_doc"]').click();
  await page.getByTestId("iframe").waitFor();
  assert.deepEqual(await tabs(page), ["首页", "控制台", "接口文档"]);
}

test("two tabs open; close others keeps the active one and home; close all returns home", async () => {
  const { page } = suite.session;
  await openTwoTabs(page);
  // The dropdown's search box filters the open tabs and switches to one.
  await page.getByTestId("tag-dropdown").click();
  await page.getByTestId("tag-search").fill("控制");
  assert.deepEqual(await page.getByTestId("tag-option").allInnerTexts(), ["控制台"]);
  await page.getByTestId("tag-option").click();
  await page.getByTestId("dashboard-page").waitFor();
  assert.equal(pathname(page), "/wel/dashboard");
  await page.locator('[data-testid="tab"][data-value="/myiframe/api_doc"]').click();
  await page.getByTestId("iframe").waitFor();

  await page.getByTestId("tag-dropdown").click();
  await page.getByTestId("tag-action-close-others").click();
  assert.deepEqual(await tabs(page), ["首页", "接口文档"]);
  assert.equal(pathname(page), "/myiframe/api_doc");

  await page.locator('[data-testid="tab"][data-value="/myiframe/api_doc"]').click({ button: "right" });
  await page.getByTestId("tab-context-close-all").click();
  assert.deepEqual(await tabs(page), ["首页"]);
  await page.getByTestId("home-page").waitFor();
  assert.equal(pathname(page), "/wel/index");
  assert.equal(await page.title(), "首页");
});

test("closing the active tab activates the previous one; a lone tab cannot be closed", async () => {
  const { page } = suite.session;
  await openTwoTabs(page);
  await page.locator('.ant-tabs-tab-active [data-testid="tab-close"]').click();
  assert.deepEqual(await tabs(page), ["首页", "控制台"]);
  await page.getByTestId("dashboard-page").waitFor();
  assert.equal(pathname(page), "/wel/dashboard");
  await page.locator('.ant-tabs-tab-active [data-testid="tab-close"]').click();
  assert.deepEqual(await tabs(page), ["首页"]);
  assert.equal(await page.getByTestId("tab-close").count(), 0);
});

test("clear cache asks first, then confirms success", async () => {
  const { page } = suite.session;
  await page.getByTestId("tag-dropdown").click();
  await page.getByTestId("tag-action-clear-cache").click();
  await page.locator(".ant-modal-confirm", { hasText: "是否需要清除缓存" }).waitFor();
  await page.locator(".ant-modal-confirm .ant-btn-primary").click();
  await page.locator(".ant-message-notice", { hasText: "清除完毕" }).waitFor();
});

test("menu search: Ctrl+K opens it, prefix match, Enter opens the page, Esc closes", async () => {
  const { page } = suite.session;
  await page.keyboard.press("Control+k");
  const input = page.getByTestId("menu-search-input");
  await input.waitFor();
  await input.fill("控");
  assert.deepEqual(await page.getByTestId("menu-search-label").allInnerTexts(), ["控制台"]);
  await input.fill("制台");
  assert.equal(await page.getByTestId("menu-search-result").count(), 0, "matches only at the start");
  await input.fill("接口文");
  assert.deepEqual(await page.getByTestId("menu-search-label").allInnerTexts(), ["接口文档"]);
  await input.press("Enter");
  await page.getByTestId("iframe").waitFor();
  assert.equal(pathname(page), "/myiframe/api_doc");

  await page.getByTestId("search-button").click();
  await input.waitFor();
  await page.keyboard.press("Escape");
  await input.waitFor({ state: "detached" });
  assert.equal(await page.getByTestId("menu-search").count(), 0);
});

test("menu search keeps what is typed while its code is still loading, and Enter opens the hit", async () => {
  const { page } = suite.session;
  // The search's code arrives late, as on a slow link: the keys typed meanwhile must not be lost.
  let delayed = 0;
  await page.route(/\/assets\/MenuSearch[-.][^/]*\.js$/, async (route) => {
    delayed += 1;
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await route.continue();
  });
  await page.getByTestId("home-page").waitFor();
  await page.keyboard.press("Control+k");
  await page.keyboard.type("接口文");
  await page.keyboard.press("Enter");
  await page.getByTestId("iframe").waitFor();
  assert.equal(pathname(page), "/myiframe/api_doc");
  assert.equal(delayed, 1, "the search's code was held back");
  // Typed before a second opening's box has focus: the box shows it, and Esc leaves nothing behind.
  await page.keyboard.press("Control+k");
  await page.keyboard.type("控");
  const input = page.getByTestId("menu-search-input");
  await input.waitFor();
  assert.equal(await input.inputValue(), "控");
  await page.keyboard.press("Escape");
  await input.waitFor({ state: "detached" });
  await page.keyboard.press("Control+k");
  await input.waitFor();
  assert.equal(await input.inputValue(), "");
});

test("the top menu narrows the sidebar and its home item restores the full menu", async () => {
  const { page } = suite.session;
  const groups = () => page.getByTestId("sidebar").getByTestId("menu-group").allInnerTexts();
  const all = await groups();
  assert.ok(all.length >= 2 && all.includes("系统监控"), `groups: ${all}`);
  await page.getByTestId("top-menu-item").filter({ hasText: "系统监控" }).click();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="menu-group"]').length === 1);
  assert.deepEqual(await groups(), ["系统监控"]);
  await page.getByTestId("top-menu-item").filter({ hasText: "首页" }).click();
  await page.waitForFunction(
    (count) => document.querySelectorAll('[data-testid="menu-group"]').length === count,
    all.length,
  );
  assert.deepEqual(await groups(), all);
});
