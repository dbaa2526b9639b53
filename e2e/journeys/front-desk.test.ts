import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { Browser, Locator, Page } from "playwright-core";
import { expectAccessible } from "../axe.ts";
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
import { call, chooseOption, eventually } from "../registry-helpers.ts";

/**
 * The front desk on the demo site, through the console only: an owner in arrears comes to the
 * desk and says where they live ("1号楼 109"); the desk opens the room's page in a second window,
 * finds the room with the counter's one box, takes cash, hands over the receipt, and sees the supply
 * come back on the room's page, open since before the payment, without 刷新: the simulated meter closes its relay
 * and the page hears of it by push. The pages and the command log read why each command was sent. Once in Chinese, once in English; axe on every step. The
 * API is asked only afterwards, to see what the server keeps.
 */

const desk = { tenantId: "100001", username: "admin", password: "admin" } as const;

let server: RunningServer;
let browser: Browser;

before(async () => {
  // The demo site with its simulated fleet: the account in arrears is cut off by the gateway as the
  // fleet comes up.
  server = await startServer({ DEMO_DATA: "1", POLL_INTERVAL_SECONDS: "10" });
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

interface Words {
  counter: string;
  commands: string;
  arrears: string;
  all: string;
  search: string;
  amount: string;
  supplyOn: string;
  supplyOff: string;
  recharge: string;
  restored: string;
  cut: string;
}

const zh: Words = {
  counter: "充值收费",
  commands: "命令记录",
  arrears: "欠费",
  all: "全部状态",
  search: "查找业主、房间或表计",
  amount: "金额",
  supplyOn: "合闸",
  supplyOff: "拉闸",
  recharge: "充值",
  restored: "合闸 · 充值恢复",
  cut: "拉闸 · 欠费自动断电",
};

const en: Words = {
  counter: "Recharge counter",
  commands: "Meter commands",
  arrears: "Arrears",
  all: "All levels",
  search: "Find an owner, room or meter",
  amount: "Amount",
  supplyOn: "Supply on",
  supplyOff: "Supply off",
  recharge: "Recharge",
  restored: "Restore supply · Restored by recharge",
  cut: "Cut supply · Automatic cut for arrears",
};

/** Opens a screen as an operator does: Ctrl+K, its name, Enter. */
async function openByName(page: Page, name: string): Promise<void> {
  await page.keyboard.press("Control+k");
  await page.keyboard.type(name);
  const label = page.getByTestId("menu-search-label").filter({ hasText: name });
  await label.first().waitFor();
  await page.keyboard.press("Enter");
}

/** The line of a hit's electric meter. */
const electricLine = (hit: Locator) => hit.locator('[data-testid="counter-hit-meter"][data-energy="1"]');

/** Opens a room's page from the top bar's search, typed as people say it ("1号楼 109"). */
async function openRoomPage(page: Page, room: string): Promise<Locator> {
  const box = page.getByTestId("global-search-input");
  await box.fill(room);
  const hit = page.getByTestId("global-search-panel").locator('[data-testid="search-hit"][data-kind="room"]');
  await hit.first().waitFor();
  await hit.first().click();
  const detail = page.locator('[data-testid="room-detail"]:visible');
  await detail.waitFor();
  return detail;
}

/** A meter's row in the room page's meters. */
const meterRow = (roomPage: Locator, meter: string) =>
  roomPage.getByTestId("detail-meters").locator(".ant-table-row", { hasText: meter });

/** Marks the document: the mark is gone if anything reloads the page. */
const markDocument = (page: Page) =>
  page.evaluate(() => {
    (window as unknown as { stillThisPage?: boolean }).stillThisPage = true;
  });
const stillThisDocument = (page: Page) =>
  page.evaluate(() => (window as unknown as { stillThisPage?: boolean }).stillThisPage === true);

/**
 * The Chinese story: the arrears room from the counter's level filter, its page opened from the
 * top bar's search, the room found again at the counter as the owner says it, a cash recharge, its
 * receipt, and the supply back on the room's page by push.
 */
async function payOffArrears(session: Session, words: Words): Promise<{ room: string; meter: string }> {
  const { page } = session;
  await openByName(page, words.counter);
  const counter = page.getByTestId("counter-page");
  await counter.waitFor();
  await expectAccessible(page, "counter");

  // Which room owes: the level filter lists it, and its meter's supply turns 拉闸 on this screen
  // by push once the gateway has cut it (the fleet is still coming up when the page opens).
  await chooseOption(page, counter.getByTestId("counter-level-filter"), words.arrears, false);
  const owing = counter.getByTestId("counter-hit").first();
  await owing.waitFor();
  await eventually(
    async () =>
      assert.equal(await textOf(electricLine(owing).getByTestId("counter-hit-supply")), words.supplyOff),
    240_000,
  );
  const room = await textOf(owing.getByTestId("counter-hit-room"));
  const meter = await textOf(electricLine(owing).getByTestId("counter-hit-code"));
  await expectAccessible(page, "arrears listed");

  // The room's page, opened in a second window from the top bar's search as the owner says it,
  // stays on screen while the desk works at the counter: it shows the cut and why.
  const side = await session.context.newPage();
  side.on("pageerror", (error) => session.errors.push(error.message));
  await side.goto("/");
  await markDocument(side);
  const roomPage = await openRoomPage(side, room);
  await eventually(async () =>
    assert.equal(await textOf(meterRow(roomPage, meter).getByTestId("detail-meter-supply")), words.supplyOff),
  );
  await eventually(async () =>
    assert.match(await textOf(roomPage.getByTestId("detail-commands")), new RegExp(words.cut)),
  );
  await expectAccessible(side, "room page");

  // Back at the counter, the owner says it as people do, without the space: "1号楼109".
  await page.bringToFront();
  await chooseOption(page, counter.getByTestId("counter-level-filter"), words.all, false);
  const box = counter.getByLabel(words.search);
  await box.fill(room.replace(" ", ""));
  await box.press("Enter");
  const hit = counter.getByTestId("counter-hit").first();
  await eventually(async () => assert.equal(await textOf(hit.getByTestId("counter-hit-room")), room));
  assert.equal(await textOf(electricLine(hit).getByTestId("counter-hit-supply")), words.supplyOff);
  await expectAccessible(page, "room found");

  // Cash (the form's default) for the electric account.
  await hit.getByTestId("counter-owner").click();
  const account = counter.getByTestId("counter-accounts").locator(".ant-table-row", { hasText: meter });
  await account.getByTestId("counter-recharge").click();
  const form = page.getByTestId("counter-form");
  await form.getByLabel(words.amount).fill("200.00");
  await expectAccessible(page, "recharge dialog");
  await page.getByTestId("counter-submit").click();
  await page.getByTestId("counter-receipt").waitFor();
  assert.equal(await textOf(page.getByTestId("counter-receipt").getByTestId("receipt-amount")), "200.00");
  assert.equal(await textOf(page.getByTestId("counter-receipt").getByTestId("receipt-meter")), meter);
  await expectAccessible(page, "receipt");
  await page.getByTestId("counter-receipt-close").click();
  await page.getByTestId("counter-receipt").waitFor({ state: "detached" });

  // The restore is queued by the recharge and carried out by the meter. The room's page in the
  // other window read its meters before the recharge and nobody touches it: it says 合闸, and why,
  // when the gateway has it confirmed, and it was never reloaded.
  await side.bringToFront();
  await eventually(
    async () =>
      assert.equal(
        await textOf(meterRow(roomPage, meter).getByTestId("detail-meter-supply")),
        words.supplyOn,
      ),
    90_000,
  );
  await eventually(async () =>
    assert.match(await textOf(roomPage.getByTestId("detail-commands")), new RegExp(words.restored)),
  );
  assert.ok(await stillThisDocument(side), "the room's page was not reloaded");
  await expectAccessible(side, "supply restored");
  await side.close();
  return { room, meter };
}

/** The command log names the cut and the restore with why they were sent. */
async function commandsSayWhy(page: Page, words: Words, meter: string): Promise<void> {
  await openByName(page, words.commands);
  const screen = page.locator('[data-testid="resource-page"][data-resource="meterCommand"]:visible');
  await screen.locator(".ant-table-row").first().waitFor();
  const rows = screen.locator(".ant-table-row", { hasText: meter });
  await eventually(async () => {
    const texts = await rows.allInnerTexts();
    assert.ok(
      texts.some((text) => text.includes(words.restored)),
      `${words.restored} in ${texts.join(" | ")}`,
    );
    assert.ok(
      texts.some((text) => text.includes(words.cut)),
      `${words.cut} in ${texts.join(" | ")}`,
    );
  });
  await expectAccessible(page, "command log");
}

/**
 * The English pass: the same room found again and its supply on, a further cash recharge whose
 * balance the counter shows by push, and the command log in English.
 */
async function topUp(page: Page, words: Words, room: string, meter: string): Promise<void> {
  await openByName(page, words.counter);
  const counter = page.getByTestId("counter-page");
  const box = counter.getByLabel(words.search);
  await box.fill(room.replace(" ", ""));
  await box.press("Enter");
  const hit = counter.getByTestId("counter-hit").first();
  await eventually(async () => assert.equal(await textOf(hit.getByTestId("counter-hit-room")), room));
  assert.equal(await textOf(electricLine(hit).getByTestId("counter-hit-supply")), words.supplyOn);
  await expectAccessible(page, "room found");
  await hit.getByTestId("counter-owner").click();
  const account = counter.getByTestId("counter-accounts").locator(".ant-table-row", { hasText: meter });
  await account.getByTestId("counter-recharge").click();
  await page.getByTestId("counter-form").getByLabel(words.amount).fill("10.00");
  await expectAccessible(page, "recharge dialog");
  await page.getByTestId("counter-submit").click();
  await page.getByTestId("counter-receipt").waitFor();
  await expectAccessible(page, "receipt");
  await page.getByTestId("counter-receipt-close").click();
  await page.getByTestId("counter-receipt").waitFor({ state: "detached" });
  await commandsSayWhy(page, words, meter);
}

test("the front desk finds an arrears room as the owner says it, takes cash, and sees the supply come back by itself", async () => {
  const session = await openSession(browser, server.baseUrl);
  try {
    await signIn(session.page, desk);
    const { room, meter } = await payOffArrears(session, zh);
    await commandsSayWhy(session.page, zh, meter);

    // The same desk in English.
    await session.page.getByTestId("language-switch").click();
    await session.page.getByTestId("language-en").click();
    await session.page.waitForFunction(() => document.documentElement.lang === "en");
    await topUp(session.page, en, room, meter);

    // Afterwards only: the server has the meter on and the account in credit.
    const token = (await storedToken(session.page)) ?? "";
    const found = await call<{
      records: {
        meters: {
          productCode: string;
          switchStatus: number;
          account?: { balance: string; alarmLevel: number };
        }[];
      }[];
    }>(server.baseUrl, token, "/api/blade-pms/ownerRecharge/search", {
      query: { keyword: meter, current: "1", size: "10" },
    });
    const line = found.records.flatMap((r) => r.meters).find((m) => m.productCode === meter);
    assert.equal(line?.switchStatus, 0, "the meter supplies");
    assert.ok(Number(line?.account?.balance) > 0, "the account is in credit");
    assert.deepEqual(session.errors, []);
    assert.deepEqual(session.cspViolations, []);
  } finally {
    await session.context.close();
  }
});
