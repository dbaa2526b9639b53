import assert from "node:assert/strict";
import { test } from "node:test";
import type { Page } from "playwright-core";
import { useBrowserSuite } from "./harness.ts";
import { signInOperator } from "./registry-helpers.ts";

// The demo site: its operator has every registry, reading, money and system screen, with rows.
const suite = useBrowserSuite({ env: { DEMO_DATA: "1" } });
const demo = { tenantId: "100001", password: "admin", token: "" };

/**
 * Where a screen shows data, not labels: table rows, list rows and description values, trees of
 * areas, charts, values chosen in selects. Chinese there is what was typed.
 */
const DATA = [
  ".ant-table-tbody",
  ".ant-list-item",
  ".ant-descriptions-item-content",
  ".ant-tree",
  ".ant-select-selection-item",
  "svg",
  "canvas",
].join(", ");
/** Data inside a label: the demo tenant's name in the home page's greeting. */
const DATA_VALUES = ["阳光公寓(演示)"];

/**
 * Every Chinese character the reader sees outside data: visible text, and the placeholders,
 * titles and accessible names of what is on screen (side menu, top bar, tabs and the shown screen).
 * Plain script text: the test's compiler would wrap named functions in helpers the page lacks.
 */
const FIND_UNTRANSLATED = `(dataSelector, dataValues) => {
  const cjk = /[\u3400-\u9fff\uff00-\uffef\u3000-\u303f]/;
  const found = new Set();
  const shown = (element) =>
    element.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true }) && !element.closest(dataSelector);
  const describe = (element) => {
    const id = element.getAttribute("data-testid");
    const classes = [...element.classList].slice(0, 2).join(".");
    return element.tagName.toLowerCase() + (id ? "[" + id + "]" : "") + (classes ? "." + classes : "");
  };
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = dataValues.reduce((left, value) => left.replaceAll(value, ""), (node.textContent || "").trim());
    const parent = node.parentElement;
    if (text && cjk.test(text) && parent && shown(parent)) found.add('"' + text + '" in ' + describe(parent));
  }
  for (const element of document.querySelectorAll("[placeholder], [title], [aria-label]")) {
    for (const name of ["placeholder", "title", "aria-label"]) {
      const value = element.getAttribute(name) || "";
      if (cjk.test(value) && shown(element)) found.add(name + ' "' + value + '" of ' + describe(element));
    }
  }
  return [...found];
}`;

const untranslated = (page: Page): Promise<string[]> =>
  page.evaluate(`(${FIND_UNTRANSLATED})(${JSON.stringify(DATA)}, ${JSON.stringify(DATA_VALUES)})`);

/** Unfolds every group of the side menu and answers the codes of all its entries. */
async function menuCodes(page: Page): Promise<string[]> {
  const folded = page.locator(
    ".ml-sider .ant-menu-submenu:not(.ant-menu-submenu-open) > .ant-menu-submenu-title",
  );
  while ((await folded.count()) > 0) await folded.first().click();
  return page
    .getByTestId("menu-item")
    .evaluateAll((items) => items.map((item) => item.getAttribute("data-code") ?? ""));
}

test("in English, no screen of the menu shows a Chinese label", async () => {
  const { page } = suite.session;
  await page.goto("/login");
  await page.evaluate(() =>
    localStorage.setItem("saber-language", JSON.stringify({ dataType: "string", content: "en" })),
  );
  await page.reload();
  await signInOperator(page, demo);
  await page.waitForLoadState("networkidle");
  // Each label once, where it was first seen: the side menu is on every screen.
  const failures = new Map<string, string>();
  const look = async (where: string) => {
    for (const finding of await untranslated(page)) if (!failures.has(finding)) failures.set(finding, where);
  };
  await look("home");
  for (const code of await menuCodes(page)) {
    const entry = page.locator(`[data-testid="menu-item"][data-code="${code}"]`);
    const path = await entry.getAttribute("data-path");
    await entry.click();
    await page.waitForURL((url) => url.pathname.startsWith(path ?? "/"));
    // The router keeps the previous screen up while the next one's code loads.
    await page.locator(`.ml-page[data-page="${new URL(page.url()).pathname}"]:not([hidden])`).waitFor();
    await page.locator(".ant-spin-spinning:visible").first().waitFor({ state: "detached" });
    await look(code);
  }
  const listed = [...failures].map(([finding, where]) => `${where}: ${finding}`);
  assert.equal(listed.length, 0, `untranslated labels:\n${listed.join("\n")}`);
});
