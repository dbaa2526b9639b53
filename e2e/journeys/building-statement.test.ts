import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import ExcelJS from "exceljs";
import type { Browser, Download, Page } from "playwright-core";
import { expectAccessible } from "../axe.ts";
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
import { downloadOf } from "../workbook-helpers.ts";

/**
 * A site manager's month end, through the console only: open 月度对账单, pick a building of the
 * demo site, show last month's statement, download it as Excel and as PDF. Once in Chinese, once
 * in English; axe on every step. The API is asked only afterwards: the screen's figures are the
 * ledger's (each account's closed days), the sheet's are the screen's, the PDF names the building.
 */

const manager = { tenantId: "100001", username: "admin", password: "admin" } as const;
const pms = "/api/blade-pms";

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
  screen: string;
  title: RegExp;
}
const zh: Words = { screen: "月度对账单", title: /月度对账单/ };
const en: Words = { screen: "Monthly statements", title: /statement for/ };

/** yuan text → fen, exactly. */
const fen = (yuan: string) => {
  const negative = yuan.trim().startsWith("-");
  const [whole, fraction = ""] = yuan.trim().replace("-", "").split(".");
  const value = BigInt(whole || "0") * 100n + BigInt(fraction.padEnd(2, "0").slice(0, 2));
  return negative ? -value : value;
};
/** A sheet's number (written as a number of yuan) → fen. */
const sheetFen = (value: unknown) => BigInt(Math.round(Number(value) * 100));

async function bytesOf(download: Download): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await download.createReadStream()) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}

/**
 * The PDF's /Title: pdfkit writes it as an object of its own holding a literal string, UTF-16BE
 * with a byte-order mark (the page text is in font glyphs, not extractable without a PDF library).
 */
function pdfTitle(pdf: Buffer): string | undefined {
  const text = pdf.toString("latin1");
  const ref = /\/Title (\d+) 0 R/.exec(text);
  const start = ref ? text.indexOf("(", text.indexOf(`\n${ref[1]} 0 obj`)) : text.indexOf("/Title (") + 7;
  if (start < 0 || (ref && text.indexOf(`\n${ref[1]} 0 obj`) < 0)) return undefined;
  const bytes: number[] = [];
  const escapes: Record<string, number> = { n: 10, r: 13, t: 9, b: 8, f: 12 };
  for (let i = start + 1, depth = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "\\") {
      const next = text[++i]!;
      if (/[0-7]/.test(next)) {
        const octal = text.slice(i, i + 3).match(/^[0-7]{1,3}/)![0];
        bytes.push(Number.parseInt(octal, 8));
        i += octal.length - 1;
      } else bytes.push(escapes[next] ?? next.charCodeAt(0));
      continue;
    }
    if (c === "(") depth++;
    if (c === ")" && depth-- === 0) break;
    bytes.push(c.charCodeAt(0));
  }
  const raw = Buffer.from(bytes);
  if (raw[0] === 0xfe && raw[1] === 0xff) return raw.subarray(2).swap16().toString("utf16le");
  return raw.toString("latin1");
}

/** Opens a screen as an operator does: Ctrl+K, its name, Enter. */
async function openByName(page: Page, name: string) {
  await page.keyboard.press("Control+k");
  await page.keyboard.type(name);
  await page.getByTestId("menu-search-label").filter({ hasText: name }).first().waitFor();
  await page.keyboard.press("Enter");
  const screen = page.locator('[data-testid="month-statement-page"]:visible');
  await screen.waitFor();
  await expectAccessible(page, "monthly statement screen");
  return screen;
}

/** The amount of one line of the statement's summary. */
const lineAmount = async (page: Page, key: string) =>
  (
    (await page.locator(`[data-testid="month-line-${key}"]:visible [data-testid="amount"]`).textContent()) ??
    ""
  ).trim();

async function journey(session: Session, words: Words, building: string) {
  const { page } = session;
  const screen = await openByName(page, words.screen);

  // Building is the scope offered first; last month is the month offered.
  await screen.locator("#monthStatement_building").click();
  await page
    .locator(".ant-select-dropdown:visible .ant-select-tree-node-content-wrapper", { hasText: building })
    .first()
    .click();
  await page.locator(".ant-select-dropdown:visible").waitFor({ state: "detached" });
  await expectAccessible(page, "building picked");
  await screen.getByTestId("month-statement-show").click();
  const statement = screen.getByTestId("month-statement");
  await statement.waitFor();
  await screen.locator(".ant-spin-spinning").waitFor({ state: "detached" });
  const title = (await statement.getByTestId("month-statement-title").textContent()) ?? "";
  assert.match(title, words.title);
  assert.ok(title.includes(building), title);
  assert.equal(await statement.getByTestId("month-statement-balanced").getAttribute("data-balanced"), "true");
  await expectAccessible(page, "statement shown");

  const shown = {
    opening: await lineAmount(page, "opening"),
    recharge: await lineAmount(page, "recharge"),
    refund: await lineAmount(page, "refund"),
    electricity: await lineAmount(page, "usage-1-total"),
    fee: await lineAmount(page, "fee"),
    closing: await lineAmount(page, "closing"),
  };
  const month = /(\d{4}-\d{2})/.exec(title)![1]!;

  // Excel: the summary sheet's lines and the accounts sheet's total are the screen's.
  const excel = await downloadOf(page, () => screen.getByTestId("month-statement-excel").click());
  assert.match(excel.suggestedFilename(), /\.xlsx$/);
  const book = new ExcelJS.Workbook();
  await book.xlsx.load((await bytesOf(excel)) as unknown as ArrayBuffer);
  const [summary, accounts] = book.worksheets;
  assert.ok(summary && accounts, "two sheets");
  const lines = new Map<string, unknown>();
  summary.eachRow((row) => lines.set(String(row.getCell(1).value), row.getCell(3).value));
  assert.equal(sheetFen(lines.get("期初余额")), fen(shown.opening));
  assert.equal(sheetFen(lines.get("充值")), fen(shown.recharge));
  assert.equal(sheetFen(lines.get("退费")), fen(shown.refund));
  assert.equal(sheetFen(lines.get("月固定费")), fen(shown.fee));
  assert.equal(sheetFen(lines.get("期末余额")), fen(shown.closing));
  const total = accounts.getRow(accounts.rowCount);
  assert.equal(total.getCell(1).value, "合计");
  // The closing balance's column found by its header, as columns come and go (公摊 came).
  const headers = (accounts.getRow(1).values as unknown[]).map((value) => String(value ?? ""));
  const closingColumn = headers.indexOf("期末余额");
  assert.ok(closingColumn > 0, headers.join("|"));
  assert.equal(sheetFen(total.getCell(closingColumn).value), fen(shown.closing));
  let closingSum = 0n;
  for (let r = 2; r < accounts.rowCount; r++)
    closingSum += sheetFen(accounts.getRow(r).getCell(closingColumn).value);
  assert.equal(closingSum, fen(shown.closing), "the accounts add up to the building");
  await expectAccessible(page, "after the Excel download");

  // PDF: a PDF, not empty, titled with the building.
  const pdf = await downloadOf(page, () => screen.getByTestId("month-statement-pdf").click());
  assert.match(pdf.suggestedFilename(), /\.pdf$/);
  const bytes = await bytesOf(pdf);
  assert.equal(bytes.subarray(0, 5).toString("latin1"), "%PDF-");
  assert.ok(bytes.length > 2000, `${bytes.length} bytes`);
  assert.ok(pdfTitle(bytes)?.includes(building), `title: ${pdfTitle(bytes)}`);
  await expectAccessible(page, "after the PDF download");

  // Afterwards only: the screen is the ledger's own figures, each account's closed days summed.
  const token = (await storedToken(page)) ?? "";
  const areas = await call<{ id: string; areaName: string }[]>(server.baseUrl, token, `${pms}/area/list`, {
    query: { areaName: building },
  });
  const area = areas.find((a) => a.areaName === building);
  assert.ok(area, `${building} is an area`);
  const api = await call<{ accountPage: { records: { accountId: string }[]; total: number } }>(
    server.baseUrl,
    token,
    `${pms}/statement/month`,
    { query: { month, scope: "building", scopeId: String(area.id), size: "500" } },
  );
  assert.equal(api.accountPage.records.length, api.accountPage.total);
  const [year, mm] = month.split("-").map(Number) as [number, number];
  const lastDay = `${month}-${String(new Date(Date.UTC(year, mm, 0)).getUTCDate()).padStart(2, "0")}`;
  const ledger = { opening: 0n, closing: 0n, credit: 0n, usageCharge: 0n, fee: 0n };
  for (const { accountId } of api.accountPage.records) {
    const own = await call<{
      openingBalance: string | null;
      closingBalance: string | null;
      totals: { usageCharge: string; fee: string };
    }>(server.baseUrl, token, `${pms}/account/statement`, {
      query: { accountId, startDay: `${month}-01`, endDay: lastDay },
    });
    ledger.opening += fen(own.openingBalance ?? "0");
    ledger.closing += fen(own.closingBalance ?? "0");
    ledger.usageCharge += fen(own.totals.usageCharge);
    ledger.fee += fen(own.totals.fee);
  }
  assert.equal(fen(shown.opening), ledger.opening, "opening balance");
  assert.equal(fen(shown.closing), ledger.closing, "closing balance");
  assert.equal(fen(await lineAmount(page, "fee")), ledger.fee, "monthly fees");
  const charged = fen(shown.electricity) + fen((await lineAmountOr(page, "usage-2-total")) ?? "0");
  assert.equal(charged, ledger.usageCharge, "usage charges");
}

/** A line's amount, or undefined when the statement has no such line. */
async function lineAmountOr(page: Page, key: string) {
  const line = page.locator(`[data-testid="month-line-${key}"]:visible [data-testid="amount"]`);
  return (await line.count()) > 0 ? ((await line.textContent()) ?? "").trim() : undefined;
}

test("a manager opens last month's statement of a building, downloads it as Excel and PDF", async () => {
  const session = await openSession(browser, server.baseUrl);
  try {
    await signIn(session.page, manager);
    await journey(session, zh, "1号楼");

    // The same story in English, for another building.
    await session.page.getByTestId("language-switch").click();
    await session.page.getByTestId("language-en").click();
    await session.page.waitForFunction(() => document.documentElement.lang === "en");
    await journey(session, en, "2号楼");
    assert.deepEqual(session.errors, [], "no page error");
    assert.deepEqual(session.cspViolations, [], "the Content-Security-Policy blocked nothing");
  } finally {
    await session.context.close();
  }
});
