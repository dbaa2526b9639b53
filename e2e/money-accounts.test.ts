import assert from "node:assert/strict";
import { test } from "node:test";
import type { Locator } from "playwright-core";
import { expectAccessible } from "./axe.ts";
import { clickRowAction, openResource, rowsWith, settled, toast } from "./crud-helpers.ts";
import { textOf, useBrowserSuite } from "./harness.ts";
import { seedMoneySite } from "./money-helpers.ts";
import { call, eventually, newOperator, signInOperator } from "./registry-helpers.ts";

const suite = useBrowserSuite();

/** The ACCOUNT_STATUS the row of this meter shows once the table has reloaded. */
const statusIs = (screen: Locator, productCode: string, status: "已开户" | "未开户") =>
  eventually(async () => {
    await settled(screen);
    assert.match(await textOf(rowsWith(screen, productCode)), new RegExp(status));
  });

test("a meter's account opens with a deposit from its row and closes with its final settlement", async () => {
  const { page } = suite.session;
  const base = suite.server.baseUrl;
  const operator = await newOperator(base, "开户公司");
  const site = await seedMoneySite(base, operator, {
    rooms: 1,
    firstCode: 500000000101,
    ownerName: "钱开户",
    phone: "13900000501",
  });
  const meter = site.meters[0]!.productCode;
  await signInOperator(page, operator);

  const meters = await openResource(page, "/pms/meter", "meter");
  await statusIs(meters, meter, "未开户");
  // An unopened meter offers 开户 only (in its "more" menu).
  await rowsWith(meters, meter).getByTestId("row-more").click();
  const menu = page.locator(".ant-dropdown:visible");
  assert.equal(await menu.getByTestId("row-account-close").count(), 0);
  await menu.getByTestId("row-account-open").click();
  const opening = page.getByTestId("account-open-dialog");
  await opening.waitFor();
  await expectAccessible(page, "account opening dialog");
  // A deposit with three decimals is refused before anything is sent.
  await page.getByLabel("开户预存金额").fill("12.345");
  await page.getByTestId("account-open-ok").click();
  await page.getByText("请输入不超过两位小数的金额").waitFor();
  await page.getByLabel("开户预存金额").fill("88.50");
  await page.getByTestId("account-open-ok").click();
  await toast(page, "开户成功，余额 88.50 元");
  await opening.waitFor({ state: "detached" });
  await statusIs(meters, meter, "已开户");

  // A recharge booked elsewhere makes the balance to pay back 100.00.
  const [account] = (
    await call<{ records: { accounts: { id: string }[] }[] }>(
      base,
      operator.token,
      "/api/blade-pms/ownerRecharge/page",
    )
  ).records[0]!.accounts;
  await call(base, operator.token, "/api/blade-pms/datarecharge/submit", {
    body: {
      accountId: account!.id,
      rechargeType: 1,
      paymentMethod: 1,
      amount: "11.50",
      idempotencyKey: "e2e-close-1",
    },
  });

  await clickRowAction(rowsWith(meters, meter), "row-account-close");
  const closing = page.getByTestId("account-close-dialog");
  await closing.waitFor();
  // The confirmation states the rule before anything happens.
  assert.match(await textOf(closing), /余额大于零的全部退还业主，余额小于零的记为欠款/);
  await expectAccessible(page, "account closing dialog");
  await page.getByTestId("account-close-ok").click();
  await page.getByTestId("account-settlement").waitFor();
  assert.equal(await textOf(page.getByTestId("settlement-refunded")), "100.00 元");
  assert.equal(await textOf(page.getByTestId("settlement-debt")), "0.00 元");
  await expectAccessible(page, "final settlement");
  await page.getByTestId("account-close-done").click();
  await closing.waitFor({ state: "detached" });
  await statusIs(meters, meter, "未开户");
  assert.deepEqual(suite.session.errors, []);
});

test("a batch opening of three ticked meters shows its progress and result, and names a refused meter's reason", async () => {
  const { page } = suite.session;
  const base = suite.server.baseUrl;
  const operator = await newOperator(base, "批量公司");
  const site = await seedMoneySite(base, operator, {
    rooms: 4,
    firstCode: 510000000101,
    ownerName: "钱批量",
    phone: "13900000511",
  });
  const [a, b, c, d] = site.meters.map((m) => m.productCode);
  await signInOperator(page, operator);
  const meters = await openResource(page, "/pms/meter", "meter");
  for (const code of [a, b, c]) await rowsWith(meters, code!).locator(".ant-checkbox-input").check();
  await meters.getByTestId("account-batch-open").click();
  const batch = page.getByTestId("account-batch-dialog");
  await batch.waitFor();
  await page.getByLabel("每块表的开户预存金额").fill("20");
  await expectAccessible(page, "batch opening dialog");
  await page.getByTestId("account-batch-start").click();
  await page.getByTestId("account-batch-summary").waitFor();
  assert.match(await textOf(page.getByTestId("account-batch-summary")), /开户完成：成功 3 块，失败 0 块/);
  assert.equal(await page.getByTestId("account-batch-progress").getAttribute("aria-valuenow"), "100");
  await expectAccessible(page, "batch opening result");
  await page.getByTestId("account-batch-finish").click();
  await batch.waitFor({ state: "detached" });
  for (const code of [a, b, c]) await statusIs(meters, code!, "已开户");
  await statusIs(meters, d!, "未开户");

  // From the tree: a meter opened behind the screen's back is refused with the server's reason.
  await call(base, operator.token, "/api/blade-pms/message/openAccount", {
    body: { meterId: site.meters[3]!.id },
  });
  await meters.getByTestId("account-batch-close").click();
  await batch.waitFor();
  await page.getByTestId("account-source-tree").click();
  const tree = page.getByTestId("account-tree");
  await tree.waitFor();
  // The closing tree lists the four opened meters under their area and rooms; tick the area.
  for (const code of [a, b, c, d]) await tree.getByText(code!).waitFor();
  await tree
    .locator(".ant-tree-treenode", { hasText: "收费园区" })
    .first()
    .locator(".ant-tree-checkbox")
    .click();
  await expectAccessible(page, "batch closing tree");
  await page.getByTestId("account-batch-start").click();
  await page.getByTestId("account-batch-summary").waitFor();
  assert.match(await textOf(page.getByTestId("account-batch-summary")), /销户完成：成功 4 块，失败 0 块/);
  assert.equal(await page.getByTestId("account-batch-settlement").count(), 4);
  await page.getByTestId("account-batch-finish").click();
  await batch.waitFor({ state: "detached" });
  for (const code of [a, b, c, d]) await statusIs(meters, code!, "未开户");

  // A refused chunk: the server's reason beside the meters, the counts, and a retry that succeeds.
  // The ticks stay across reloads: keep a and b.
  await rowsWith(meters, c!).locator(".ant-checkbox-input").uncheck();
  for (const code of [a, b]) await rowsWith(meters, code!).locator(".ant-checkbox-input").check();
  await call(base, operator.token, "/api/blade-pms/message/openAccount", {
    body: { meterId: site.meters[0]!.id },
  });
  await meters.getByTestId("account-batch-open").click();
  await batch.waitFor();
  await page.getByTestId("account-batch-start").click();
  await page.getByTestId("account-batch-summary").waitFor();
  assert.match(await textOf(page.getByTestId("account-batch-summary")), /失败 2 块/);
  assert.match(await textOf(page.getByTestId("account-batch-failure")), new RegExp(`${a}.*已开户`));
  await expectAccessible(page, "batch failure list");
  // Once the cause is gone, the retry sends the failed chunk again and it goes through.
  await call(base, operator.token, "/api/blade-pms/message/closeAccount", {
    body: { meterId: site.meters[0]!.id },
  });
  await page.getByTestId("account-batch-retry").click();
  await eventually(async () =>
    assert.match(await textOf(page.getByTestId("account-batch-summary")), /开户完成：成功 2 块，失败 0 块/),
  );
  assert.equal(await page.getByTestId("account-batch-failure").count(), 0);
  await page.getByTestId("account-batch-finish").click();
  for (const code of [a, b]) await statusIs(meters, code!, "已开户");
  assert.deepEqual(suite.session.errors, []);
});
