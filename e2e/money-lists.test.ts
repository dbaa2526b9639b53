import assert from "node:assert/strict";
import { test } from "node:test";
import type { Locator, Page } from "playwright-core";
import { expectAccessible } from "./axe.ts";
import { settled, toast } from "./crud-helpers.ts";
import { admin, textOf, useBrowserSuite } from "./harness.ts";
import {
  call,
  chooseOption,
  eventually,
  newOperator,
  type Operator,
  signInOperator,
  tokenOf,
} from "./registry-helpers.ts";

const suite = useBrowserSuite();
const pms = "/api/blade-pms";

/** Today in the server's zone (TZ_DEFAULT, Asia/Shanghai): the day the recharges fall on. */
const today = () => new Intl.DateTimeFormat("en-CA", { timeZone: "Asia/Shanghai" }).format(new Date());

/**
 * Two owners in two rooms, each with an electric meter whose account is open; the first owner
 * recharges twice and takes a refund, the second recharges once. Returns the first owner's meter.
 */
async function seedAccounts(operator: Operator) {
  const base = suite.server.baseUrl;
  const post = async (path: string, body: Record<string, unknown>) =>
    call<{ id: string }>(base, operator.token, `${pms}/${path}`, { body });
  const park = (await post("area/save", { areaName: "对账园区", areaType: 1 })).id;
  const collector = (
    await post("collector/submit", {
      collectorName: "对账 DTU",
      collectorCode: `DZ-${operator.tenantId}`,
      areaId: park,
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
  const meters: string[] = [];
  for (const [index, name] of ["李对账", "王旁人"].entries()) {
    const room = (await post("room/save", { areaId: park, roomName: `30${index + 1}` })).id;
    const owner = (
      await post("owner/submit", { ownerName: name, ownerCode: `DZ${index}`, phone: `1380000090${index}` })
    ).id;
    await post("ownerroom/submit", { ownerId: owner, roomId: room });
    const meter = (
      await post("meter/save", {
        productCode: `30000000030${index + 1}`,
        collectorId: collector,
        channel: index + 1,
        controlStatus: 1,
        chargingSchemeId: scheme,
      })
    ).id;
    await post("roommeter/submit", { roomId: room, energyType: 1, meterId: meter });
    await call(base, operator.token, `${pms}/message/openAccount`, {
      body: { meterId: meter, deposit: "100.00" },
    });
    meters.push(meter);
  }
  const [mine, theirs] = meters;
  const book = (meterId: string | undefined, key: string, extra: Record<string, unknown>) =>
    call(base, operator.token, `${pms}/datarecharge/submit`, {
      body: { meterId, idempotencyKey: `money-lists-${key}`, ...extra },
    });
  await book(mine, "0001", { amount: "50", paymentMethod: 1 });
  await book(mine, "0002", { amount: "30", paymentMethod: 3 });
  await book(mine, "0003", { amount: "20", rechargeType: 2, paymentMethod: 1 });
  await book(theirs, "0004", { amount: "70", paymentMethod: 4 });
  return mine;
}

/** Opens a screen of the 收费管理 group from the side menu. */
async function openMoneyMenu(page: Page, code: string): Promise<void> {
  const entry = page.locator(`[data-testid="menu-item"][data-code="${code}"]`);
  if (!(await entry.isVisible())) {
    await page.getByTestId("sidebar").locator(".ant-menu-submenu-title", { hasText: "收费管理" }).click();
  }
  await entry.click();
}

/** Types a day into an antd date box and confirms it. */
async function typeDay(box: Locator, day: string): Promise<void> {
  await box.click();
  await box.fill(day);
  await box.press("Enter");
}

const rowTexts = (screen: Locator) => screen.locator(".ant-table-tbody .ant-table-row").allInnerTexts();

test("recharges of an owner are listed with the totals of the search; the statement shows the period's balances", async () => {
  const { page } = suite.session;
  const operator = await newOperator(suite.server.baseUrl, "收费记录公司");
  await seedAccounts(operator);
  const day = today();
  const platform = await tokenOf(suite.server.baseUrl, admin.tenantId, admin.username, admin.password);
  await call(suite.server.baseUrl, platform, `${pms}/account/closeDay`, { body: { day } });

  await signInOperator(page, operator);
  await openMoneyMenu(page, "dataRecharge");
  await page.waitForURL("**/money/datarecharge");
  const recharges = page.locator('[data-testid="money-list"][data-list="recharges"]');
  await recharges.locator(".ant-table-row").first().waitFor();
  await settled(recharges);
  await expectAccessible(page, "screen 充值记录");
  assert.equal((await rowTexts(recharges)).length, 4, "every recharge of the tenant before a search");
  const allTotals = recharges.getByTestId("money-totals");
  assert.match(await textOf(allTotals), /充值 150\.00.*退款 20\.00.*净收 130\.00/s);

  // Search by the owner: only the owner's three rows, and the totals of those alone.
  await recharges.getByLabel("业主", { exact: true }).fill("李对账");
  await recharges.getByTestId("money-search-submit").click();
  await eventually(async () => assert.equal((await rowTexts(recharges)).length, 3));
  const rows = await rowTexts(recharges);
  assert.ok(
    rows.every((row) => row.includes("李对账")),
    rows.join("\n"),
  );
  // Receipt and meter numbers show whole.
  assert.ok(
    rows.every((row) => /R\d{8}/.test(row) && row.includes("300000000301")),
    rows.join("\n"),
  );
  assert.ok(rows.some((row) => row.includes("退费")));
  await eventually(async () =>
    assert.match(await textOf(allTotals), /充值 80\.00.*退款 20\.00.*净收 60\.00/s),
  );
  // The same sums above the table, seen without scrolling to the amount column.
  assert.equal(
    await textOf(recharges.getByTestId("money-totals-line")),
    "合计: 充值 80.00 · 退款 20.00 · 净收 60.00",
  );
  await recharges.locator(".ant-pagination-total-text", { hasText: "共 3 条" }).waitFor();
  // 导出 downloads the search shown as an Excel workbook.
  const sheet = page.waitForEvent("download");
  await recharges.getByTestId("money-export").click();
  const download = await sheet;
  assert.match(download.suggestedFilename(), /\.xlsx$/);
  assert.match(download.url(), /datarecharge\/export\?.*ownerName=/);

  // A search that finds nothing says so, and has no totals row.
  await recharges.getByLabel("表号", { exact: true }).fill("999999999999");
  await recharges.getByTestId("money-search-submit").click();
  await recharges.locator(".ant-empty").waitFor();
  assert.equal(await allTotals.count(), 0);

  // The statement: choose the account by the owner's name and the period, see both balances.
  await openMoneyMenu(page, "accountStatement");
  await page.waitForURL("**/money/statement");
  const statementPage = page.getByTestId("statement-page");
  await statementPage.getByTestId("statement-empty").waitFor();
  await page.waitForLoadState("networkidle");
  await expectAccessible(page, "screen 账户对账单");
  await chooseOption(page, statementPage.getByLabel("账户", { exact: true }), "李对账");
  await typeDay(statementPage.getByLabel("开始日期", { exact: true }), day);
  await typeDay(statementPage.getByLabel("结束日期", { exact: true }), day);
  await statementPage.getByTestId("statement-show").click();
  const statement = statementPage.getByTestId("statement");
  await statement.waitFor();
  assert.match(await textOf(statement.getByTestId("statement-opening")), /0\.00/);
  assert.match(await textOf(statement.getByTestId("statement-closing")), /160\.00/);
  const totals = await textOf(statement.getByTestId("statement-totals"));
  // Money in: the deposit and two recharges; out: the refund; the day closes at 160.00.
  assert.match(totals, /180\.00.*20\.00.*160\.00/s);
  assert.match(await textOf(statement), /300000000301/);
  assert.equal(await statement.locator(".ant-table-row", { hasText: /R\d{8}/ }).count(), 3);
  await statement.getByTestId("statement-chart").waitFor();
  const statementSheet = page.waitForEvent("download");
  await statementPage.getByTestId("statement-excel").click();
  assert.match((await statementSheet).suggestedFilename(), /\.xlsx$/);
  await page.waitForLoadState("networkidle");
  // The resting page is checked: the pointer left on the Excel button holds it in its hover colours.
  await page.mouse.move(0, 0);
  await page.waitForTimeout(300);
  await expectAccessible(page, "statement of 李对账");

  // 打印 prints the statement alone: the console's frame and the statement's controls drop out.
  await statementPage.getByTestId("statement-print").click();
  await page.emulateMedia({ media: "print" });
  assert.equal(await page.getByTestId("sidebar").isVisible(), false, "no side menu on paper");
  assert.equal(await statementPage.getByTestId("statement-show").isVisible(), false, "no controls on paper");
  assert.equal(await statement.isVisible(), true);
  await page.emulateMedia({ media: "screen" });
});

test("the openings list shows each opening with its deposit and links to the account's statement", async () => {
  const { page } = suite.session;
  const operator = await newOperator(suite.server.baseUrl, "开户记录公司");
  await seedAccounts(operator);
  await signInOperator(page, operator);
  // A picked colour other than the default: the list's links follow it.
  await page.getByTestId("color-picker").click();
  await page.locator(".ant-color-picker-presets-color").nth(3).click();
  await page.keyboard.press("Escape");
  await openMoneyMenu(page, "dataOpenAccount");
  await page.waitForURL("**/money/dataopenaccount");
  const openings = page.locator('[data-testid="money-list"][data-list="openings"]');
  await openings.locator(".ant-table-row").first().waitFor();
  await settled(openings);
  await expectAccessible(page, "screen 开户记录");
  // #52c41a is drawn as its AA shade #347c10: the owner link and the row's 对账单 button.
  const colourOf = (link: Locator) => link.first().evaluate((element) => getComputedStyle(element).color);
  assert.equal(await colourOf(openings.locator(".ant-table-tbody a.ml-detail-link")), "rgb(52, 124, 16)");
  assert.equal(
    await colourOf(openings.locator(".ant-table-tbody").getByRole("button", { name: "对账单" })),
    "rgb(52, 124, 16)",
  );
  const rows = await rowTexts(openings);
  assert.equal(rows.length, 2);
  assert.ok(rows.every((row) => row.includes("100.00")));
  assert.equal(await textOf(openings.getByTestId("money-totals-line")), "合计: 开户金额(元) 200.00");
  assert.match(await textOf(openings.getByTestId("money-totals")), /合计.*200\.00/s);
  await openings
    .locator(".ant-table-row", { hasText: "李对账" })
    .getByRole("button", { name: "对账单" })
    .click();
  await page.waitForURL("**/money/statement?accountId=*");
  // This month so far: the account's days are not closed yet, which the statement says.
  const statement = page.getByTestId("statement");
  await statement.waitFor();
  assert.match(await textOf(statement), /李对账/);
  await statement
    .getByTestId("statement-no-days")
    .or(statement.getByTestId("statement-days"))
    .first()
    .waitFor();
});

test("a list whose call fails says so in place of the table and loads again on 重试", async () => {
  const { page } = suite.session;
  const operator = await newOperator(suite.server.baseUrl, "失败重试公司");
  await seedAccounts(operator);
  await signInOperator(page, operator);
  // The server is unreachable for the recharges page until the operator retries.
  const failing = "**/api/blade-pms/datarecharge/page?**";
  await page.route(failing, (route) => route.abort("connectionrefused"));
  await openMoneyMenu(page, "dataRecharge");
  const recharges = page.locator('[data-testid="money-list"][data-list="recharges"]');
  const failure = recharges.getByTestId("money-error");
  await failure.waitFor();
  assert.equal(
    await recharges.locator(".ant-table").count(),
    0,
    "no stale or empty table beside the failure",
  );
  await expectAccessible(page, "failed 充值记录");
  await page.unroute(failing);
  await failure.getByRole("button").click();
  await recharges.locator(".ant-table-row").first().waitFor();
  assert.equal((await rowTexts(recharges)).length, 4);
  await recharges.getByTestId("money-totals").waitFor();
});

test("payments of an owner are listed with sums by state; a paid one shows its recharge and an unpaid one is deleted", async () => {
  const { page } = suite.session;
  const operator = await newOperator(suite.server.baseUrl, "支付记录公司");
  const meterId = await seedAccounts(operator);
  // An online order not paid yet, beside the two recharges the counter took (paid payments).
  await call(suite.server.baseUrl, operator.token, `${pms}/payment/save`, {
    body: { meterId, amount: "25", paymentMethod: 3, channel: "online" },
  });
  await signInOperator(page, operator);
  await openMoneyMenu(page, "payment");
  await page.waitForURL("**/money/payment");
  const payments = page.locator('[data-testid="money-list"][data-list="payments"]');
  await payments.locator(".ant-table-row").first().waitFor();
  await settled(payments);
  await expectAccessible(page, "screen 支付记录");

  await payments.getByLabel("业主", { exact: true }).fill("李对账");
  await payments.getByTestId("money-search-submit").click();
  await eventually(async () => assert.equal((await rowTexts(payments)).length, 3));
  assert.equal(
    await textOf(payments.getByTestId("money-totals-line")),
    "合计: 已支付 80.00 · 未支付 25.00 · 支付失败 0.00",
  );
  const unpaid = payments.locator(".ant-table-row", { hasText: "未支付" });
  assert.match(await textOf(unpaid), /线上.*未支付/s);

  // A paid payment's details list the recharge it paid for.
  await payments
    .locator(".ant-table-row", { hasText: "50.00" })
    .getByRole("button", { name: /^详 ?情$/ })
    .click();
  const detail = page.getByTestId("payment-detail");
  await detail.locator(".ant-table-row", { hasText: /R\d{8}/ }).waitFor();
  await page.waitForLoadState("networkidle");
  await expectAccessible(page, "payment details");
  await page.keyboard.press("Escape");
  await detail.waitFor({ state: "detached" });

  // Only the unpaid one offers 删除; after confirming it is gone and the sums follow.
  assert.equal(await payments.getByRole("button", { name: /^删 ?除$/ }).count(), 1);
  await unpaid.getByRole("button", { name: /^删 ?除$/ }).click();
  await page.getByTestId("payment-remove-ok").click();
  await eventually(async () => assert.equal((await rowTexts(payments)).length, 2));
  await eventually(async () =>
    assert.equal(
      await textOf(payments.getByTestId("money-totals-line")),
      "合计: 已支付 80.00 · 未支付 0.00 · 支付失败 0.00",
    ),
  );
});

test("a payment order is taken for an account, confirmed with its transaction number and booked once; another is closed", async () => {
  const { page } = suite.session;
  const operator = await newOperator(suite.server.baseUrl, "支付到账公司");
  const meterId = await seedAccounts(operator);
  await signInOperator(page, operator);
  await openMoneyMenu(page, "payment");
  await page.waitForURL("**/money/payment");
  const payments = page.locator('[data-testid="money-list"][data-list="payments"]');
  await settled(payments);
  await payments.getByLabel("业主", { exact: true }).fill("李对账");
  await payments.getByTestId("money-search-submit").click();
  await eventually(async () => assert.equal((await rowTexts(payments)).length, 2));

  // 新增支付单: account, amount and method are required; the order waits unpaid.
  await payments.getByTestId("payment-order").click();
  const order = page.getByTestId("payment-order-dialog");
  await order.waitFor();
  await page.getByTestId("payment-order-ok").click();
  await order.getByText("请选择账户").waitFor();
  await order.getByText("请选择支付方式").waitFor();
  await chooseOption(page, order.locator("#accountId"), "李对账");
  await order.locator("#amount").fill("40");
  await chooseOption(page, order.locator("#paymentMethod"), "银联", false);
  await order.locator("#remark").fill("银行转账");
  await expectAccessible(page, "新增支付单 dialog");
  await page.getByTestId("payment-order-ok").click();
  await toast(page, "支付单已保存，确认到账后入账");
  await order.waitFor({ state: "detached" });
  await eventually(async () =>
    assert.equal(
      await textOf(payments.getByTestId("money-totals-line")),
      "合计: 已支付 80.00 · 未支付 40.00 · 支付失败 0.00",
    ),
  );

  // 确认到账 needs a well-formed transaction number; then the recharge is booked.
  const unpaid = payments.locator(".ant-table-row", { hasText: "未支付" });
  await unpaid.getByTestId("payment-confirm").click();
  const confirm = page.getByTestId("payment-confirm-dialog");
  await confirm.waitFor();
  await page.getByTestId("payment-confirm-ok").click();
  await confirm.getByText("请输入交易号").waitFor();
  await confirm.locator("#transactionNo").fill("流水 001");
  await confirm.getByText("交易号应为 1 到 64 位字母、数字、- 或 _").waitFor();
  await confirm.locator("#transactionNo").fill("BANK-20261127-001");
  await page.getByTestId("payment-confirm-ok").click();
  await toast(page, "支付已确认，已入账");
  await eventually(async () =>
    assert.equal(
      await textOf(payments.getByTestId("money-totals-line")),
      "合计: 已支付 120.00 · 未支付 0.00 · 支付失败 0.00",
    ),
  );
  const paid = payments.locator(".ant-table-row", { hasText: "BANK-20261127-001" });
  assert.match(await textOf(paid), /40\.00.*已支付/s);
  assert.equal(await paid.getByTestId("payment-confirm").count(), 0, "a paid payment is not confirmed again");
  await paid.getByRole("button", { name: /^详 ?情$/ }).click();
  const detail = page.getByTestId("payment-detail");
  await detail.locator(".ant-table-row", { hasText: /R\d{8}/ }).waitFor();
  await page.keyboard.press("Escape");
  await detail.waitFor({ state: "detached" });
  // Booked once: the account's ledger holds exactly one recharge of this payment.
  const recharges = await call<{ records: { amount: string }[] }>(
    suite.server.baseUrl,
    operator.token,
    `${pms}/datarecharge/page`,
    { query: { ownerName: "李对账", current: "1", size: "50" } },
  );
  assert.equal(recharges.records.filter((r) => r.amount === "40.00").length, 1);

  // 关闭: an order that will never be paid is closed and counts among the failed.
  await call(suite.server.baseUrl, operator.token, `${pms}/payment/save`, {
    body: { meterId, amount: "15", paymentMethod: 1 },
  });
  await payments.getByTestId("money-search-submit").click();
  await payments.locator(".ant-table-row", { hasText: "未支付" }).getByTestId("payment-close").click();
  await page.getByTestId("payment-close-ok").click();
  await toast(page, "支付单已关闭");
  await eventually(async () =>
    assert.equal(
      await textOf(payments.getByTestId("money-totals-line")),
      "合计: 已支付 120.00 · 未支付 0.00 · 支付失败 15.00",
    ),
  );
});
