import assert from "node:assert/strict";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import type { Page } from "playwright-core";
import { expectAccessible } from "./axe.ts";
import { repoRoot, signIn, textOf, useBrowserSuite } from "./harness.ts";
import { call, chooseOption, eventually, newOperator, signInOperator } from "./registry-helpers.ts";

const suite = useBrowserSuite();

/** A path under e2e/artifacts for a screenshot kept for a look when a run fails. */
async function artifact(name: string): Promise<string> {
  const folder = path.join(repoRoot, "e2e", "artifacts");
  await mkdir(folder, { recursive: true });
  return path.join(folder, name);
}

const METER = "000000001001";
const PHONE = "13900001001";

interface OwnerRow {
  id: string;
  accounts: { id: string; balance: string; alarmLevel: number }[];
}
interface RechargeRow {
  rechargeType: number;
  paymentMethod: number;
  amount: string;
  receiptNo: string;
  remark: string;
}

/** The receipt dialog's field shown under `testId`. */
const onReceipt = (page: Page, testId: string) =>
  textOf(page.getByTestId("counter-receipt").getByTestId(testId));

/**
 * A tenant whose owner 柜台业主 (`phone`) lives in room C-101 with a remote-control electric meter
 * (`meterCode`) whose account opened with 40 元 (below its 50 元 alarm), and a second owner without
 * an account, so a search has something to leave out.
 */
async function counterSite(tenantName: string, meterCode: string, phone: string) {
  const base = suite.server.baseUrl;
  const operator = await newOperator(base, tenantName);
  const post = (path: string, body: unknown) =>
    call<{ id: string }>(base, operator.token, `/api/blade-pms/${path}`, { body });
  // An owner living in a room with a remote-control electric meter whose account opened with 40 元.
  const area = (await post("area/save", { areaName: "柜台园区", areaType: 1 })).id;
  const room = (await post("room/save", { areaId: area, roomName: "C-101" })).id;
  const collector = (
    await post("collector/submit", {
      collectorName: "柜台DTU",
      collectorCode: `E2E-COUNTER-${operator.tenantId}`,
    })
  ).id;
  const scheme = (
    await post("chargingscheme/submit", {
      schemeName: "居民电价",
      energyType: 1,
      priceMode: 1,
      price: "0.5883",
    })
  ).id;
  const alarm = (
    await post("alarmscheme/submit", {
      schemeName: "余额告警",
      energyType: 1,
      firstAlarm: "50",
      secondAlarm: "20",
      arrearsLimit: "10",
    })
  ).id;
  const meter = (
    await post("meter/submit", {
      productCode: meterCode,
      collectorId: collector,
      controlStatus: 1,
      chargingSchemeId: scheme,
      alarmSchemeId: alarm,
    })
  ).id;
  await post("roommeter/submit", { roomId: room, energyType: 1, meterId: meter });
  const owner = (await post("owner/submit", { ownerName: "柜台业主", phone })).id;
  await post("ownerroom/submit", { ownerId: owner, roomId: room });
  await post("message/openAccount", { meterId: meter, deposit: "40.00" });
  // Someone else, so the search has something to leave out.
  await post("owner/submit", { ownerName: "旁人业主", phone: "13700000000" });
  return { operator, owner, meter };
}

test("the front desk finds an owner by phone, recharges by cash, corrects with a reason and prints receipts", async () => {
  const { page, errors } = suite.session;
  const base = suite.server.baseUrl;
  const { operator, owner } = await counterSite("收费柜台物业", METER, PHONE);

  // 充值收费 from the side menu.
  await signInOperator(page, operator);
  const sidebar = page.getByTestId("sidebar");
  await sidebar.locator('[data-testid="menu-group"][data-code="money"]').click();
  await sidebar.locator('[data-testid="menu-item"][data-code="ownerRecharge"]').click();
  await page.waitForURL("**/money/ownerrecharge");
  const counter = page.getByTestId("counter-page");
  await counter.getByTestId("counter-owner").first().waitFor();
  await expectAccessible(page, "recharge counter");
  // An owner without a room or an account says so, with no balance made up.
  const stranger = counter.getByTestId("counter-hit").filter({ hasText: "旁人业主" });
  assert.equal(await textOf(stranger.getByTestId("counter-hit-room")), "未绑定房间");
  assert.match(await textOf(stranger), /没有表计/);

  // One search box: the phone finds the owner alone, with the balance and level at a glance.
  await counter.getByLabel("查找业主").fill(PHONE.slice(-6));
  await counter.getByLabel("查找业主").press("Enter");
  await eventually(async () =>
    assert.deepEqual(await counter.getByTestId("counter-owner").allInnerTexts(), ["柜台业主"]),
  );
  // The hit is the owner's room, its meter on a line of its own: balance, level and supply.
  const hit = counter.getByTestId("counter-hit");
  assert.equal(await textOf(hit.getByTestId("counter-hit-room")), "柜台园区 C-101");
  const line = hit.getByTestId("counter-hit-meter");
  assert.equal(await textOf(line.getByTestId("counter-hit-code")), METER);
  assert.equal(await textOf(line.getByTestId("counter-hit-balance")), "40.00");
  assert.equal(await textOf(line.locator(".counter-level").first()), "余额不足");
  assert.equal(await textOf(line.getByTestId("counter-hit-supply")), "合闸");

  await counter.getByTestId("counter-owner").click();
  const accounts = counter.getByTestId("counter-accounts");
  const account = accounts.locator(".ant-table-row", { hasText: METER });
  await account.waitFor();
  // The meter number is shown whole, not cut by an ellipsis.
  assert.equal(await textOf(account.locator(".counter-code").first()), METER);
  assert.match(await textOf(account), /C-101/);
  assert.match(await textOf(account), /远程费控/);
  await counter
    .getByTestId("counter-usage-empty")
    .or(counter.getByTestId("counter-usage-electric"))
    .waitFor();
  await expectAccessible(page, "recharge counter with an owner chosen");
  await page.screenshot({ path: await artifact("money-counter.png") });

  // Recharge 100.00 by cash. The first answer is lost on the way back (booked, but the counter
  // cannot know): retrying the same submission books nothing more and hands over that receipt.
  let submits = 0;
  await page.route("**/api/blade-pms/datarecharge/submit", async (route) => {
    submits += 1;
    if (submits > 1) return route.continue();
    await route.fetch();
    return route.abort("connectionreset");
  });
  await account.getByTestId("counter-recharge").click();
  const form = page.getByTestId("counter-form");
  await form.getByLabel("金额").fill("100.00");
  assert.match(await textOf(form.locator(".ant-select", { hasText: "现金" })), /现金/);
  await expectAccessible(page, "recharge dialog");
  await page.getByTestId("counter-submit").click();
  await page.getByTestId("counter-error").waitFor();
  assert.match(await textOf(page.getByTestId("counter-error")), /同一次提交不会重复入账/);
  await page.getByTestId("counter-submit").click();
  await page.getByTestId("counter-receipt").waitFor();
  await page.unroute("**/api/blade-pms/datarecharge/submit");
  assert.equal(submits, 2);
  assert.match(
    await textOf(page.locator(".ant-modal", { has: page.getByTestId("counter-receipt") })),
    /之前已入账/,
  );
  const receiptNo = await onReceipt(page, "receipt-no");
  assert.ok(receiptNo.length > 0, "the receipt has its number");
  assert.equal(await onReceipt(page, "receipt-amount"), "100.00");
  assert.equal(await onReceipt(page, "receipt-balance"), "140.00");
  assert.equal(await onReceipt(page, "receipt-type"), "充值");
  assert.equal(await onReceipt(page, "receipt-meter"), METER);
  assert.match(await textOf(page.getByTestId("counter-receipt")), /现金/);
  assert.match(await textOf(page.getByTestId("counter-receipt")), /C-101/);
  assert.match(await textOf(page.getByTestId("counter-receipt")), /柜台业主/);
  await expectAccessible(page, "receipt");
  await page.screenshot({ path: await artifact("money-counter-receipt.png") });
  // Printing shows the receipt alone: the console around it is hidden on paper.
  await page.emulateMedia({ media: "print" });
  const visibility = (selector: string) =>
    page
      .locator(selector)
      .first()
      .evaluate((element) => getComputedStyle(element).visibility);
  assert.equal(await visibility('[data-testid="sidebar"]'), "hidden");
  assert.equal(await visibility('[data-testid="counter-accounts"]'), "hidden");
  assert.equal(await visibility('[data-testid="receipt-no"]'), "visible");
  await page.emulateMedia({ media: "screen" });
  assert.equal(await visibility('[data-testid="sidebar"]'), "visible");
  await page.getByTestId("counter-receipt-close").click();
  await page.getByTestId("counter-receipt").waitFor({ state: "detached" });
  await eventually(async () =>
    assert.equal(await textOf(account.getByTestId("counter-account-balance")), "140.00"),
  );
  assert.equal(await textOf(account.locator(".counter-level")), "正常");

  // A refund never exceeds the balance: the form says so before anything is sent.
  await account.getByTestId("counter-refund").click();
  await form.getByLabel("金额").fill("500");
  await form.getByLabel("原因").fill("业主搬离");
  await page.getByTestId("counter-submit").click();
  await form.getByText("退费不能超过账户余额 140.00 元").waitFor();
  await page.locator(".ant-modal", { has: form }).getByRole("button", { name: "取 消" }).click();
  await form.waitFor({ state: "detached" });

  // A correction needs its reason, then a confirmation naming the amount and the account.
  await account.getByTestId("counter-correct").click();
  await form.getByText("冲正减").click();
  await form.getByLabel("金额").fill("30.00");
  await page.getByTestId("counter-submit").click();
  await form.getByText("请填写原因").waitFor();
  await form.getByLabel("原因").fill("重复收款退回");
  await page.getByTestId("counter-submit").click();
  const confirm = page.locator(".ant-modal-confirm");
  await confirm.waitFor();
  const question = await textOf(confirm);
  assert.match(question, /冲正减 30\.00 元/);
  assert.match(question, new RegExp(METER));
  assert.match(question, /重复收款退回/);
  await page.getByTestId("counter-confirm-ok").click();
  await page.getByTestId("counter-receipt").waitFor();
  assert.equal(await onReceipt(page, "receipt-type"), "冲正减");
  assert.equal(await onReceipt(page, "receipt-amount"), "30.00");
  assert.equal(await onReceipt(page, "receipt-balance"), "110.00");
  const correctionNo = await onReceipt(page, "receipt-no");
  assert.notEqual(correctionNo, receiptNo);
  await page.getByTestId("counter-receipt-close").click();
  await eventually(async () =>
    assert.equal(await textOf(account.getByTestId("counter-account-balance")), "110.00"),
  );

  // What the counter showed is what the server holds: one recharge (not two), one correction.
  const owners = await call<{ records: OwnerRow[] }>(
    base,
    operator.token,
    "/api/blade-pms/ownerRecharge/page",
    {
      query: { keyword: PHONE },
    },
  );
  assert.equal(owners.records.length, 1);
  assert.equal(owners.records[0]?.accounts[0]?.balance, "110.00");
  const recharges = await call<{ records: RechargeRow[] }>(
    base,
    operator.token,
    "/api/blade-pms/datarecharge/page",
    {
      query: { ownerId: owner },
    },
  );
  assert.deepEqual(
    recharges.records.map((r) => [r.rechargeType, r.paymentMethod, r.amount, r.receiptNo]).sort(),
    [
      [1, 1, "100.00", receiptNo],
      [4, 0, "30.00", correctionNo],
    ].sort(),
  );
  assert.deepEqual(errors, []);
});

test("the platform administrator's counter names each owner's tenant, narrows to one, and books in that tenant", async () => {
  const { page, errors } = suite.session;
  const base = suite.server.baseUrl;
  const tenantName = "柜台乙物业";
  const { operator } = await counterSite(tenantName, "000000002002", "13900002002");
  // Another tenant's owner of the same name, so a tenant filter has something to leave out.
  await counterSite("柜台丙物业", "000000003003", "13900003003");

  await signIn(page);
  await page.getByTestId("sidebar").locator('[data-testid="menu-group"][data-code="money"]').click();
  await page.getByTestId("sidebar").locator('[data-testid="menu-item"][data-code="ownerRecharge"]').click();
  const counter = page.getByTestId("counter-page");
  const tenantCells = () => counter.getByTestId("counter-hit-tenant").allInnerTexts();
  await counter.getByLabel("查找业主").fill("柜台业主");
  await counter.getByLabel("查找业主").press("Enter");
  await eventually(async () => {
    const tenants = await tenantCells();
    assert.ok(tenants.includes(tenantName) && tenants.includes("柜台丙物业"), tenants.join("|"));
  });

  await chooseOption(page, counter.getByTestId("search-tenantId"), tenantName);
  await eventually(async () => assert.deepEqual(await tenantCells(), [tenantName]));
  await counter.getByTestId("counter-owner").click();
  assert.match(await textOf(counter.getByTestId("counter-owner-panel")), new RegExp(`租户\\s*${tenantName}`));
  await counter.getByTestId("counter-accounts").getByTestId("counter-recharge").click();
  await page.getByTestId("counter-form").getByLabel("金额").fill("5.00");
  await page.getByTestId("counter-submit").click();
  await page.getByTestId("counter-receipt").waitFor();
  assert.equal(await onReceipt(page, "receipt-balance"), "45.00");

  // Booked in the owner's own tenant: its operator reads the new balance.
  const owners = await call<{ records: OwnerRow[] }>(
    base,
    operator.token,
    "/api/blade-pms/ownerRecharge/page",
    {
      query: { keyword: "13900002002" },
    },
  );
  assert.equal(owners.records[0]?.accounts[0]?.balance, "45.00");
  assert.deepEqual(errors, []);
});

test("分组充值 recharges every owner of a group at once after a confirmation and lists the receipts", async () => {
  const { page } = suite.session;
  const base = suite.server.baseUrl;
  const { operator, owner } = await counterSite("分组充值物业", "000000001003", "13900001003");
  const post = (path: string, body: unknown) =>
    call<{ id: string }>(base, operator.token, `/api/blade-pms/${path}`, { body });
  const group = (await post("ownerGroup/save", { groupName: "一期住户" })).id;
  await post("ownerGroup/bindOwner", { pid: group, childIdList: [owner] });

  await signInOperator(page, operator);
  await page.goto("/money/ownerrecharge");
  const counter = page.getByTestId("counter-page");
  await counter.getByTestId("counter-group").click();
  const dialog = page.locator(".ant-modal", { hasText: "分组充值" }).first();
  // Group and amount are required; the method starts as cash.
  await dialog.locator(".ant-modal-footer .ant-btn-primary").click();
  await dialog.getByText("请选择业主分组").waitFor();
  await chooseOption(page, dialog.locator("#ownerGroupId"), "一期住户");
  await dialog.locator("#amount").fill("20");
  await expectAccessible(page, "分组充值 dialog");
  await dialog.locator(".ant-modal-footer .ant-btn-primary").click();
  await page.locator(".ant-modal-confirm", { hasText: "一期住户" }).waitFor();
  await page.getByTestId("counter-group-confirm-ok").click();
  await dialog.getByText("已为 1 个账户充值,合计 20.00 元").waitFor();
  const receipt = dialog.locator(".ant-table-row", { hasText: "柜台业主" });
  assert.match(await textOf(receipt), /20\.00.*60\.00/s);
  const owners = await call<{ records: OwnerRow[] }>(
    base,
    operator.token,
    "/api/blade-pms/ownerRecharge/page",
    {
      query: { keyword: "13900001003" },
    },
  );
  assert.equal(owners.records[0]?.accounts[0]?.balance, "60.00");
});

test("the receipt names the site, writes the amount in capitals, has signature lines, prints on a 58 mm roll and is reprinted from 充值记录 with the same number", async () => {
  const { page, errors } = suite.session;
  const meterCode = "000000003003";
  const phone = "13900003003";
  const { operator } = await counterSite("回单花园物业", meterCode, phone);
  await signInOperator(page, operator);
  const sidebar = page.getByTestId("sidebar");
  await sidebar.locator('[data-testid="menu-group"][data-code="money"]').click();
  await sidebar.locator('[data-testid="menu-item"][data-code="ownerRecharge"]').click();
  const counter = page.getByTestId("counter-page");
  await counter.getByLabel("查找业主").fill(phone);
  await counter.getByLabel("查找业主").press("Enter");
  await eventually(async () =>
    assert.deepEqual(await counter.getByTestId("counter-owner").allInnerTexts(), ["柜台业主"]),
  );
  await counter.getByTestId("counter-owner").click();
  const account = counter.getByTestId("counter-accounts").locator(".ant-table-row", { hasText: meterCode });
  await account.getByTestId("counter-recharge").click();
  await page.getByTestId("counter-form").getByLabel("金额").fill("123.45");
  await page.getByTestId("counter-submit").click();
  await page.getByTestId("counter-receipt").waitFor();

  // The site's own name heads the receipt; the amount is also in capitals; both parties sign.
  assert.equal(await onReceipt(page, "receipt-title"), "回单花园物业 收费收据");
  assert.equal(await onReceipt(page, "receipt-capitals"), "壹佰贰拾叁元肆角伍分");
  const signatures = await onReceipt(page, "receipt-signatures");
  assert.match(signatures, /收款人\(签字\)/);
  assert.match(signatures, /交款人\(签字\)/);
  assert.match(await textOf(page.getByTestId("counter-receipt")), /柜台园区.*C-101/);
  const receiptNo = await onReceipt(page, "receipt-no");
  assert.equal(await page.getByTestId("receipt-reprint").count(), 0, "the first print is no reprint");
  await expectAccessible(page, "receipt with capitals and signatures");

  // The 58 mm roll: on paper the receipt is 58 mm wide and the page is a 58 mm roll (164.4 pt).
  const printedWidth = async () => {
    await page.emulateMedia({ media: "print" });
    const width = await page
      .getByTestId("counter-receipt")
      .evaluate((element) => getComputedStyle(element).width);
    await page.emulateMedia({ media: "screen" });
    return Number.parseFloat(width);
  };
  const a5Width = await printedWidth();
  await page.getByTestId("receipt-layout").getByText("58 mm 小票").click();
  const rollWidth = await printedWidth();
  assert.ok(Math.abs(rollWidth - (58 / 25.4) * 96) < 1, `58 mm is ${rollWidth}px`);
  assert.ok(a5Width > rollWidth * 2, `the A5 receipt (${a5Width}px) is wider than the roll`);
  await page.emulateMedia({ media: "print" });
  await page.screenshot({ path: await artifact("money-receipt-58mm-print.png") });
  const pdf = Buffer.from(
    await page.pdf({ preferCSSPageSize: true, path: await artifact("money-receipt-58mm.pdf") }),
  );
  await page.emulateMedia({ media: "screen" });
  const mediaBox = /\/MediaBox\s*\[\s*0 0 ([\d.]+) ([\d.]+)\s*\]/.exec(pdf.toString("latin1"));
  assert.ok(mediaBox, "the PDF names its page size");
  assert.ok(Math.abs(Number(mediaBox[1]) - (58 / 25.4) * 72) < 1, `page width ${mediaBox[1]} pt`);
  assert.equal(pdf.toString("latin1").match(/\/Type\s*\/Page\b/g)?.length, 1, "one receipt, one page");
  await page.getByTestId("counter-receipt-close").click();

  // 补打 from 充值记录: the same number and amount, marked as a reprint, in the paper last chosen.
  const entry = page.locator('[data-testid="menu-item"][data-code="dataRecharge"]');
  if (!(await entry.isVisible()))
    await sidebar.locator(".ant-menu-submenu-title", { hasText: "收费管理" }).click();
  await entry.click();
  await page.waitForURL("**/money/datarecharge");
  const row = page.locator('[data-testid="money-list"][data-list="recharges"] .ant-table-row', {
    hasText: receiptNo,
  });
  await row.getByTestId("recharge-reprint").click();
  await page.getByTestId("counter-receipt").waitFor();
  assert.equal(await onReceipt(page, "receipt-no"), receiptNo);
  assert.equal(await onReceipt(page, "receipt-title"), "回单花园物业 收费收据");
  assert.equal(await onReceipt(page, "receipt-capitals"), "壹佰贰拾叁元肆角伍分");
  assert.match(await onReceipt(page, "receipt-reprint"), /^补打 \d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
  assert.match(await textOf(page.getByTestId("counter-receipt")), /柜台园区.*C-101/);
  assert.match(
    (await page.getByTestId("counter-receipt").getAttribute("class")) ?? "",
    /receipt-58mm/,
    "the layout is remembered in this browser",
  );
  await page.getByTestId("receipt-layout").getByText("A5 半页").click();
  await page.emulateMedia({ media: "print" });
  await page.screenshot({ path: await artifact("money-receipt-a5-reprint-print.png") });
  const a5 = Buffer.from(
    await page.pdf({ preferCSSPageSize: true, path: await artifact("money-receipt-a5-reprint.pdf") }),
  ).toString("latin1");
  assert.match(a5, /\/MediaBox\s*\[\s*0 0 59[45]\.\d+ 4(19|20)\.?\d*\s*\]/, "A5 landscape: half an A4 sheet");
  assert.equal(a5.match(/\/Type\s*\/Page\b/g)?.length, 1, "one receipt, one page");
  await page.emulateMedia({ media: "screen" });
  await page.getByTestId("counter-receipt-close").click();

  // 补打 from 开户记录: the opening's deposit, with its own number (K…), the same on every reprint.
  const openings = page.locator('[data-testid="menu-item"][data-code="dataOpenAccount"]');
  await openings.click();
  await page.waitForURL("**/money/dataopenaccount");
  const opening = page.locator('[data-testid="money-list"][data-list="openings"] .ant-table-row', {
    hasText: meterCode,
  });
  const reprintOpening = async () => {
    await opening.getByTestId("account-reprint").click();
    await page.getByTestId("counter-receipt").waitFor();
    const number = await onReceipt(page, "receipt-no");
    assert.match(number, /^K\d{9,}$/);
    assert.equal(await onReceipt(page, "receipt-type"), "开户押金");
    assert.equal(await onReceipt(page, "receipt-amount"), "40.00");
    assert.equal(await onReceipt(page, "receipt-capitals"), "肆拾元整");
    assert.equal(await onReceipt(page, "receipt-title"), "回单花园物业 收费收据");
    assert.match(await onReceipt(page, "receipt-reprint"), /^补打 /);
    await page.getByTestId("counter-receipt-close").click();
    await page.getByTestId("counter-receipt").waitFor({ state: "detached" });
    return number;
  };
  assert.equal(await reprintOpening(), await reprintOpening());
  assert.deepEqual(errors, []);
});
