import type { Locator, Page } from "playwright-core";
import { expectAccessible } from "./axe.ts";

/** The generic resource screen of `resource`, once its first load has finished. */
export async function openResource(page: Page, path: string, resource: string): Promise<Locator> {
  await page.goto(path);
  const screen = page.locator(`[data-testid="resource-page"][data-resource="${resource}"]`);
  await screen.waitFor();
  await screen.locator(".ant-table-tbody").waitFor();
  await screen.locator(".ant-spin-spinning").waitFor({ state: "detached" });
  // Every screen a test opens is checked against WCAG 2.1 A/AA as it first shows.
  await expectAccessible(page, `screen ${path}`);
  return screen;
}

/** Opens the screen's add dialog with 新增 and checks it against WCAG 2.1 A/AA. */
export async function openAddDialog(screen: Locator): Promise<Locator> {
  const page = screen.page();
  await screen.getByTestId("crud-add").click();
  await dialog(page).waitFor();
  await page.waitForLoadState("networkidle");
  await expectAccessible(page, "add dialog");
  return dialog(page);
}

/** The open add / edit / view dialog. */
export const dialog = (page: Page) => page.locator(".ant-modal", { has: page.getByTestId("crud-dialog") });

/** The control of a form field (antd gives it the field name as id). */
export const field = (page: Page, name: string) => dialog(page).locator(`#${name}`);

/** Opens a select of the dialog and picks the option with this label. */
export async function pick(page: Page, name: string, label: string): Promise<void> {
  await field(page, name).click();
  await page
    .locator(".ant-select-dropdown:visible .ant-select-item-option", { hasText: label })
    .first()
    .click();
}

/** Waits for a toast with this text. */
export const toast = (page: Page, text: string) =>
  page.locator(".ant-message-notice", { hasText: text }).first().waitFor();

/** The table rows of a resource screen containing `text`. */
export const rowsWith = (screen: Locator, text: string) =>
  screen.locator(".ant-table-row", { hasText: text });

/** The explanation texts under the dialog's fields (validation messages). */
export const fieldErrors = (page: Page) =>
  dialog(page).locator(".ant-form-item-explain-error").allInnerTexts();

/** Waits until the table has finished reloading. */
export const settled = (screen: Locator) =>
  screen.locator(".ant-spin-spinning").waitFor({ state: "detached" });

/** Opens a tree select of the dialog, picks the node with this title, and closes the dropdown. */
export async function pickTreeNode(page: Page, name: string, title: string): Promise<void> {
  await field(page, name).click();
  await page
    .locator(".ant-select-dropdown:visible .ant-select-tree-node-content-wrapper", { hasText: title })
    .first()
    .click();
  await dialog(page).locator(".ant-modal-title").click();
  await page.locator(".ant-select-dropdown:visible").waitFor({ state: "detached" });
}

/**
 * Clicks a row action: a button of the row when it is one of the first shown, else the item of
 * the row's "more" menu.
 */
export async function clickRowAction(row: Locator, testId: string): Promise<void> {
  const shown = row.getByTestId(testId);
  if ((await shown.count()) > 0) return shown.click();
  await row.getByTestId("row-more").click();
  await row.page().locator(".ant-dropdown:visible").getByTestId(testId).click();
}
