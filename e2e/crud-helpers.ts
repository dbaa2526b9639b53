import type { Locator, Page } from "playwright-core";

/** The generic resource screen of `resource`, once its first load has finished. */
export async function openResource(page: Page, path: string, resource: string): Promise<Locator> {
  await page.goto(path);
  const screen = page.locator(`[data-testid="resource-page"][data-resource="${resource}"]`);
  await screen.waitFor();
  await screen.locator(".ant-table-tbody").waitFor();
  await screen.locator(".ant-spin-spinning").waitFor({ state: "detached" });
  return screen;
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
