import assert from "node:assert/strict";
import { generateKeyPairSync } from "node:crypto";
import { after, test } from "node:test";
import { WxpayDouble } from "../apps/server/src/modules/wxpay/double/wxpay-double.ts";
import { expectAccessible } from "./axe.ts";
import { textOf, useBrowserSuite } from "./harness.ts";
import { call, newOperator, signInOperator } from "./registry-helpers.ts";

const suite = useBrowserSuite();
const double = new WxpayDouble();
after(() => double.close());

const METER = "000000003901";
const MERCHANT = {
  mchid: "1900003939",
  appid: "wx3939393939393939",
  apiV3Key: "e2e-codepay-api-v3-key-012345678",
};

/** A tenant whose WeChat Pay merchant is the local double, one owner with a server-kept account of 40 元. */
async function codePaySite() {
  const base = suite.server.baseUrl;
  const operator = await newOperator(base, "扫码收款物业");
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
    certSerialNo: "E2E0000000000000000000000000000000003939",
    privateKey: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
    notifyUrl: `${base}/api/blade-pms/wxpay/notify/${operator.tenantId}`,
    platformSerialNo: double.platformSerial,
    platformPublicKey: double.platformPublicKey,
    apiBase: double.base,
    enabled: 1,
  });
  const area = (await post("area/save", { areaName: "扫码园区", areaType: 1 })).id;
  const room = (await post("room/save", { areaId: area, roomName: "C-101" })).id;
  const collector = (
    await post("collector/submit", { collectorName: "扫码DTU", collectorCode: `E2E-CP-${operator.tenantId}` })
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
  const owner = (await post("owner/submit", { ownerName: "扫码付款业主", phone: "13900003901" })).id;
  await post("ownerroom/submit", { ownerId: owner, roomId: room });
  await post("message/openAccount", { meterId: meter, deposit: "40.00" });
  return operator;
}

test("a cashier scans the owner's payment code, presses Enter, and the receipt shows WeChat Pay's transaction number", async () => {
  const { page, errors } = suite.session;
  const operator = await codePaySite();
  // The owner must confirm on the phone, and does so a moment after the scan.
  const code = "134567890123453901";
  double.needsConfirmation(code, 1_500);
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
  await form.getByLabel("金额").fill("18.80");
  // The scanner is a keyboard: focus the labelled field, the digits arrive fast, then Enter.
  const field = form.getByLabel("付款码");
  await field.focus();
  await page.keyboard.type(code, { delay: 5 });
  await page.keyboard.press("Enter");
  const waiting = page.getByTestId("counter-codepay-waiting");
  await waiting.waitFor();
  assert.match(await textOf(waiting), /等待业主在手机上确认付款/);
  assert.match(await textOf(waiting), /微信支付付款码收款 18\.80 元/);

  const receipt = page.getByTestId("counter-receipt");
  await receipt.waitFor({ timeout: 30_000 });
  const { records } = await call<{ records: { outTradeNo: string }[] }>(
    suite.server.baseUrl,
    operator.token,
    "/api/blade-pms/wxpay/list?current=1&size=10",
  );
  assert.equal(records.length, 1, "one order, paid once");
  const paid = double.order(MERCHANT.mchid, records[0]!.outTradeNo);
  assert.equal(paid?.trade_state, "SUCCESS");
  assert.equal(paid?.total, 1880);
  assert.equal(await textOf(receipt.getByTestId("receipt-transaction")), paid?.transaction_id);
  assert.match(await textOf(receipt), /交易号/);
  assert.equal(await textOf(receipt.getByTestId("receipt-amount")), "18.80");
  assert.equal(await textOf(receipt.getByTestId("receipt-balance")), "58.80");
  await expectAccessible(page, "counter code payment receipt");
  assert.deepEqual(errors, []);
});
