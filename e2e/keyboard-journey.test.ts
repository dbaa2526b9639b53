import assert from "node:assert/strict";
import { test } from "node:test";
import { expectAccessible } from "./axe.ts";
import { dialog, openResource, rowsWith, settled, toast } from "./crud-helpers.ts";
import { signIn, textOf, useBrowserSuite } from "./harness.ts";
import { duplicateIds, focusedElement, hasFocus, pressUntilFocused, waitForFocus } from "./keyboard.ts";

// The demo site: 140 electric meters, so the meter table has pages to go through.
const suite = useBrowserSuite({ env: { DEMO_DATA: "1" } });
const demo = { tenantId: "100001", username: "admin", password: "admin" };

test("keyboard only: sign in, open 电表 from the side menu, search, page through, view a row", async () => {
  const { page } = suite.session;
  await page.goto("/login");
  await pressUntilFocused(page, "Tab", page.getByTestId("login-tenant"));
  await page.keyboard.type(demo.tenantId);
  await pressUntilFocused(page, "Tab", page.getByTestId("login-username"));
  await page.keyboard.type(demo.username);
  await pressUntilFocused(page, "Tab", page.getByTestId("login-password"));
  await page.keyboard.type(demo.password);
  await page.keyboard.press("Enter");
  // The first sign-in of a fresh demo shares the embedded database with the demo writing its
  // history: on a loaded machine it has taken longer than the usual 15 s.
  await page.getByTestId("home-page").waitFor({ timeout: 45_000 });
  await page.waitForLoadState("networkidle");

  // Into the side menu, down to the group holding 电表, open it, down to 电表, open the screen.
  const sider = page.getByTestId("sidebar");
  await pressUntilFocused(page, "Tab", sider.locator("ul[role=menu]").first(), 60);
  // A folded group renders no entries yet: it is found by its title.
  await pressUntilFocused(
    page,
    "ArrowDown",
    sider.locator(".ant-menu-submenu-title", { hasText: "档案管理" }),
  );
  await page.keyboard.press("Enter");
  const entry = sider.locator(".ant-menu-item", { has: page.locator('[data-code="meter"]') });
  await pressUntilFocused(page, "ArrowDown", entry);
  await page.keyboard.press("Enter");
  await page.waitForURL("**/pms/meter");
  const screen = page.locator('[data-testid="resource-page"][data-resource="meter"]');
  await screen.locator(".ant-table-row").first().waitFor();
  await settled(screen);
  await expectAccessible(page, "meter screen");

  // Search: type a meter's 表号 into its search box and press Enter.
  const meterNo = screen.getByLabel("表号", { exact: true });
  const firstNo = (await screen.locator(".ant-table-row").first().locator("td").allInnerTexts()).find(
    (text) => /^\d{12}$/.test(text.trim()),
  );
  assert.ok(firstNo, "the first row shows a 12-digit meter number");
  await pressUntilFocused(page, "Tab", meterNo);
  await page.keyboard.type(firstNo.trim());
  await page.keyboard.press("Enter");
  await settled(screen);
  await screen.locator(".ant-pagination-total-text", { hasText: "共 1 条" }).waitFor();

  // Back to all rows with 清空, then through the search bar — past the 创建时间 range — to the pager.
  const reset = screen
    .getByRole("button", { name: "清 空" })
    .or(screen.getByRole("button", { name: "清空" }));
  await pressUntilFocused(page, "Tab", reset);
  await page.keyboard.press("Enter");
  await settled(screen);
  const next = screen.locator(".ant-pagination-next");
  await pressUntilFocused(page, "Tab", next, 200);
  await page.keyboard.press("Enter");
  await settled(screen);
  assert.equal(await textOf(screen.locator(".ant-pagination-item-active")), "2");

  // A row's 查看 opens its page (the view dialog) with focus inside; Esc brings focus back.
  const view = screen.locator(".ant-table-row").first().getByTestId("row-view");
  await pressUntilFocused(page, "Shift+Tab", view, 200);
  await page.keyboard.press("Enter");
  await dialog(page).waitFor();
  await page.waitForFunction(() => document.querySelector(".ant-modal")?.contains(document.activeElement));
  await expectAccessible(page, "meter view dialog");
  await page.keyboard.press("Escape");
  await dialog(page).waitFor({ state: "detached" });
  await waitForFocus(page, view);
});

test("keyboard only: the add dialog opens from 新增, labels its own fields, returns focus, saves, and a row is deleted after confirming", async () => {
  const { page } = suite.session;
  await signIn(page, demo);
  const screen = await openResource(page, "/system/post", "post");
  const add = screen.getByTestId("crud-add");

  // From the first search box, Tab goes past the 创建时间 range to 新增.
  await screen.getByTestId("crud-search").locator("input").first().focus();
  await pressUntilFocused(page, "Tab", add, 15);
  await page.keyboard.press("Enter");
  const form = dialog(page);
  await form.waitFor();
  await page.waitForFunction(() => document.querySelector(".ant-modal")?.contains(document.activeElement));
  await expectAccessible(page, "post add dialog");
  assert.deepEqual(await duplicateIds(page), [], "ids are unique in the page");
  // Each field is named by its own label: the label resolves to a control inside the dialog.
  for (const label of await form.locator(".ant-form-item-label label").allInnerTexts()) {
    assert.equal(
      await form.getByLabel(label.trim(), { exact: true }).count(),
      1,
      `the dialog's ${label} field`,
    );
  }

  // Esc closes the dialog and gives the focus back to 新增.
  await page.keyboard.press("Escape");
  await form.waitFor({ state: "detached" });
  await waitForFocus(page, add);

  // Again, filled in with the keyboard: pick the first 岗位类型, type code and name, save.
  const code = `kb${Date.now() % 1_000_000}`;
  await page.keyboard.press("Enter");
  await form.waitFor();
  await pressUntilFocused(page, "Tab", form.getByLabel("岗位类型", { exact: true }));
  await page.keyboard.press("ArrowDown");
  await page.locator(".ant-select-dropdown:visible .ant-select-item-option").first().waitFor();
  await page.keyboard.press("Enter");
  await pressUntilFocused(page, "Tab", form.getByLabel("岗位编号", { exact: true }));
  await page.keyboard.type(code);
  await pressUntilFocused(page, "Tab", form.getByLabel("岗位名称", { exact: true }));
  await page.keyboard.type("键盘岗位");
  await pressUntilFocused(page, "Tab", page.getByTestId("crud-dialog-ok"));
  await page.keyboard.press("Enter");
  await toast(page, "新增成功");
  await form.waitFor({ state: "detached" });
  await waitForFocus(page, add);
  await settled(screen);

  // Find it with the search bar, then 删除 → the confirm → Enter on its OK.
  await pressUntilFocused(page, "Shift+Tab", screen.getByLabel("岗位编号", { exact: true }));
  await page.keyboard.type(code);
  await page.keyboard.press("Enter");
  await settled(screen);
  // 删除 waits in the row's "more" menu: Enter opens it with its first item focused, Enter picks it.
  const more = rowsWith(screen, code).getByTestId("row-more");
  await pressUntilFocused(page, "Tab", more, 60);
  const pickRemove = async () => {
    await page.keyboard.press("Enter");
    await waitForFocus(page, page.locator(".ant-dropdown:visible [role=menuitem]", { hasText: "删除" }));
    await page.keyboard.press("Enter");
  };
  await pickRemove();
  const ok = page.getByTestId("crud-remove-ok");
  await ok.waitFor();
  await expectAccessible(page, "delete confirm");
  await waitForFocus(page, ok);
  // Esc cancels: the focus is back on the row's "more", where the menu was opened.
  await page.keyboard.press("Escape");
  await ok.waitFor({ state: "detached" });
  await waitForFocus(page, more);
  await pickRemove();
  await waitForFocus(page, ok);
  await page.keyboard.press("Enter");
  await toast(page, "删除成功");
  await settled(screen);
  assert.equal(
    await rowsWith(screen, code).count(),
    0,
    `still listed; focus on ${await focusedElement(page)}`,
  );
  assert.ok(await hasFocus(page.locator("body")), "focus stays in the page");

  // The language switch by keyboard: the menu opens with the focus on one of its items (its first,
  // or the language in use: which one depends on when the menu's focus lands), the arrows move to
  // the other, a pick switches the page and gives the focus back to the switch; and back to Chinese
  // the same way.
  const language = page.getByTestId("language-switch");
  for (const [name, lang] of [
    ["English", "en"],
    ["中文", "zh-CN"],
  ] as const) {
    await language.focus();
    await page.keyboard.press("Enter");
    const items = page.locator(".ant-dropdown:visible [role=menuitem]");
    await waitForFocus(page, page.locator(".ant-dropdown:visible"));
    // Up when the item wanted comes before the focused one (Chinese, from English in use), else down.
    const texts = await items.allTextContents();
    const from = await items.evaluateAll((nodes) =>
      nodes.findIndex((node) => node === document.activeElement || node.contains(document.activeElement)),
    );
    const to = texts.findIndex((text) => text.includes(name));
    assert.ok(to >= 0, `no item ${name} in the menu: ${texts.join(", ")}`);
    await pressUntilFocused(page, from > to ? "ArrowUp" : "ArrowDown", items.nth(to), 3);
    await page.keyboard.press("Enter");
    await page.waitForFunction((wanted) => document.documentElement.lang === wanted, lang);
    await waitForFocus(page, language);
  }
});
