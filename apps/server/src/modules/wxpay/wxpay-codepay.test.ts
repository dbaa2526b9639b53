import assert from "node:assert/strict";
import { generateKeyPairSync } from "node:crypto";
import { after, before, describe, test } from "node:test";
import { SAMPLE_WECHAT_CODES, WxpayDouble } from "./double/wxpay-double.ts";
import { callWxpay, type Merchant, WxpayCallError } from "./wxpay-client.ts";
import { codePayBody } from "./wxpay-codepay.ts";
import { authorization, verifyAuthorization } from "./wxpay-protocol.ts";

const pair = () => {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  return {
    privateKey: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
    publicKey: publicKey.export({ type: "spki", format: "pem" }).toString(),
  };
};

const URL_PATH = "/v3/pay/transactions/codepay";

describe("WeChat Pay payment-code call (APIv3 codepay): body and signature", () => {
  const keys = pair();
  const foreign = pair();
  const double = new WxpayDouble();
  let merchant: Merchant;

  before(async () => {
    await double.listen();
    double.addMerchant({
      mchid: "1900000109",
      appid: "wx8888888888888888",
      publicKey: keys.publicKey,
      apiV3Key: "0123456789abcdefghijklmnopqrstuv",
    });
    merchant = {
      tenantId: "000000",
      appid: "wx8888888888888888",
      mchid: "1900000109",
      serialNo: "SERIAL1900000109",
      privateKey: keys.privateKey,
      apiV3Key: "0123456789abcdefghijklmnopqrstuv",
      platformSerial: double.platformSerial,
      platformPublicKey: double.platformPublicKey,
      apiBase: double.base,
      notifyUrl: "https://example.invalid/notify",
      maxAmountFen: 50_000n,
    };
  });
  after(() => double.close());

  const body = (authCode: string, outTradeNo: string, amountFen = 1234n) =>
    codePayBody(merchant, { outTradeNo, description: "预付费充值", amountFen, authCode });

  test("the body carries the code as payer.auth_code, the amount in whole fen and the counter as store", () => {
    assert.deepEqual(body("134567890123456789", "MLM001"), {
      appid: "wx8888888888888888",
      mchid: "1900000109",
      description: "预付费充值",
      out_trade_no: "MLM001",
      payer: { auth_code: "134567890123456789" },
      amount: { total: 1234, currency: "CNY" },
      scene_info: { store_info: { out_id: "counter-000000" } },
    });
  });

  test("the request is signed over method, path, time, nonce and the exact body with the merchant's key", () => {
    const sent = JSON.stringify(body("134567890123456789", "MLM002"));
    const header = authorization(
      { mchid: merchant.mchid, serialNo: merchant.serialNo, privateKey: keys.privateKey },
      { method: "POST", url: URL_PATH, body: sent },
    );
    assert.ok(verifyAuthorization(header, { method: "POST", url: URL_PATH, body: sent }, keys.publicKey));
    // Another amount, another path, or a signer without the merchant's key: not the merchant's request.
    const altered = sent.replace('"total":1234', '"total":1');
    assert.equal(
      verifyAuthorization(header, { method: "POST", url: URL_PATH, body: altered }, keys.publicKey),
      undefined,
    );
    assert.equal(
      verifyAuthorization(
        header,
        { method: "POST", url: "/v3/pay/transactions/native", body: sent },
        keys.publicKey,
      ),
      undefined,
    );
    assert.equal(
      verifyAuthorization(header, { method: "POST", url: URL_PATH, body: sent }, foreign.publicKey),
      undefined,
    );
  });

  test("the double takes the merchant's signed call and refuses one signed with a foreign key", async () => {
    const paid = await callWxpay<{ trade_state: string; trade_type: string; amount: { total: number } }>(
      merchant,
      "POST",
      URL_PATH,
      body("134567890123456711", "MLM003"),
    );
    assert.equal(paid.status, 200);
    assert.equal(paid.data.trade_state, "SUCCESS");
    assert.equal(paid.data.trade_type, "MICROPAY");
    assert.equal(paid.data.amount.total, 1234);
    await assert.rejects(
      callWxpay(
        { ...merchant, privateKey: foreign.privateKey },
        "POST",
        URL_PATH,
        body("134567890123456712", "MLM004"),
      ),
      (error: unknown) =>
        error instanceof WxpayCallError && error.status === 401 && error.code === "SIGN_ERROR",
    );
    assert.equal(double.order(merchant.mchid, "MLM004"), undefined, "nothing was charged");
  });

  test("a code whose payer must confirm answers USERPAYING; a reverse then closes it for good", async () => {
    double.needsConfirmation("104567890123456713");
    const pending = await callWxpay<{ code?: string }>(
      merchant,
      "POST",
      URL_PATH,
      body("104567890123456713", "MLM005"),
    );
    assert.equal(pending.status, 202);
    assert.equal(pending.data.code, "USERPAYING");
    assert.equal(double.order(merchant.mchid, "MLM005")?.trade_state, "USERPAYING");
    const reversed = await callWxpay(merchant, "POST", "/v3/pay/transactions/out-trade-no/MLM005/reverse", {
      appid: merchant.appid,
      mchid: merchant.mchid,
    });
    assert.equal(reversed.status, 200);
    assert.equal(double.order(merchant.mchid, "MLM005")?.trade_state, "REVOKED");
    await assert.rejects(
      double.pay(merchant.mchid, "MLM005"),
      /REVOKED/,
      "a reversed order cannot be paid any more",
    );
  });

  test("a code pays once; the README's sample code pays again and again (the demo)", async () => {
    const first = await callWxpay<{ trade_state: string }>(
      merchant,
      "POST",
      URL_PATH,
      body("124567890123456714", "MLM006"),
    );
    assert.equal(first.data.trade_state, "SUCCESS");
    await assert.rejects(
      callWxpay(merchant, "POST", URL_PATH, body("124567890123456714", "MLM007")),
      (error: unknown) => error instanceof WxpayCallError && error.code === "TRADE_ERROR",
    );
    for (const no of ["MLM008", "MLM009"]) {
      const again = await callWxpay<{ trade_state: string }>(
        merchant,
        "POST",
        URL_PATH,
        body(SAMPLE_WECHAT_CODES.paid, no),
      );
      assert.equal(again.data.trade_state, "SUCCESS", no);
    }
  });
});
