import assert from "node:assert/strict";
import { generateKeyPairSync } from "node:crypto";
import { after, test } from "node:test";
import { WxpayDouble } from "../apps/server/src/modules/wxpay/double/wxpay-double.ts";
import { expectAccessible } from "./axe.ts";
import { textOf, useBrowserSuite } from "./harness.ts";
import { call, chooseOption, eventually, newOperator, signInOperator } from "./registry-helpers.ts";

const suite = useBrowserSuite();
const double = new WxpayDouble();
after(() => double.close());

const METER = "000000002001";
const MERCHANT = {
  mchid: "1900000777",
  appid: "wx7777777777777777",
  apiV3Key: "e2e-wxpay-api-v3-key-0123456789a",
};

/**
 * A tenant paid through the local WeChat Pay double: its wxconfig points there, one owner with an
 * open remote-control account of 40 元 in room W-101.
 */
async function wxpaySite() {
  const base = suite.server.baseUrl;
  const operator = await newOperator(base, "微信支付物业");
  const post = (path: string, body: unknown) =>
    call<{ id: string }>(base, operator.token, `/api/blade-pms/${path}`, { body });
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  await double.listen();
  double.addMerchant({
    ...MERCHANT,
    publicKey: publicKey.export({ type: "spki", format: "pem" }).toString(),
  });
  await post("wxconfig/submit", {
    appId: MERCHANT.appid,
    mchId: MERCHANT.mchid,
    apiV3Key: MERCHANT.apiV3Key,
    certSerialNo: "E2E0000000000000000000000000000000000777",
    privateKey: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
    notifyUrl: `${base}/api/blade-pms/wxpay/notify/${operator.tenantId}`,
    platformSerialNo: double.platformSerial,
    platformPublicKey: double.platformPublicKey,
    apiBase: double.base,
    enabled: 1,
  });
  const area = (await post("area/save", { areaName: "支付园区", areaType: 1 })).id;
  const room = (await post("room/save", { areaId: area, roomName: "W-101" })).id;
  const collector = (
    await post("collector/submit", { collectorName: "支付DTU", collectorCode: `E2E-WX-${operator.tenantId}` })
  ).id;
  const scheme = (
    await post("chargingscheme/submit", { schemeName: "电价", energyType: 1, priceMode: 1, price: "0.5883" })
  ).id;
  const meter = (
    await post("meter/submit", {
      productCode: METER,
      collectorId: collector,
      controlStatus: 1,
      chargingSchemeId: scheme,
    })
  ).id;
  await post("roommeter/submit", { roomId: room, energyType: 1, meterId: meter });
  const owner = (await post("owner/submit", { ownerName: "扫码业主", phone: "13900002001" })).id;
  await post("ownerroom/submit", { ownerId: owner, roomId: room });
  await post("message/openAccount", { meterId: meter, deposit: "40.00" });
  return operator;
}

test("the counter shows a WeChat Pay QR code, books the owner's payment, and 微信支付订单 lists and refunds it", async () => {
  const { page, errors } = suite.session;
  const operator = await wxpaySite();
  await signInOperator(page, operator);
  const sidebar = page.getByTestId("sidebar");
  await sidebar.locator('[data-testid="menu-group"][data-code="money"]').click();
  await sidebar.locator('[data-testid="menu-item"][data-code="ownerRecharge"]').click();
  await page.waitForURL("**/money/ownerrecharge");
  const counter = page.getByTestId("counter-page");
  await counter.getByTestId("counter-owner").first().click();
  const account = counter.getByTestId("counter-accounts").locator(".ant-table-row", { hasText: METER });
  await account.getByTestId("counter-recharge").click();
  const form = page.getByTestId("counter-form");
  await form.getByLabel("金额").fill("25.50");
  await chooseOption(page, form.locator(".ant-select", { hasText: "现金" }), "微信扫码", false);
  await page.getByTestId("counter-submit").click();
  const shown = page.getByTestId("wxpay-native");
  await shown.waitFor();
  const codeUrl = await textOf(page.getByTestId("wxpay-code-url"));
  assert.match(codeUrl, /^weixin:\/\/wxpay\/bizpayurl\?pr=\w+$/);
  assert.ok(await shown.locator("canvas, svg").count(), "the QR code is drawn");
  await expectAccessible(page, "counter WeChat QR code");
  // The owner pays on the phone: the notification books it, and the counter hands over the receipt.
  const { records } = await call<{ records: { outTradeNo: string }[] }>(
    suite.server.baseUrl,
    operator.token,
    "/api/blade-pms/wxpay/list?current=1&size=10",
  );
  assert.equal(records.length, 1);
  await double.pay(MERCHANT.mchid, records[0]!.outTradeNo);
  await page.getByTestId("counter-receipt").waitFor();
  assert.equal(await textOf(page.getByTestId("counter-receipt").getByTestId("receipt-amount")), "25.50");
  assert.equal(await textOf(page.getByTestId("counter-receipt").getByTestId("receipt-balance")), "65.50");
  await page.getByTestId("counter-receipt-close").click();

  // 微信支付订单: the order with its booked recharge, refunded in part from its row.
  await sidebar.locator('[data-testid="menu-item"][data-code="wxpay"]').click();
  await page.waitForURL("**/money/wxpay");
  const row = page.locator('[data-list="wxpay"] .ant-table-row', { hasText: records[0]!.outTradeNo });
  await row.waitFor();
  assert.match(await textOf(row), /扫码业主/);
  assert.match(await textOf(row), /已支付/);
  await expectAccessible(page, "wxpay orders");
  await row.getByTestId("wxpay-refund").click();
  const refund = page.locator(".ant-modal", { hasText: "微信退款" });
  await refund.getByLabel(/退款金额/).fill("30");
  await page.getByTestId("wxpay-refund-ok").click();
  await refund.getByText("退款金额不能超过可退金额").waitFor();
  await refund.getByLabel(/退款金额/).fill("5.50");
  await refund.getByLabel("退款原因").fill("多充");
  await page.getByTestId("wxpay-refund-ok").click();
  await page.getByText("退款已提交").waitFor();
  assert.equal(double.order(MERCHANT.mchid, records[0]!.outTradeNo)?.refunded, 550);
  // The list shows what was refunded beside the amount.
  await eventually(async () => assert.match(await textOf(row), /25\.50.*5\.50/s));
  // 详情 shows the order with its refund, its reason and where it stands, in words.
  await row.getByTestId("wxpay-detail").click();
  const detail = page.getByTestId("wxpay-order");
  const refundRow = detail.getByTestId("wxpay-order-refunds").locator(".ant-table-row", { hasText: "多充" });
  await refundRow.waitFor();
  assert.match(await textOf(refundRow), /5\.50.*退款(处理中|成功)/s);
  assert.match(await textOf(detail), new RegExp(records[0]!.outTradeNo));
  await expectAccessible(page, "wxpay order detail");
  await detail.locator(".ant-modal-footer button").click();
  await detail.waitFor({ state: "hidden" });
  assert.deepEqual(errors, []);
});
