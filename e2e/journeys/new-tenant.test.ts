import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { SETUP_STEPS } from "@meterline/contracts";
import type { Browser, Locator, Page } from "playwright-core";
import { expectAccessible } from "../axe.ts";
import { clickRowAction, dialog, field, pick, rowsWith, settled, toast } from "../crud-helpers.ts";
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
import { call, eventually } from "../registry-helpers.ts";
import { downloadOf, sheetRows, workbookOf } from "../workbook-helpers.ts";

/**
 * A new tenant from empty to its first recharge, through the console only: the platform
 * administrator creates the tenant in 租户管理 and reads its administrator's one-time password; the
 * tenant's administrator signs in to an empty site whose home page shows 开通向导 with nothing done,
 * and follows its buttons: a park, a charging scheme, an alarm scheme and a collector by their
 * forms, then rooms, owners and remote-control meters on that collector from a workbook written on
 * the import template's columns, an account opened on the meter screen; back home every step but
 * the first recharge reads done. The first cash recharge at 充值收费 gives its receipt, and the
 * checklist is gone. Once in Chinese on one tenant, once in English on another; axe on every step.
 * The API is asked only afterwards, to see what the server booked.
 */

let server: RunningServer;
let browser: Browser;

before(async () => {
  // An empty platform: the story starts where a new customer starts.
  server = await startServer();
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

interface Words {
  lang: "zh" | "en";
  tenants: string;
  added: string;
  site: string;
  electricity: string;
  home: string;
  checklist: string;
  opened: string;
  search: string;
  amount: string;
  /** Names the tenant's rows carry: data, the same whatever the console's language. */
  tenantName: string;
  park: string;
  scheme: string;
  alarm: string;
  owners: { name: string; phone: string; room: string; meter: string }[];
  recharge: string;
}

const zh: Words = {
  lang: "zh",
  tenants: "租户管理",
  added: "新增成功",
  site: "园区",
  electricity: "电",
  home: "首页",
  checklist: "开通向导",
  opened: "开户成功，余额 0.00 元",
  search: "查找业主、房间或表计",
  amount: "金额",
  tenantName: "新开物业",
  park: "新开园区",
  scheme: "新开电价",
  alarm: "新开告警",
  owners: [
    { name: "开户甲", phone: "13900000711", room: "101", meter: "700000000101" },
    { name: "开户乙", phone: "13900000712", room: "102", meter: "700000000102" },
  ],
  recharge: "123.45",
};

const en: Words = {
  lang: "en",
  tenants: "Tenants",
  added: "Added successfully",
  site: "Site",
  electricity: "Electricity",
  home: "Home",
  checklist: "Getting started",
  opened: "Account opened, balance 0.00 yuan",
  search: "Find an owner, room or meter",
  amount: "Amount",
  tenantName: "Greenfield Estates",
  park: "Greenfield",
  scheme: "Greenfield tariff",
  alarm: "Greenfield alarms",
  owners: [
    { name: "Ada Open", phone: "13900000721", room: "201", meter: "700000000201" },
    { name: "Ben Open", phone: "13900000722", room: "202", meter: "700000000202" },
  ],
  recharge: "88.08",
};

/** Picks the console's language from the top bar or the login page's switch. */
async function chooseLanguage(page: Page, words: Words): Promise<void> {
  await page.getByTestId("language-switch").click();
  await page.getByTestId(`language-${words.lang}`).click();
  const lang = words.lang === "en" ? "en" : "zh-CN";
  await page.waitForFunction((wanted) => document.documentElement.lang === wanted, lang);
}

/** Opens a screen as an operator does: Ctrl+K, its name, Enter. */
async function openByName(page: Page, name: string): Promise<void> {
  await page.keyboard.press("Control+k");
  await page.keyboard.type(name);
  await page.getByTestId("menu-search-label").filter({ hasText: name }).first().waitFor();
  await page.keyboard.press("Enter");
}

/**
 * The platform administrator makes the tenant in 租户管理 and copies what the one-time dialog shows:
 * the tenant's code and its administrator's password.
 */
async function createTenant(session: Session, words: Words): Promise<{ tenantId: string; password: string }> {
  const { page } = session;
  await signIn(page);
  if (words.lang === "en") await chooseLanguage(page, words);
  await openByName(page, words.tenants);
  const screen = page.locator('[data-testid="resource-page"][data-resource="tenant"]:visible');
  await screen.locator(".ant-table-row").first().waitFor();
  await expectAccessible(page, "tenants");
  await screen.getByTestId("crud-add").click();
  await field(page, "tenantName").fill(words.tenantName);
  await expectAccessible(page, "new tenant");
  await dialog(page).getByTestId("crud-dialog-ok").click();
  const created = page.getByTestId("tenant-created");
  await created.waitFor();
  await expectAccessible(page, "tenant created");
  const values = created.locator(".ant-descriptions-item-content");
  const tenantId = await textOf(values.nth(0));
  const password = await textOf(values.nth(2));
  assert.match(tenantId, /^\d{6}$/);
  assert.equal(await textOf(values.nth(1)), "admin");
  assert.ok(password.length >= 8, password);
  await page.locator(".ant-modal-confirm .ant-btn-primary").click();
  await created.waitFor({ state: "detached" });
  await rowsWith(screen, words.tenantName)
    .first()
    .getByTestId("tenant-id")
    .filter({ hasText: tenantId })
    .waitFor();
  return { tenantId, password };
}

/** The tenant's administrator signs in on the login page, in the pass's language. */
async function signInTenant(page: Page, words: Words, tenant: { tenantId: string; password: string }) {
  await page.goto("/login");
  await chooseLanguage(page, words);
  await page.getByTestId("login-tenant").fill(tenant.tenantId);
  await page.getByTestId("login-username").fill("admin");
  await page.getByTestId("login-password").fill(tenant.password);
  await expectAccessible(page, "login");
  await page.getByTestId("login-password").press("Enter");
  // A tenant's first sign-in warms the server's caches: longer than a click's wait.
  await page.getByTestId("home-page").waitFor({ timeout: 45_000 });
}

const checklistOf = (page: Page) => page.locator('[data-page="/wel/index"] [data-testid="setup-checklist"]');
const stepCount = async (checklist: Locator, step: string) =>
  Number(await checklist.getByTestId(`setup-step-${step}`).getAttribute("data-count"));

/** The checklist's current step (the next one to take) is `step`, and only it. */
async function currentIs(checklist: Locator, step: string): Promise<void> {
  const current = checklist.locator(".ant-steps-item-process");
  assert.equal(await current.count(), 1);
  assert.equal(await current.getByTestId(`setup-step-${step}`).count(), 1, `${step} is the current step`);
}

/** Back to the home tab: the checklist reads the counts again. */
async function home(page: Page, words: Words): Promise<Locator> {
  await page
    .getByTestId("tab")
    .filter({ hasText: new RegExp(`^${words.home}$`) })
    .click();
  await page.waitForURL("**/wel/index");
  return checklistOf(page);
}

/** Follows the checklist's button of `step` to its screen. */
async function follow(page: Page, step: string, resource: string): Promise<Locator> {
  await checklistOf(page).getByTestId(`setup-go-${step}`).click();
  const screen = page.locator(`[data-testid="resource-page"][data-resource="${resource}"]:visible`);
  await screen.locator(".ant-table-tbody").waitFor();
  await settled(screen);
  await expectAccessible(page, `screen of ${step}`);
  return screen;
}

/** Fills the add dialog with `fill`, saves, and waits for the dialog to close. */
async function add(page: Page, screen: Locator, words: Words, fill: () => Promise<void>): Promise<void> {
  await screen.getByTestId("crud-add").click();
  await dialog(page).waitFor();
  await fill();
  await expectAccessible(page, "add dialog");
  await dialog(page).getByTestId("crud-dialog-ok").click();
  await toast(page, words.added);
  await dialog(page).waitFor({ state: "detached" });
}

/** Each step's count once the checklist has read them: `done` above zero, the others zero. */
async function stepsAre(checklist: Locator, done: readonly string[]): Promise<void> {
  await eventually(async () => {
    for (const step of SETUP_STEPS) {
      const n = await stepCount(checklist, step);
      assert.ok(done.includes(step) ? n > 0 : n === 0, `${step}: ${n}`);
    }
  });
}

/** The tenant's way through the checklist to its first recharge. */
async function setUpSite(page: Page, words: Words, collectorCode: string): Promise<void> {
  // An empty site: every step at zero, the areas first.
  const checklist = checklistOf(page);
  await checklist.waitFor();
  await checklist.getByText(words.checklist).waitFor();
  await stepsAre(checklist, []);
  await currentIs(checklist, "areas");
  await expectAccessible(page, "empty checklist");

  const areas = await follow(page, "areas", "area");
  await add(page, areas, words, async () => {
    await field(page, "areaName").fill(words.park);
    await pick(page, "areaType", words.site);
  });
  const afterArea = await home(page, words);
  await stepsAre(afterArea, ["areas"]);
  await currentIs(afterArea, "rooms");

  // The prices and the alarm lines the sheet will name, and the collector its meters hang on.
  const schemes = await follow(page, "chargingSchemes", "chargingScheme");
  await add(page, schemes, words, async () => {
    await field(page, "schemeName").fill(words.scheme);
    await pick(page, "energyType", words.electricity);
    await field(page, "price").fill("0.5883");
  });
  await home(page, words);
  const alarms = await follow(page, "alarmSchemes", "alarmScheme");
  await add(page, alarms, words, async () => {
    await field(page, "schemeName").fill(words.alarm);
    await pick(page, "energyType", words.electricity);
    await field(page, "firstAlarm").fill("50");
    await field(page, "secondAlarm").fill("20");
  });
  await home(page, words);
  const collectors = await follow(page, "collectors", "collector");
  await add(page, collectors, words, async () => {
    await field(page, "collectorName").fill(`${words.park} DTU`);
    await field(page, "collectorCode").fill(collectorCode);
  });
  await stepsAre(await home(page, words), ["areas", "chargingSchemes", "alarmSchemes", "collectors"]);

  // Rooms, owners and meters from a workbook written on the template's own columns.
  const rooms = await follow(page, "rooms", "room");
  await rooms.getByTestId("room-import").click();
  const importing = page.getByTestId("room-import-dialog");
  await importing.waitFor();
  await expectAccessible(page, "import dialog");
  const template = await downloadOf(page, () => page.getByTestId("room-import-template").click());
  const [header = []] = await sheetRows(template);
  const rowOf = (cells: Record<string, string>) => header.map((name) => cells[name] ?? "");
  const sheet = await workbookOf([
    header,
    ...words.owners.map((owner) =>
      rowOf({
        区域路径: `${words.park}/1号楼`,
        房间名称: owner.room,
        业主姓名: owner.name,
        手机号码: owner.phone,
        电表表号: owner.meter,
        采集器注册码: collectorCode,
        通道号: "1",
        收费方案: words.scheme,
        告警方案: words.alarm,
        电表控制方式: "远程控制",
        电表初始读数: "12.50",
      }),
    ),
  ]);
  await importing.locator('input[type="file"]').setInputFiles({
    name: "site.xlsx",
    mimeType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    buffer: sheet,
  });
  await page.getByTestId("room-import-preview").click();
  await page.getByTestId("room-import-preview-result").waitFor();
  assert.equal(await textOf(page.getByTestId("room-import-preview-valid")), String(words.owners.length));
  assert.equal(await textOf(page.getByTestId("room-import-preview-rejected")), "0");
  await expectAccessible(page, "import preview");
  await page.getByTestId("room-import-submit").click();
  await page.getByTestId("room-import-result").waitFor();
  assert.equal(await textOf(page.getByTestId("room-import-imported")), String(words.owners.length));
  await expectAccessible(page, "imported");
  await page.getByTestId("room-import-close").click();
  await importing.waitFor({ state: "detached" });
  await stepsAre(await home(page, words), [
    "areas",
    "rooms",
    "chargingSchemes",
    "alarmSchemes",
    "collectors",
    "meters",
    "owners",
  ]);

  // 开户 on the meter screen, for the first owner's meter, without a deposit.
  const [first] = words.owners;
  const meters = await follow(page, "accounts", "meter");
  const row = rowsWith(meters, first!.meter).first();
  await row.waitFor();
  await clickRowAction(row, "row-account-open");
  await page.getByTestId("account-open-dialog").waitFor();
  await expectAccessible(page, "opening");
  await page.getByTestId("account-open-ok").click();
  await toast(page, words.opened);
  await page.getByTestId("account-open-dialog").waitFor({ state: "detached" });

  // Every step done but the first recharge, which is the current one.
  const done = await home(page, words);
  await stepsAre(
    done,
    SETUP_STEPS.filter((step) => step !== "recharges"),
  );
  assert.equal(await done.locator(".ant-steps-item-finish").count(), SETUP_STEPS.length - 1);
  assert.equal(await done.locator(".ant-steps-item-process").getByTestId("setup-step-recharges").count(), 1);
  await expectAccessible(page, "all but the first recharge");
}

/** The first cash recharge at 充值收费, found by the owner's phone, and its receipt. */
async function firstRecharge(page: Page, words: Words): Promise<void> {
  const [owner] = words.owners;
  await checklistOf(page).getByTestId("setup-go-recharges").click();
  const counter = page.getByTestId("counter-page");
  await counter.waitFor();
  await expectAccessible(page, "counter");
  const box = counter.getByLabel(words.search);
  await box.fill(owner!.phone);
  await box.press("Enter");
  const hit = counter.getByTestId("counter-hit").first();
  await eventually(async () => assert.match(await textOf(hit), new RegExp(owner!.name)));
  await expectAccessible(page, "owner found");
  await hit.getByTestId("counter-owner").click();
  const account = counter
    .getByTestId("counter-accounts")
    .locator(".ant-table-row", { hasText: owner!.meter });
  await account.getByTestId("counter-recharge").click();
  await page.getByTestId("counter-form").getByLabel(words.amount).fill(words.recharge);
  await expectAccessible(page, "recharge dialog");
  await page.getByTestId("counter-submit").click();
  const receipt = page.getByTestId("counter-receipt");
  await receipt.waitFor();
  assert.equal(await textOf(receipt.getByTestId("receipt-amount")), words.recharge);
  assert.equal(await textOf(receipt.getByTestId("receipt-meter")), owner!.meter);
  await expectAccessible(page, "receipt");
  await page.getByTestId("counter-receipt-close").click();
  await receipt.waitFor({ state: "detached" });

  // The site has taken its first recharge: the checklist has done its work.
  await home(page, words);
  await page.getByTestId("home-page").waitFor();
  await eventually(async () => assert.equal(await checklistOf(page).count(), 0));
  await expectAccessible(page, "home after the first recharge");
}

/** What the server keeps, asked only afterwards: one recharge of the amount, and the balance. */
async function booked(page: Page, words: Words): Promise<void> {
  const [owner] = words.owners;
  const token = (await storedToken(page)) ?? "";
  const recharges = await call<{
    records: { rechargeType: number; paymentMethod: number; amount: string }[];
  }>(server.baseUrl, token, "/api/blade-pms/datarecharge/page", { query: { current: "1", size: "20" } });
  assert.deepEqual(
    recharges.records.map((r) => [r.rechargeType, r.paymentMethod, r.amount]),
    [[1, 1, words.recharge]],
    "one cash recharge, booked once",
  );
  const found = await call<{ records: { accounts: { balance: string }[] }[] }>(
    server.baseUrl,
    token,
    "/api/blade-pms/ownerRecharge/page",
    { query: { keyword: owner!.phone } },
  );
  assert.deepEqual(
    found.records.flatMap((r) => r.accounts.map((a) => a.balance)),
    [words.recharge],
  );
  const meters = await call<{
    records: { productCode: string; controlStatus: number; collectorId: string }[];
  }>(server.baseUrl, token, "/api/blade-pms/meter/page", { query: { size: "10" } });
  assert.deepEqual(
    meters.records.map((m) => [m.productCode, m.controlStatus, Boolean(m.collectorId)]).sort(),
    words.owners.map((o) => [o.meter, 1, true]).sort(),
    "remote-control meters on the collector",
  );
  const initial = await call<{ records: { totalValue: string }[] }>(
    server.baseUrl,
    token,
    "/api/blade-pms/meterorigvalue/list",
  );
  assert.deepEqual(
    initial.records.map((v) => Number(v.totalValue)),
    words.owners.map(() => 12.5),
    "each meter's initial reading from the sheet",
  );
}

async function pass(words: Words): Promise<void> {
  const platform = await openSession(browser, server.baseUrl);
  const desk = await openSession(browser, server.baseUrl);
  try {
    const tenant = await createTenant(platform, words);
    await signInTenant(desk.page, words, tenant);
    await setUpSite(desk.page, words, `E2E-NEW-${tenant.tenantId}`);
    await firstRecharge(desk.page, words);
    await booked(desk.page, words);
    for (const session of [platform, desk]) {
      assert.deepEqual(session.errors, []);
      assert.deepEqual(session.cspViolations, []);
    }
  } finally {
    await platform.context.close();
    await desk.context.close();
  }
}

test("a new tenant gets from empty to its first recharge through the checklist and an import, in Chinese", () =>
  pass(zh));

test("a second new tenant does the same in English", () => pass(en));
