import assert from "node:assert/strict";
import { test } from "node:test";
import type { Page } from "playwright-core";
import { axeViolations, describeViolations, expectAccessible, hoveredViolations } from "./axe.ts";
import { useBrowserSuite } from "./harness.ts";
import { signInOperator } from "./registry-helpers.ts";
import { untranslated, untranslatedEnglish } from "./untranslated.ts";

const demo = { tenantId: "100001", password: "admin", token: "" };

/** Stores a console setting the way the console does, to take effect on the next load. */
const remember = (page: Page, key: string, value: string) =>
  page.evaluate(
    ({ name, content }) => localStorage.setItem(name, JSON.stringify({ dataType: "string", content })),
    { name: key, content: value },
  );

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

/** Waits until the page shown has loaded what it loads. */
async function settle(page: Page): Promise<void> {
  await page.waitForLoadState("networkidle");
  await page.locator(".ant-spin-spinning:visible").first().waitFor({ state: "detached" });
}

/**
 * Visits every screen of the side menu and opens each one's add dialog where it has one, and
 * answers the violations found, screen by screen, so one run lists them all. In English it also
 * lists every Chinese label outside data, in Chinese every English phrase (untranslated.ts): one
 * walk serves both checks.
 */
async function sweep(page: Page, variant: string, withDialogs: boolean, english: boolean): Promise<string[]> {
  const failures: string[] = [];
  // Each label in the other language once, where it was first seen: the side menu is on every screen.
  const foreign = new Set<string>();
  // The whole page once (side menu unfolded, top bar, home); then each screen and dialog alone, as
  // the frame around them is the same on every screen and checking it again would double the run.
  const check = async (where: string, include?: string) => {
    const found = await axeViolations(page, include ? { include: [include] } : {});
    if (found.length > 0) failures.push(`${variant} ${where}:\n${describeViolations(found)}`);
    for (const label of await (english ? untranslated(page) : untranslatedEnglish(page))) {
      if (foreign.has(label)) continue;
      foreign.add(label);
      failures.push(`${variant} ${where}: untranslated ${label}`);
    }
  };
  const codes = await menuCodes(page);
  await check("home");
  for (const code of codes) {
    const entry = page.locator(`[data-testid="menu-item"][data-code="${code}"]`);
    const path = await entry.getAttribute("data-path");
    await entry.click();
    await page.waitForURL((url) => url.pathname.startsWith(path ?? "/"));
    // The router changes the address first and keeps the previous screen up while the next one's
    // code loads: wait for the screen of this address before looking at its buttons.
    const shown = page.locator(`.ml-page[data-page="${new URL(page.url()).pathname}"]:not([hidden])`);
    await shown.waitFor();
    await settle(page);
    await check(`screen ${code}`, `.ml-page[data-page="${new URL(page.url()).pathname}"]`);
    // A default (outlined) button as the pointer rests on it: its hover colour is the theme's too.
    const button = shown.locator(".ant-btn-default:not([disabled]):visible").first();
    if ((await button.count()) > 0) {
      const hovered = await hoveredViolations(page, button);
      if (hovered.length > 0)
        failures.push(`${variant} hovered button of ${code}:\n${describeViolations(hovered)}`);
    }
    // Kept-alive screens stay in the page, hidden: only the shown screen's button counts.
    const add = shown.locator('[data-testid="crud-add"]');
    if (!withDialogs || (await add.count()) === 0) continue;
    // By keyboard, which also rules out a pointer landing on a screen still settling.
    await add.first().focus();
    await page.keyboard.press("Enter");
    const open = page.locator(".ant-modal-wrap:visible");
    // A screen still loading may take the first key press for itself: press once more if so.
    await open.waitFor({ timeout: 5_000 }).catch(async () => {
      await add.first().focus();
      await page.keyboard.press("Enter");
      await open.waitFor().catch(() => assert.fail(`the add dialog of ${code} did not open from 新增`));
    });
    await settle(page);
    await check(`add dialog of ${code}`, ".ant-modal-wrap");
    await page.keyboard.press("Escape");
    await open.waitFor({ state: "detached" });
  }
  return failures;
}

/** A language and theme to sweep in, and whether the add dialogs are opened too. */
export interface SweepVariant {
  language: "zh" | "en";
  theme: "theme-default" | "theme-dark";
  withDialogs: boolean;
}

/**
 * One test per variant, on a demo server of the file's own. Every screen and add dialog is swept
 * in each language and each theme: Chinese on the default theme (a11y-sweep-zh) and English on the
 * dark one (a11y-sweep-en) cover every label and every colour, in two files so that they run side
 * by side. The other two pairings repeat them (the same colours, the same words) and run on asking
 * (A11Y_EVERY_PAIRING=1): a CI run's time goes to the journeys instead.
 */
export function sweepTests(variants: SweepVariant[]): void {
  // The demo site: its tenant has every registry, reading and system screen, with rows in them.
  const suite = useBrowserSuite({ env: { DEMO_DATA: "1" } });
  for (const { language, theme, withDialogs } of variants) {
    test(`axe finds no serious or critical WCAG 2.1 AA violation on any screen and no ${language === "en" ? "Chinese label" : "English phrase"} outside data: ${language}, ${theme}`, async () => {
      const { page } = suite.session;
      await page.goto("/login");
      await remember(page, "saber-language", language);
      await remember(page, "saber-theme", theme);
      await page.reload();
      // The console's own form (index.html's is checked in login-first-paint), in this theme's colours.
      await page.getByTestId("login-form").waitFor();
      await expectAccessible(page, `${language} ${theme} login`);
      await signInOperator(page, demo);
      const failures = await sweep(page, `${language} ${theme}`, withDialogs, language === "en");
      assert.equal(failures.length, 0, failures.join("\n\n"));
    });
  }
}

/** Whether the pairings that repeat the two swept in CI run too. */
export const everyPairing = process.env.A11Y_EVERY_PAIRING === "1";
