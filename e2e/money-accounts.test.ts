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
  // A deposit is money taken: its receipt comes at once, closed here without printing.
  await page.getByTestId("counter-receipt").waitFor();
  await page.getByTestId("counter-receipt-close").click();
  await page.getByTestId("counter-receipt").waitFor({ state: "detached" });
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

test("a batch opening of three ticked meters runs as a job, and a refused meter is retried alone", async () => {
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
  const job = page.getByTestId("job-dialog");
  /** Waits for the job's dialog to show every meter settled, with these counts. */
  const jobSettles = async (total: number, success: number, fail: number) => {
    const progress = job.getByTestId("job-progress");
    await eventually(async () => {
      assert.equal(await progress.getAttribute("data-total"), String(total));
      assert.equal(await progress.getAttribute("data-settled"), String(total));
    }, 30_000);
    assert.match(await textOf(job.getByTestId("job-count-success")), new RegExp(`成功\\s*${success}\\b`));
    assert.match(await textOf(job.getByTestId("job-count-fail")), new RegExp(`失败\\s*${fail}\\b`));
  };
  await signInOperator(page, operator);
  const meters = await openResource(page, "/pms/meter", "meter");
  for (const code of [a, b, c]) await rowsWith(meters, code!).locator(".ant-checkbox-input").check();
  await meters.getByTestId("account-batch-open").click();
  const batch = page.getByTestId("account-batch-dialog");
  await batch.waitFor();
  await page.getByLabel("每块表的开户预存金额").fill("20");
  await expectAccessible(page, "batch opening dialog");
  await page.getByTestId("account-batch-start").click();
  await job.waitFor();
  await jobSettles(3, 3, 0);
  await expectAccessible(page, "batch opening job");
  await page.getByTestId("job-dialog-close").click();
  await job.waitFor({ state: "detached" });
  for (const code of [a, b, c]) await statusIs(meters, code!, "已开户");
  await statusIs(meters, d!, "未开户");

  // From the tree: the four opened meters (one opened behind the screen's back) close as one job.
  await call(base, operator.token, "/api/blade-pms/message/openAccount", {
    body: { meterId: site.meters[3]!.id },
  });
  await meters.getByTestId("account-batch-close").click();
  await batch.waitFor();
  await page.getByTestId("account-source-tree").click();
  const tree = page.getByTestId("account-tree");
  await tree.waitFor();
  for (const code of [a, b, c, d]) await tree.getByText(code!).waitFor();
  await tree
    .locator(".ant-tree-treenode", { hasText: "收费园区" })
    .first()
    .locator(".ant-tree-checkbox")
    .click();
  await page.getByTestId("account-batch-start").click();
  await job.waitFor();
  await jobSettles(4, 4, 0);
  await page.getByTestId("job-dialog-close").click();
  for (const code of [a, b, c, d]) await statusIs(meters, code!, "未开户");

  // A meter opened meanwhile is refused alone: the other opens; once the cause is gone, the retry
  // opens exactly the refused one. The ticks stay across reloads: keep a and b.
  await rowsWith(meters, c!).locator(".ant-checkbox-input").uncheck();
  for (const code of [a, b]) await rowsWith(meters, code!).locator(".ant-checkbox-input").check();
  await call(base, operator.token, "/api/blade-pms/message/openAccount", {
    body: { meterId: site.meters[0]!.id },
  });
  await meters.getByTestId("account-batch-open").click();
  await batch.waitFor();
  await page.getByTestId("account-batch-start").click();
  await job.waitFor();
  await jobSettles(2, 1, 1);
  await call(base, operator.token, "/api/blade-pms/message/closeAccount", {
    body: { meterId: site.meters[0]!.id },
  });
  const firstJob = String(await job.getAttribute("data-job-id"));
  await page.getByTestId("job-dialog-retry").click();
  await page.getByTestId("batch-job-confirm-ok").click();
  await eventually(async () => assert.notEqual(await job.getAttribute("data-job-id"), firstJob));
  await jobSettles(1, 1, 0);
  await page.getByTestId("job-dialog-close").click();
  for (const code of [a, b]) await statusIs(meters, code!, "已开户");
  assert.deepEqual(suite.session.errors, []);
});
