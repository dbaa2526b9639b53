import { test } from "node:test";
import type { Locator, Page } from "playwright-core";
import { expectAccessible } from "./axe.ts";
import { toast } from "./crud-helpers.ts";
import { useBrowserSuite } from "./harness.ts";

const suite = useBrowserSuite({ signedIn: true });

/** The tree node titled `title`. */
const node = (tree: Locator, title: string) =>
  tree
    .locator(".ant-tree-treenode", { has: tree.page().locator(".ant-tree-title", { hasText: title }) })
    .first();

/** Opens a node of the lazy tree and waits for its first child to show. */
async function expand(tree: Locator, title: string, child: string): Promise<void> {
  await node(tree, title).locator(".ant-tree-switcher").click();
  await node(tree, child).waitFor();
}

const table = (page: Page) => page.getByTestId("region-table");

test("the platform administrator browses the region tree and adds a district that shows in it", async () => {
  const { page } = suite.session;
  // An old bookmark of the screen lands on its address of the family's seed.
  await page.goto("/system/region");
  await page.waitForURL((url) => url.pathname === "/base/region");
  const tree = page.getByTestId("region-tree");
  await table(page).locator(".ant-table-row", { hasText: "江苏省" }).waitFor();
  await expectAccessible(page, "screen /base/region");

  await expand(tree, "中华人民共和国", "江苏省");
  await expand(tree, "江苏省", "南京市");
  await node(tree, "南京市").locator(".ant-tree-title").click();
  await page.getByText("南京市 的下级区划").waitFor();

  await page.getByTestId("region-page").getByTestId("crud-add").click();
  const form = page.getByTestId("region-form");
  await form.waitFor();
  await expectAccessible(page, "region add dialog");
  await form.locator("#subCode").fill("99");
  await form.locator("#name").fill("测试新区");
  await page.getByTestId("region-save").click();
  await toast(page, "新增成功");

  await table(page)
    .locator(".ant-table-row", { hasText: "320199" })
    .filter({ hasText: "测试新区" })
    .waitFor();
  await node(tree, "测试新区").waitFor();
});
