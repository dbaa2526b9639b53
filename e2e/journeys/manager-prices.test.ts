import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { Browser, Locator, Page } from "playwright-core";
import { expectAccessible } from "../axe.ts";
import { dialog, field } from "../crud-helpers.ts";
import {
  launchBrowser,
  openSession,
  type RunningServer,
  type Session,
  signIn,
  startServer,
  storedToken,
} from "../harness.ts";
import { call } from "../registry-helpers.ts";

/**
 * A site manager's price change, through the console only: find the screen in one step (Ctrl+K),
 * find the scheme, change the residential ladder's first price and the shops' peak price, then
 * raise the alarm scheme's first threshold. Once in Chinese, once in English; axe on every step.
 * The API is asked only afterwards, to see that exactly what was typed is what the server keeps.
 */

const manager = { tenantId: "100001", username: "admin", password: "admin" } as const;

let server: RunningServer;
let browser: Browser;

before(async () => {
  server = await startServer({ DEMO_DATA: "1" });
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

interface Words {
  updated: string;
}

/** Opens a screen as an operator does: Ctrl+K, its name, Enter. */
async function openByName(page: Page, name: string, resource: string): Promise<Locator> {
  await page.keyboard.press("Control+k");
  await page.keyboard.type(name);
  const label = page.getByTestId("menu-search-label").filter({ hasText: name });
  await label.first().waitFor();
  await page.keyboard.press("Enter");
  const screen = page.locator(`[data-testid="resource-page"][data-resource="${resource}"]:visible`);
  await screen.locator(".ant-table-row").first().waitFor();
  await screen.locator(".ant-spin-spinning").waitFor({ state: "detached" });
  await expectAccessible(page, `${resource} screen`);
  return screen;
}

/** The row naming `text`, after searching the screen's own search form for it. */
async function findRow(screen: Locator, text: string): Promise<Locator> {
  const row = screen.locator(".ant-table-row", { hasText: text });
  await row.first().waitFor();
  return row.first();
}

async function edit(page: Page, row: Locator): Promise<Locator> {
  await row.getByTestId("row-edit").click();
  const modal = dialog(page);
  await modal.waitFor();
  await page.waitForLoadState("networkidle");
  await expectAccessible(page, "edit dialog");
  return modal;
}

async function save(page: Page, modal: Locator, words: Words): Promise<void> {
  await modal.getByTestId("crud-dialog-ok").click();
  await modal.waitFor({ state: "detached" });
  await page.locator(".ant-message-notice", { hasText: words.updated }).first().waitFor();
  await expectAccessible(page, "after saving");
}

async function replace(input: Locator, value: string): Promise<void> {
  await input.click();
  await input.press("Control+a");
  await input.pressSequentially(value);
}

async function schemeNamed(token: string, path: string, name: string): Promise<Record<string, unknown>> {
  const listed = await call<{ records: Record<string, unknown>[] }>(server.baseUrl, token, path, {
    query: { schemeName: name, current: "1", size: "10" },
  });
  const row = listed.records.find((r) => r.schemeName === name);
  assert.ok(row, `${name} is listed`);
  return call<Record<string, unknown>>(server.baseUrl, token, path.replace(/\/(page|list)$/, "/detail"), {
    query: { id: String(row.id) },
  });
}

async function journey(
  session: Session,
  words: Words,
  prices: { first: string; peak: string; alarm: string },
) {
  const { page } = session;
  const charging = await openByName(page, words === zh ? "收费方案" : "Charging schemes", "chargingScheme");

  // The residential ladder: its first tier's price.
  let modal = await edit(page, await findRow(charging, "居民阶梯电价"));
  await replace(modal.getByTestId("ladder-price-0"), prices.first);
  await save(page, modal, words);

  // The shops' time-of-use scheme: its peak price.
  modal = await edit(page, await findRow(charging, "商铺分时电价"));
  await replace(field(page, "peakPrice"), prices.peak);
  await save(page, modal, words);

  const alarms = await openByName(page, words === zh ? "告警方案" : "Alarm schemes", "alarmScheme");
  modal = await edit(page, await findRow(alarms, "标准告警"));
  await replace(field(page, "firstAlarm"), prices.alarm);
  await save(page, modal, words);

  // Afterwards only: the server keeps exactly what was typed, and nothing else moved.
  const token = (await storedToken(page)) ?? "";
  const ladder = await schemeNamed(token, "/api/blade-pms/chargingscheme/list", "居民阶梯电价");
  const tiers = JSON.parse(String(ladder.ladder)) as { limit: string | null; price: string }[];
  assert.equal(Number(tiers[0]?.price), Number(prices.first));
  assert.deepEqual(
    tiers.slice(1).map((tier) => tier.price),
    ["0.5383", "0.7883"],
    "the other tiers are as they were",
  );
  const tou = await schemeNamed(token, "/api/blade-pms/chargingscheme/list", "商铺分时电价");
  assert.equal(Number(tou.peakPrice), Number(prices.peak));
  assert.equal(Number(tou.tipPrice), 1.2, "the tip price is as it was");
  const alarm = await schemeNamed(token, "/api/blade-pms/alarmscheme/list", "标准告警");
  assert.equal(Number(alarm.firstAlarm), Number(prices.alarm));
  assert.equal(Number(alarm.secondAlarm), 20, "the second threshold is as it was");
}

const zh: Words = { updated: "修改成功" };
const en: Words = { updated: "Updated successfully" };

test("a manager changes a ladder price, a peak price and an alarm threshold in the console", async () => {
  const session = await openSession(browser, server.baseUrl);
  try {
    await signIn(session.page, manager);
    await journey(session, zh, { first: "0.4983", peak: "1.0500", alarm: "60.00" });

    // The same story in English.
    await session.page.getByTestId("language-switch").click();
    await session.page.getByTestId("language-en").click();
    await session.page.waitForFunction(() => document.documentElement.lang === "en");
    await journey(session, en, { first: "0.5083", peak: "1.1000", alarm: "75.50" });
    assert.deepEqual(session.errors, [], "no page error");
    assert.deepEqual(session.cspViolations, [], "the Content-Security-Policy blocked nothing");
  } finally {
    await session.context.close();
  }
});
