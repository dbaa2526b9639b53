import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { Browser, Locator, Page } from "playwright-core";
import { expectAccessible } from "./axe.ts";
import {
  launchBrowser,
  openSession,
  type RunningServer,
  type Session,
  signIn,
  startServer,
  storedToken,
  textOf,
} from "./harness.ts";
import { call } from "./registry-helpers.ts";
import { downloadOf, sheetRows } from "./workbook-helpers.ts";

/**
 * 待关注账户 on the demo site, as a site's caller uses it: the low balances with room, owner and
 * phone; the accounts cut within a few days with how long each lasts; the list as Excel; a
 * reminder SMS to the ticked owners, logged per owner; and the bell naming room and owner, with
 * rule names in English on the English console.
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

interface Listed {
  id: string;
  roomName: string;
  ownerName: string;
  phone: string;
  productCode: string;
  daysUntilCut: number | null;
}

const cells = async (row: Locator) =>
  Promise.all((await row.locator("td").all()).map((cell) => textOf(cell)));

async function openScreen(page: Page): Promise<Locator> {
  const sidebar = page.getByTestId("sidebar");
  await sidebar.locator('[data-testid="menu-group"][data-code="operation"]').click();
  await sidebar.locator('[data-testid="menu-item"][data-code="attention"]').click();
  await page.waitForURL("**/operation/attention");
  const screen = page.getByTestId("attention");
  await screen.locator(".ant-table-row").first().waitFor();
  await screen.locator(".ant-spin-spinning").waitFor({ state: "detached" });
  return screen;
}

async function story(session: Session, token: string) {
  const { page } = session;
  const screen = await openScreen(page);
  await expectAccessible(page, "attention: low balances");

  // The first page is the server's first page, each row with its room, owner and phone in view.
  const levels = await call<{ records: Listed[] }>(server.baseUrl, token, "/api/blade-pms/attention/page", {
    query: { current: "1", size: "10" },
  });
  assert.ok(levels.records.length > 0, "the demo site has low balances");
  const first = await cells(screen.locator(".ant-table-row").first());
  const expected = levels.records[0]!;
  for (const value of [expected.roomName, expected.ownerName, expected.phone, expected.productCode])
    assert.ok(first.includes(value), `${value} is in the first row: ${first.join(" | ")}`);

  // Cut within 3 days: every row the server finds, each cut within 3 days.
  await screen
    .getByTestId("attention-mode")
    .getByText(/即将断电|Cut soon/)
    .click();
  const days = screen.getByTestId("attention-days");
  await days.fill("3");
  await screen.getByTestId("attention-search").click();
  await screen.locator(".ant-spin-spinning").waitFor({ state: "detached" });
  const soon = await call<{ records: Listed[]; total: number }>(
    server.baseUrl,
    token,
    "/api/blade-pms/attention/page",
    { query: { cutWithinDays: "3", current: "1", size: "50" } },
  );
  assert.ok(soon.records.length > 0, "some demo accounts are cut within 3 days");
  assert.ok(soon.records.every((r) => r.daysUntilCut !== null && r.daysUntilCut <= 3));
  await screen.locator(".ant-table-row").first().waitFor();
  assert.equal(
    await screen.locator(".ant-table-row").count(),
    Math.min(soon.records.length, 10),
    "the screen lists the server's rows",
  );
  await expectAccessible(page, "attention: cut soon");

  // The list as Excel: the same accounts, room, owner and phone first.
  const download = await downloadOf(page, () => screen.getByTestId("attention-export").click());
  assert.match(download.suggestedFilename(), /\.xlsx$/);
  const [header, ...lines] = await sheetRows(download);
  assert.deepEqual(header!.slice(0, 3), ["房间", "业主", "手机号码"]);
  assert.equal(lines.length, soon.total);
  assert.deepEqual(lines[0]!.slice(0, 3), [
    soon.records[0]!.roomName,
    soon.records[0]!.ownerName,
    soon.records[0]!.phone,
  ]);

  // Tick two rows and remind their owners: one message each, logged per owner.
  const rows = screen.locator(".ant-table-row");
  const ticked = Math.min(2, soon.records.length);
  for (let i = 0; i < ticked; i++) await rows.nth(i).locator(".ant-checkbox-input").check();
  await screen.getByTestId("attention-remind").click();
  await page.getByTestId("attention-remind-ok").click();
  const notice = page.locator(".ant-message-notice").last();
  await notice.waitFor();
  const said = await textOf(notice);
  const owners = new Set(soon.records.slice(0, ticked).map((r) => r.ownerName));
  const queued = await call<{ records: { ownerName: string; ruleCode: string }[] }>(
    server.baseUrl,
    token,
    "/api/blade-pms/messagequeue/list",
    { query: { ruleCode: "reminder", current: "1", size: "50" } },
  );
  assert.deepEqual(
    new Set(queued.records.filter((m) => m.ruleCode === "reminder").map((m) => m.ownerName)),
    owners,
    `a reminder per ticked owner (${said})`,
  );
  await expectAccessible(page, "attention: reminded");
}

test("待关注账户: who runs out, Excel, a reminder per owner; the bell names room and owner", async () => {
  const session = await openSession(browser, server.baseUrl);
  try {
    const { page } = session;
    await signIn(page, manager);
    const token = (await storedToken(page)) ?? "";
    await story(session, token);
    assert.match(await textOf(page.locator(".ant-message-notice").last()), /已排队 \d+ 条/);

    // The bell: each card names the room and owner of the meter; in English, the rules' English names.
    // The demo starts with its line-loss alarms (on a building's master meter: no room, no owner);
    // the meters' own alarms come with the fleet's first polls, so the bell is read once one is there.
    const deadline = Date.now() + 90_000;
    for (;;) {
      const first = await call<{ records: { roomName: string; ownerName: string }[] }>(
        server.baseUrl,
        token,
        "/api/blade-pms/checkRecord/upPage",
        { query: { current: "1", size: "10" } },
      );
      if (first.records.some((r) => r.roomName && r.ownerName)) break;
      assert.ok(Date.now() < deadline, "a meter's alarm naming its room and owner within 90 s");
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
    await page.reload();
    await page.getByTestId("notice-button").click();
    await page.getByTestId("notice-card").first().waitFor();
    // The cards the bell shows (read when the page opened; newer alarms wait for its next poll).
    const shown = await page
      .getByTestId("notice-card")
      .evaluateAll((cards) => cards.map((card) => card.getAttribute("data-record")));
    const bell = await call<{ records: { id: string; roomName: string; ownerName: string }[] }>(
      server.baseUrl,
      token,
      "/api/blade-pms/checkRecord/upPage",
      { query: { current: "1", size: "50" } },
    );
    const named = bell.records.find((r) => shown.includes(r.id) && r.roomName && r.ownerName);
    assert.ok(named, "the demo's alarms name rooms and owners");
    const card = page.locator(`[data-testid="notice-card"][data-record="${named.id}"]`);
    const place = await textOf(card.getByTestId("notice-place"));
    assert.ok(place.includes(named.roomName) && place.includes(named.ownerName), place);
    await expectAccessible(page, "bell");
    await page.keyboard.press("Escape");

    await page.getByTestId("language-switch").click();
    await page.getByTestId("language-en").click();
    await page.waitForFunction(() => document.documentElement.lang === "en");
    await page.getByTestId("notice-button").click();
    const rule = page.getByTestId("notice-card").first().getByTestId("notice-rule");
    await rule.filter({ hasText: /[A-Za-z]/ }).waitFor();
    assert.doesNotMatch(await textOf(rule), /[\u4e00-\u9fff]/, "the rule reads in English");
    await page.keyboard.press("Escape");
    await page.reload();
    const screen = page.getByTestId("attention");
    await screen.locator(".ant-table-row").first().waitFor();
    await screen.getByText("Low balances").waitFor();
    await expectAccessible(page, "attention in English");
    assert.deepEqual(session.errors, [], "no page error");
  } finally {
    await session.context.close();
  }
});
