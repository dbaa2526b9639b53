import assert from "node:assert/strict";
import { test } from "node:test";
import type { Page } from "playwright-core";
import { dialog, field, fieldErrors, rowsWith, settled, toast } from "./crud-helpers.ts";
import { signIn, useBrowserSuite } from "./harness.ts";

const suite = useBrowserSuite();

const ok = (page: Page) => dialog(page).getByTestId("crud-dialog-ok").click();

/** Creates a dictionary and one item through a layout, checking the §5 messages on the way. */
async function createDictionary(page: Page, path: string, code: string) {
  await signIn(page);
  await page.goto(path);
  const parents = page.getByTestId("dict-parents").getByTestId("resource-page");
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
  await parents.getByTestId("search-code").fill(code);
  await parents.getByTestId("crud-search-submit").click();
  await settled(parents);
  await rowsWith(parents, code).locator("td").nth(2).click();
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
}

test("a dictionary and its item are created in the side-by-side layout", async () => {
  await createDictionary(suite.session.page, "/dict-horizontal/index", "e2e_meter_h");
});

test("a dictionary and its item are created in the stacked layout", async () => {
  await createDictionary(suite.session.page, "/dict-vertical/index", "e2e_meter_v");
});
