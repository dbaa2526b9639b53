import type { Locator, Page } from "playwright-core";

/** True while `target` (or something inside it) has the keyboard focus. */
export const hasFocus = (target: Locator) =>
  target.evaluate((node) => node === document.activeElement || node.contains(document.activeElement));

/** What has the focus now, for failure messages. */
export const focusedElement = (page: Page) =>
  page.evaluate(() => {
    const node = document.activeElement;
    if (!node) return "nothing";
    const name = node.getAttribute("aria-label") ?? node.textContent ?? "";
    return `${node.tagName.toLowerCase()}${node.id ? `#${node.id}` : ""} "${name.trim().slice(0, 40)}"`;
  });

/**
 * Presses `key` until `target` has the focus, as a keyboard user moves through the page; fails
 * after `most` presses, naming where the focus got stuck (a keyboard trap shows up this way).
 */
export async function pressUntilFocused(
  page: Page,
  key: string,
  target: Locator,
  most = 40,
): Promise<number> {
  const seen: string[] = [];
  for (let presses = 0; presses <= most; presses++) {
    if (await hasFocus(target)) return presses;
    await page.keyboard.press(key);
    seen.push(await focusedElement(page));
  }
  throw new Error(
    `${most} × ${key} never reached the target; focus went:\n  ${seen.slice(-12).join("\n  ")}`,
  );
}

/** Waits until `target` has the focus (focus moves after a dialog's own close or open steps). */
export async function waitForFocus(page: Page, target: Locator): Promise<void> {
  const handle = await target.elementHandle();
  await page.waitForFunction(
    (node) => node === document.activeElement || node?.contains(document.activeElement),
    handle,
  );
}

/** The ids used more than once in the page: labels must point at one control each. */
export const duplicateIds = (page: Page) =>
  page.evaluate(() => {
    const counts = new Map<string, number>();
    for (const node of Array.from(document.querySelectorAll("[id]")))
      counts.set(node.id, (counts.get(node.id) ?? 0) + 1);
    return [...counts].filter(([, count]) => count > 1).map(([id]) => id);
  });
