import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { Browser, Locator, Page } from "playwright-core";
import { expectAccessible } from "../axe.ts";
import { clickRowAction, settled } from "../crud-helpers.ts";
import {
  launchBrowser,
  openSession,
  type RunningServer,
  type Session,
  signIn,
  startServer,
  storedToken,
  textOf,
} from "../harness.ts";
import { call, eventually, tokenOf } from "../registry-helpers.ts";

/**
 * A front desk closes an account and opens it again, through the console only: find the meter,
 * 销户, read the settlement (final reading, refund) before confirming, confirm, print the slip to
 * sign (the site's name, 大写金额, signature lines), see supply cut once the simulated meter has been
 * read back, find the final reading in 销户记录; then open the meter again with a deposit paid by
 * WeChat and get its receipt. Once in Chinese, once in English, axe on every step. The API is asked
 * only to pick the demo's accounts beforehand and afterwards to see what the server keeps.
 */

const manager = { tenantId: "100001", username: "admin", password: "admin" } as const;
const SITE = "阳光公寓(演示)";

let server: RunningServer;
let browser: Browser;

/** When the server started: a meter's first live reading is later (the demo's history is older). */
let startedAt = 0;

before(async () => {
  // Polled hourly: no new reading lands between the settlement shown and the one booked, once the
  // first round has read the meters (pickAccounts waits for it).
  startedAt = Date.now();
  server = await startServer({ DEMO_DATA: "1", POLL_INTERVAL_SECONDS: "3600" });
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

interface Words {
  meters: string;
  closings: string;
  closed: string;
  meterNo: string;
  a4: string;
  supplyHeader: string;
  cut: string;
  supplyCut: string;
  signature: string;
  capitals: RegExp;
  opened: string;
  wechat: string;
  openType: string;
}

const zh: Words = {
  meters: "电表管理",
  closings: "销户记录",
  closed: "已销户",
  meterNo: "表号",
  a4: "A4 整页",
  supplyHeader: "通断状态",
  cut: "拉闸",
  supplyCut: "已拉闸（回读确认）",
  signature: "业主(签字):",
  capitals: /^[零壹贰叁肆伍陆柒捌玖拾佰仟万亿元角分整]+$/,
  opened: "开户成功",
  wechat: "微信",
  openType: "开户押金",
};
const en: Words = {
  meters: "Electric meters",
  closings: "Account closings",
  closed: "Closed",
  meterNo: "Meter no.",
  a4: "A4 full page",
  supplyHeader: "Supply",
  cut: "Off",
  supplyCut: "Cut (confirmed by read-back)",
  signature: "Owner (signature):",
  capitals: /^[零壹贰叁肆伍陆柒捌玖拾佰仟万亿元角分整]+$/,
  opened: "Account opened",
  wechat: "WeChat",
  openType: "Account opening deposit",
};

/** Opens a screen as an operator does: Ctrl+K, its name, Enter. */
async function openByName(page: Page, name: string, screen: Locator): Promise<Locator> {
  await page.keyboard.press("Control+k");
  await page.keyboard.type(name);
  await page.getByTestId("menu-search-label").filter({ hasText: name }).first().waitFor();
  await page.keyboard.press("Enter");
  await screen.locator(".ant-table-row").first().waitFor();
  await settled(screen);
  await expectAccessible(page, `screen ${name}`);
  return screen;
}

/** The meter's row on the electric meters' screen, searched by its number. */
async function meterRow(meters: Locator, words: Words, code: string): Promise<Locator> {
  await meters.getByLabel(words.meterNo, { exact: true }).fill(code);
  await meters.getByTestId("crud-search-submit").click();
  await settled(meters);
  const row = meters.locator(".ant-table-row", { hasText: code });
  await row.first().waitFor();
  return row.first();
}

async function closeReceipt(page: Page): Promise<void> {
  await page.getByTestId("counter-receipt-close").click();
  await page.getByTestId("counter-receipt").waitFor({ state: "detached" });
}

async function journey(session: Session, words: Words, code: string) {
  const { page } = session;
  const meters = await openByName(
    page,
    words.meters,
    page.locator('[data-testid="resource-page"][data-resource="meter"]:visible'),
  );

  // 销户: the settlement comes first.
  await clickRowAction(await meterRow(meters, words, code), "row-account-close");
  const preview = page.getByTestId("close-preview");
  await preview.waitFor();
  await expectAccessible(page, "closing settlement");
  const finalReading = await textOf(preview.getByTestId("preview-final-reading"));
  const refund = await textOf(preview.getByTestId("preview-refund"));
  assert.match(finalReading, /^\d+\.\d{2}$/);
  assert.match(refund, /^\d+\.\d{2}$/);
  assert.ok(Number(refund) > 0, "the account had money to pay back");
  await page.getByTestId("account-close-ok").click();
  await page.getByTestId("account-settlement").waitFor();
  assert.match(await textOf(page.getByTestId("settlement-refunded")), new RegExp(`^${refund} `));
  await expectAccessible(page, "closed");

  // The slip to sign: the site's name, the amount in capitals, the final reading, signature lines.
  await page.getByTestId("close-print-slip").click();
  const slip = page.getByTestId("counter-receipt");
  await slip.waitFor();
  await expectAccessible(page, "closing slip");
  assert.equal(await textOf(slip.getByTestId("receipt-site")), SITE);
  assert.equal(await textOf(slip.getByTestId("receipt-amount")), refund);
  assert.match(await textOf(slip.getByTestId("receipt-capitals")), words.capitals);
  assert.equal(await textOf(slip.getByTestId("receipt-final-reading")), finalReading);
  assert.match(
    await textOf(slip.getByTestId("receipt-signatures")),
    new RegExp(words.signature.replace(/[()]/g, "\\$&")),
  );
  assert.match(await textOf(slip.getByTestId("receipt-no")), /^X\d{8}\d+$/);
  // On a whole A4 sheet: the printed page is A4 portrait (595 × 842 pt), the slip on one page.
  await page.getByTestId("receipt-layout").getByText(words.a4).click();
  await page.emulateMedia({ media: "print" });
  const pdf = Buffer.from(await page.pdf({ preferCSSPageSize: true })).toString("latin1");
  await page.emulateMedia({ media: "screen" });
  assert.match(pdf, /\/MediaBox\s*\[\s*0 0 59[45]\.?\d* 84[12]\.?\d*\s*\]/, "A4 portrait");
  assert.equal(pdf.match(/\/Type\s*\/Page\b/g)?.length, 1, "one slip, one page");
  await closeReceipt(page);
  await page.getByTestId("account-close-done").click();
  await page.getByTestId("account-close-dialog").waitFor({ state: "detached" });

  // Supply shows cut once the gateway has read the simulated meter back.
  await eventually(async () => {
    const row = await meterRow(meters, words, code);
    const headers = (await meters.locator(".ant-table-thead th").allInnerTexts()).map((h) => h.trim());
    const column = headers.indexOf(words.supplyHeader);
    assert.ok(column >= 0, headers.join("|"));
    assert.equal(await textOf(row.locator("td").nth(column)), words.cut);
  }, 60_000);
  await expectAccessible(page, "supply cut");

  // 销户记录 keeps the final reading and says supply was cut.
  const closings = await openByName(
    page,
    words.closings,
    page.locator('[data-testid="money-list"][data-list="closings"]'),
  );
  await closings.getByLabel(words.meterNo, { exact: true }).fill(code);
  await closings.getByTestId("money-search-submit").click();
  await eventually(async () => {
    const text = await textOf(closings.locator(".ant-table-row", { hasText: code }).first());
    assert.ok(text.includes(finalReading), text);
    assert.ok(text.includes(words.supplyCut), text);
    assert.ok(text.includes(words.closed), text);
  });

  // The meter opens again, its deposit paid by WeChat: the receipt comes at once.
  await openByName(page, words.meters, meters);
  await clickRowAction(await meterRow(meters, words, code), "row-account-open");
  const opening = page.getByTestId("account-open-dialog");
  await opening.waitFor();
  await opening.locator("#accountOpen_deposit").fill("50.00");
  await opening.getByTestId("account-open-method").click();
  await page
    .locator(".ant-select-dropdown:visible .ant-select-item-option")
    .filter({ hasText: new RegExp(`^${words.wechat}$`) })
    .click();
  await expectAccessible(page, "opening with a deposit");
  await page.getByTestId("account-open-ok").click();
  const receipt = page.getByTestId("counter-receipt");
  await receipt.waitFor();
  await expectAccessible(page, "opening receipt");
  assert.equal(await textOf(receipt.getByTestId("receipt-site")), SITE);
  assert.equal(await textOf(receipt.getByTestId("receipt-type")), words.openType);
  assert.equal(await textOf(receipt.getByTestId("receipt-amount")), "50.00");
  assert.equal(await textOf(receipt.getByTestId("receipt-capitals")), "伍拾元整");
  assert.ok((await textOf(receipt)).includes(words.wechat));
  await closeReceipt(page);

  // Afterwards only: what the server keeps.
  const token = (await storedToken(page)) ?? "";
  const closed = await call<{ records: Record<string, unknown>[] }>(
    server.baseUrl,
    token,
    "/api/blade-pms/datacloseaccount/page",
    { query: { productCode: code, current: "1", size: "10" } },
  );
  const closing = closed.records.find((r) => r.productCode === code);
  assert.deepEqual(
    [closing?.finalReading, closing?.refund, closing?.closeSupply, closing?.closeSupplyState],
    [finalReading, refund, 1, "success"],
  );
  const opened = await call<{ records: Record<string, unknown>[] }>(
    server.baseUrl,
    token,
    "/api/blade-pms/dataopenaccount/page",
    { query: { productCode: code, current: "1", size: "10" } },
  );
  const latest = opened.records.find((r) => r.productCode === code);
  assert.deepEqual([latest?.deposit, latest?.paymentMethod], ["50.00", 3]);
}

/** An instant the server shows (yyyy-MM-dd HH:mm:ss, the site's zone: Asia/Shanghai, +08:00). */
const shownInstant = (text: string) => Date.parse(`${text.replace(" ", "T")}+08:00`);

/**
 * Two of the demo's remote-control electric accounts with money on them and supply on, each read by
 * the gateway since the server started: otherwise the first round's reading could land between the
 * settlement shown and the one booked, and the refund would move by its usage.
 */
async function pickAccounts(): Promise<[string, string]> {
  const token = await tokenOf(server.baseUrl, manager.tenantId, manager.username, manager.password);
  let codes: string[] = [];
  await eventually(async () => {
    const hits = await call<{
      records: {
        meters: {
          energyType: number;
          meterId: string;
          productCode: string;
          switchStatus: number;
          account: { controlStatus: number; balance: string; alarmLevel: number } | null;
        }[];
      }[];
    }>(server.baseUrl, token, "/api/blade-pms/ownerRecharge/search", { query: { current: "1", size: "50" } });
    const picked = hits.records
      .flatMap((hit) => hit.meters)
      .filter(
        (m) =>
          m.energyType === 1 &&
          m.switchStatus === 0 &&
          m.account?.controlStatus === 1 &&
          m.account.alarmLevel === 0 &&
          Number(m.account.balance) > 0,
      )
      .slice(0, 2);
    assert.equal(picked.length, 2, "two remote-control accounts with money");
    for (const { meterId, productCode } of picked) {
      const preview = await call<{ finalReadTime: string }>(
        server.baseUrl,
        token,
        "/api/blade-pms/account/closePreview",
        { query: { meterId, energyType: "1" } },
      );
      // Shown to the second: a reading in the server's first second counts as live.
      assert.ok(shownInstant(preview.finalReadTime) >= startedAt - 1_000, `meter ${productCode} read live`);
    }
    codes = picked.map((m) => m.productCode);
  }, 120_000);
  return [codes[0]!, codes[1]!];
}

test("a front desk closes an account (settlement, slip, supply cut, final reading kept) and opens it again", async () => {
  const [first, second] = await pickAccounts();
  const session = await openSession(browser, server.baseUrl);
  try {
    await signIn(session.page, manager);
    await journey(session, zh, first);

    // The same story in English.
    await session.page.getByTestId("language-switch").click();
    await session.page.getByTestId("language-en").click();
    await session.page.waitForFunction(() => document.documentElement.lang === "en");
    await journey(session, en, second);
    assert.deepEqual(session.errors, [], "no page error");
    assert.deepEqual(session.cspViolations, [], "the Content-Security-Policy blocked nothing");
  } finally {
    await session.context.close();
  }
});
