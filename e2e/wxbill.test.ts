import assert from "node:assert/strict";
import { generateKeyPairSync } from "node:crypto";
import { after, test } from "node:test";
import { WxpayDouble } from "../apps/server/src/modules/wxpay/double/wxpay-double.ts";
import { expectAccessible } from "./axe.ts";
import { textOf, useBrowserSuite } from "./harness.ts";
import { seedMoneySite } from "./money-helpers.ts";
import { call, chooseOption, newOperator, type Operator, signInOperator } from "./registry-helpers.ts";

const suite = useBrowserSuite();
const double = new WxpayDouble();
after(() => double.close());

const MERCHANT = {
  mchid: "1900000888",
  appid: "wx8888888888888808",
  apiV3Key: "e2e-wxbill-api-v3-key-0123456789",
};
/** The China day the double's bill is asked for (its trades are stamped in Beijing time). */
const chinaDay = (at: Date) => new Date(at.getTime() + 8 * 3_600_000).toISOString().slice(0, 10);

/** A tenant whose merchant is the double, with nothing paid: the planted payment is all the bill has. */
async function reconciledSite() {
  const operator = await newOperator(suite.server.baseUrl, "微信对账物业");
  await payThroughDouble(operator, MERCHANT);
  return operator;
}

/** The tenant's wxconfig names `merchant` at the double. */
async function payThroughDouble(operator: Operator, merchant: typeof MERCHANT) {
  const base = suite.server.baseUrl;
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  if (!double.base) await double.listen();
  double.addMerchant({
    ...merchant,
    publicKey: publicKey.export({ type: "spki", format: "pem" }).toString(),
  });
  await call(base, operator.token, "/api/blade-pms/wxconfig/submit", {
    body: {
      appId: merchant.appid,
      mchId: merchant.mchid,
      apiV3Key: merchant.apiV3Key,
      certSerialNo: `E2E000000000000000000000000000000${merchant.mchid.slice(-7)}`,
      privateKey: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
      notifyUrl: `${base}/api/blade-pms/wxpay/notify/${operator.tenantId}`,
      platformSerialNo: double.platformSerial,
      platformPublicKey: double.platformPublicKey,
      apiBase: double.base,
      enabled: 1,
    },
  });
}

test("微信对账 reconciles a day with a planted payment, settles it with a reason, in zh and en", async () => {
  const { page, errors } = suite.session;
  const operator = await reconciledSite();
  const day = chinaDay(new Date());
  double.plantPayment(MERCHANT.mchid, "MLE2EPLANTED001", 1234, day);
  await signInOperator(page, operator);
  const sidebar = page.getByTestId("sidebar");
  await sidebar.locator('[data-testid="menu-group"][data-code="money"]').click();
  await sidebar.locator('[data-testid="menu-item"][data-code="wxbill"]').click();
  await page.waitForURL("**/money/wxbill");
  const screen = page.getByTestId("wxbill-page");
  await screen.getByText("还没有对账记录").waitFor();
  await expectAccessible(page, "wxbill empty");

  await screen.getByTestId("wxbill-date").fill(day);
  await screen.getByTestId("wxbill-reconcile").click();
  await page.getByText("对账完成").waitFor();
  const bill = screen.getByTestId("wxbill-bills").locator(".ant-table-row", { hasText: day });
  await bill.waitFor();
  assert.match(await textOf(bill), /有差异/);
  const diff = screen.getByTestId("wxbill-diffs").locator(".ant-table-row", { hasText: "MLE2EPLANTED001" });
  await diff.waitFor();
  assert.match(await textOf(diff), /微信有、本系统无/);
  assert.match(await textOf(diff), /12\.34/);
  await screen.getByTestId("wxbill-export").waitFor();
  await expectAccessible(page, "wxbill differences");

  await diff.getByTestId("wxbill-settle").click();
  const dialog = page.locator(".ant-modal", { hasText: "处理差异" });
  await dialog.waitFor();
  await chooseOption(page, dialog.locator(".ant-select"), "确认,不动资金", false);
  await page.getByTestId("wxbill-settle-ok").click();
  await dialog.getByText("请填写原因").waitFor();
  await expectAccessible(page, "wxbill settle dialog");
  await dialog.getByLabel("原因").fill("其他系统收的款");
  await page.getByTestId("wxbill-settle-ok").click();
  await page.getByText("已处理", { exact: true }).first().waitFor();
  // Settled differences leave the open list; the day is balanced now.
  await screen.getByTestId("wxbill-diffs").getByText("没有差异").waitFor();
  await bill.getByText("已平").waitFor();
  const { records } = await call<{ records: { state: string; action: string; reason: string }[] }>(
    suite.server.baseUrl,
    operator.token,
    "/api/blade-pms/wxbill/diff-list?current=1&size=10",
  );
  assert.deepEqual(
    records.map((r) => [r.state, r.action, r.reason]),
    [["settled", "acknowledge", "其他系统收的款"]],
  );

  await page.evaluate(() =>
    localStorage.setItem("saber-language", JSON.stringify({ dataType: "string", content: "en" })),
  );
  await page.goto("/money/wxbill");
  const english = page.getByTestId("wxbill-page");
  await english.getByTestId("wxbill-bills").locator(".ant-table-row", { hasText: "Balanced" }).waitFor();
  await english.getByText("Differences").first().waitFor();
  await expectAccessible(page, "wxbill en");
  assert.deepEqual(errors, []);
});

test("微信对账 says why a run failed, and lists a counter 微信 recharge the bill lacks as a difference of its own", async () => {
  const { page, errors } = suite.session;
  const base = suite.server.baseUrl;
  const operator = await newOperator(base, "柜台微信物业");
  const today = chinaDay(new Date());
  const yesterday = chinaDay(new Date(Date.now() - 24 * 3_600_000));
  await signInOperator(page, operator);
  await page.goto("/money/wxbill");
  const screen = page.getByTestId("wxbill-page");
  const reconcile = async (day: string) => {
    await screen.getByTestId("wxbill-date").fill(day);
    await screen.getByTestId("wxbill-reconcile").click();
  };
  const billRow = (day: string) =>
    screen.getByTestId("wxbill-bills").locator(".ant-table-row", { hasText: day });

  // No merchant yet: the run fails, and says so above the list and in the day's row.
  await reconcile(yesterday);
  const failure = screen.getByTestId("wxbill-failure");
  await failure.getByText(`${yesterday} 对账失败:未配置或未启用微信支付商户`, { exact: false }).waitFor();
  await billRow(yesterday).getByText("失败").waitFor();
  await billRow(yesterday).getByText("未配置或未启用微信支付商户", { exact: false }).waitFor();
  await expectAccessible(page, "wxbill failed run");

  // A merchant now, but its bill is not the file WeChat Pay vouched for.
  const merchant = {
    mchid: "1900000889",
    appid: "wx8888888888888809",
    apiV3Key: "e2e-wxbill-api-v3-key-counter-01",
  };
  await payThroughDouble(operator, merchant);
  double.tamperBillHash(merchant.mchid);
  await reconcile(yesterday);
  await failure.getByText("账单文件与微信支付给出的校验值不符", { exact: false }).waitFor();
  // The list reloads after the run: the day's one row (the run without a merchant replaced) says why.
  await billRow(yesterday).getByText("账单文件与微信支付给出的校验值不符", { exact: false }).waitFor();
  assert.match(await textOf(billRow(yesterday)), /失败/);
  assert.equal(await billRow(yesterday).count(), 1);
  double.tamperBillHash(merchant.mchid, false);

  // Taken at the counter as 微信 today, with no trade in the bill: the day does not balance.
  const site = await seedMoneySite(base, operator, {
    rooms: 1,
    firstCode: 530000000101,
    ownerName: "孙柜台",
    phone: "13900000531",
  });
  const [opened] = await call<{ accountId: string }[]>(
    base,
    operator.token,
    "/api/blade-pms/message/openAccount",
    {
      body: { meterId: site.meters[0]!.id },
    },
  );
  const taken = await call<{ receiptNo: string }>(
    base,
    operator.token,
    "/api/blade-pms/datarecharge/submit",
    {
      body: {
        accountId: opened!.accountId,
        paymentMethod: 3,
        amount: "200",
        idempotencyKey: "e2e-wxbill-counter",
      },
    },
  );
  await reconcile(today);
  await page.getByText("对账完成").waitFor();
  assert.equal(await failure.count(), 0);
  const day = billRow(today);
  await day.getByText("有差异").waitFor();
  assert.match(await textOf(day), /200\.00/);
  const diff = screen.getByTestId("wxbill-diffs").locator(".ant-table-row", { hasText: taken.receiptNo });
  await diff.waitFor();
  const text = await textOf(diff);
  for (const part of ["柜台记为微信、账单无", "200.00", "孙柜台", "收费园区 M101", "收款操作员"])
    assert.ok(text.includes(part), `${part} in ${text}`);
  await expectAccessible(page, "wxbill counter difference");

  await diff.getByTestId("wxbill-settle").click();
  const dialog = page.locator(".ant-modal", { hasText: taken.receiptNo });
  await dialog.waitFor();
  await dialog.getByText("确认,不动资金").waitFor();
  await dialog.getByLabel("原因").fill("业主扫了收银员的个人收款码,款已上交");
  await page.getByTestId("wxbill-settle-ok").click();
  await screen.getByTestId("wxbill-diffs").getByText("没有差异").waitFor();
  await day.getByText("已平").waitFor();

  await page.evaluate(() =>
    localStorage.setItem("saber-language", JSON.stringify({ dataType: "string", content: "en" })),
  );
  await page.goto("/money/wxbill");
  const english = page.getByTestId("wxbill-page");
  await english
    .getByTestId("wxbill-bills")
    .locator(".ant-table-row", { hasText: yesterday })
    .getByText("The bill file does not match the checksum WeChat Pay gave", { exact: false })
    .waitFor();
  await english.getByText("Recorded here as WeChat").waitFor();
  await chooseOption(page, english.getByLabel("Handling"), "All", false);
  const settled = english.getByTestId("wxbill-diffs").locator(".ant-table-row", { hasText: taken.receiptNo });
  await settled.getByText("Counter WeChat, not in the bill").waitFor();
  await settled.getByText("Taken by", { exact: false }).waitFor();
  await expectAccessible(page, "wxbill counter en");
  assert.deepEqual(errors, []);
});
