import assert from "node:assert/strict";
import { test } from "node:test";
import type { Locator, Page } from "playwright-core";
import { dialog, field, fieldErrors, rowsWith, settled, toast } from "./crud-helpers.ts";
import { signIn, useBrowserSuite } from "./harness.ts";
import { exportSheet } from "./workbook-helpers.ts";

const suite = useBrowserSuite();

const ok = (page: Page) => dialog(page).getByTestId("crud-dialog-ok").click();

/** The dictionaries pane of a layout, showing the system (`dict`) or business (`dictBiz`) ones. */
const parentsOf = (page: Page, resource: "dict" | "dictBiz") =>
  page.locator(`[data-testid="dict-parents"] [data-testid="resource-page"][data-resource="${resource}"]`);

/** Shows the dictionaries whose code contains `code` and picks the first. */
async function chooseDictionary(parents: Locator, code: string) {
  await parents.getByTestId("search-code").fill(code);
  await parents.getByTestId("crud-search-submit").click();
  await settled(parents);
  await rowsWith(parents, code).locator("td").nth(2).click();
}

/**
 * Creates a dictionary and one item through a layout, checking the §5 messages on the way; on
 * the system dictionary unless `parents` is another pane. Answers the items pane.
 */
async function createDictionary(page: Page, path: string, code: string, parents = parentsOf(page, "dict")) {
  if (!page.url().endsWith(path)) await page.goto(path);
  await settled(parents);
  await parents.getByTestId("crud-add").click();
  assert.equal(await dialog(page).evaluate((node) => getComputedStyle(node).width), "880px");
  await field(page, "sort").fill("");
  const sealed = dialog(page).locator(".ant-form-item", { has: page.locator("#isSealed") });
  await sealed.locator(".ant-select").hover();
  await sealed.locator(".ant-select-clear").click();
  await ok(page);
  await dialog(page).locator(".ant-form-item-explain-error").nth(3).waitFor();
  assert.deepEqual(await fieldErrors(page), [
    "请输入字典编号",
    "请输入字典名称",
    "请输入字典排序",
    "请选择封存",
  ]);
  await field(page, "code").fill(code);
  await field(page, "dictValue").fill("表计类型");
  await field(page, "dictValueEn").fill("Meter type");
  await field(page, "sort").fill("9");
  await field(page, "isSealed").click();
  await page.locator(".ant-select-dropdown:visible .ant-select-item-option", { hasText: "否" }).click();
  await ok(page);
  await toast(page, "新增成功");

  const children = page.getByTestId("dict-children");
  assert.equal(
    await children.getByTestId("resource-page").count(),
    0,
    "no items before a dictionary is chosen",
  );
  await chooseDictionary(parents, code);
  const items = children.getByTestId("resource-page");
  await settled(items);
  assert.equal(await items.locator(".ant-table-row").count(), 0);
  await items.getByTestId("crud-add").click();
  assert.equal(await field(page, "code").inputValue(), code);
  assert.equal(await field(page, "code").isDisabled(), true, "an item's code is its dictionary's");
  await ok(page);
  await dialog(page).locator(".ant-form-item-explain-error").nth(1).waitFor();
  assert.deepEqual(await fieldErrors(page), ["请输入字典键值", "请输入字典名称"]);
  await field(page, "dictKey").fill("1");
  await field(page, "dictValue").fill("单相电表");
  await ok(page);
  await toast(page, "新增成功");
  await rowsWith(items, "单相电表").waitFor();
  assert.equal(await items.locator(".ant-table-row").count(), 1);

  await rowsWith(items, "单相电表").getByTestId("row-edit").click();
  // Neither the code nor the dictionary of an item can be changed.
  assert.equal(await field(page, "code").isDisabled(), true);
  assert.equal(
    await dialog(page)
      .locator(".ant-select-disabled", { has: page.locator("#parentId") })
      .count(),
    1,
  );
  await dialog(page).locator(".ant-modal-close").click();
  await dialog(page).waitFor({ state: "detached" });
  return items;
}

/** Exports the items pane and checks that the sheet holds that dictionary's one item only. */
async function assertItemsExportAlone(page: Page, items: Locator, code: string) {
  const [header = [], ...rows] = await exportSheet(page, items);
  const codeColumn = header.indexOf("字典编号");
  assert.ok(codeColumn >= 0, `the sheet has a code column: ${header.join(", ")}`);
  assert.deepEqual(
    rows.map((row) => [row[codeColumn], row[header.indexOf("字典名称")]]),
    [[code, "单相电表"]],
  );
}

test("a dictionary and its item are created in the side-by-side layout, and its items export alone", async () => {
  const { page } = suite.session;
  await signIn(page);
  const items = await createDictionary(page, "/dict-horizontal/index", "e2e_meter_h");
  // The seeded dictionaries have many items: only the chosen one's may be in the sheet.
  await assertItemsExportAlone(page, items, "e2e_meter_h");
});

test("a dictionary and its item are created in the stacked layout", async () => {
  const { page } = suite.session;
  await signIn(page);
  await createDictionary(page, "/dict-vertical/index", "e2e_meter_v");
});

test("the layouts switch to the business dictionary, remembered in the URL", async () => {
  const { page } = suite.session;
  await signIn(page);
  await page.goto("/dict-vertical/index");
  await settled(parentsOf(page, "dict"));
  await page.getByTestId("dict-kind").getByText("业务字典").click();
  await page.waitForURL(/\/dict-vertical\/index\?kind=biz$/);
  const bizParents = parentsOf(page, "dictBiz");
  const items = await createDictionary(page, "/dict-vertical/index?kind=biz", "e2e_biz_v", bizParents);
  await assertItemsExportAlone(page, items, "e2e_biz_v");

  // A reload keeps the business dictionary, which holds the new one; the system one does not.
  await page.reload();
  await settled(bizParents);
  await chooseDictionary(bizParents, "e2e_biz_v");
  await rowsWith(page.getByTestId("dict-children"), "单相电表").waitFor();
  await page.getByTestId("dict-kind").getByText("系统字典").click();
  await page.waitForURL(/\/dict-vertical\/index$/);
  const systemParents = parentsOf(page, "dict");
  await systemParents.getByTestId("search-code").fill("e2e_biz_v");
  await systemParents.getByTestId("crud-search-submit").click();
  await settled(systemParents);
  assert.equal(await rowsWith(systemParents, "e2e_biz_v").count(), 0);

  // The business dictionary's own menu shows the same master / detail screen.
  await page.goto("/system/dictbiz");
  await page.locator('[data-testid="dict-horizontal"][data-resource="dictBiz"]').waitFor();
  await chooseDictionary(parentsOf(page, "dictBiz"), "e2e_biz_v");
  await rowsWith(page.getByTestId("dict-children"), "单相电表").waitFor();
});
