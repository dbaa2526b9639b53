import assert from "node:assert/strict";
import { generateKeyPairSync } from "node:crypto";
import { after, test } from "node:test";
import { WxpayDouble } from "../apps/server/src/modules/wxpay/double/wxpay-double.ts";
import { expectAccessible } from "./axe.ts";
import { textOf, useBrowserSuite } from "./harness.ts";
import { call, chooseOption, newOperator, signInOperator } from "./registry-helpers.ts";

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
  const base = suite.server.baseUrl;
  const operator = await newOperator(base, "微信对账物业");
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  await double.listen();
  double.addMerchant({
    ...MERCHANT,
    publicKey: publicKey.export({ type: "spki", format: "pem" }).toString(),
  });
  await call(base, operator.token, "/api/blade-pms/wxconfig/submit", {
    body: {
      appId: MERCHANT.appid,
      mchId: MERCHANT.mchid,
      apiV3Key: MERCHANT.apiV3Key,
      certSerialNo: "E2E0000000000000000000000000000000000888",
      privateKey: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
      notifyUrl: `${base}/api/blade-pms/wxpay/notify/${operator.tenantId}`,
      platformSerialNo: double.platformSerial,
      platformPublicKey: double.platformPublicKey,
      apiBase: double.base,
      enabled: 1,
    },
  });
  return operator;
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
