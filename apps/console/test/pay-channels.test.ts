import assert from "node:assert/strict";
import { test } from "node:test";
import { alipayReturnUrl, alipayTradeType, offeredChannels, surroundingsOf } from "../src/h5/pay-channels.ts";

const IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148";
const ANDROID =
  "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36";
const DESKTOP =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36";

test("the page tells WeChat, the Alipay app, a phone's browser and a desktop apart", () => {
  assert.equal(surroundingsOf(`${IPHONE} MicroMessenger/8.0.50(0x1800322c) NetType/WIFI`), "wechat");
  assert.equal(surroundingsOf(`${ANDROID} AlipayClient/10.5.90 Language/zh-Hans`), "alipay");
  assert.equal(surroundingsOf(IPHONE), "phone");
  assert.equal(surroundingsOf(ANDROID), "phone");
  assert.equal(surroundingsOf(DESKTOP), "desktop");
});

test("inside an app only its own channel; elsewhere both, WeChat Pay first, of those switched on", () => {
  const both = { wxpay: true, alipay: true };
  assert.deepEqual(offeredChannels("wechat", both), ["wxpay"]);
  assert.deepEqual(offeredChannels("alipay", both), ["alipay"]);
  assert.deepEqual(offeredChannels("phone", both), ["wxpay", "alipay"]);
  assert.deepEqual(offeredChannels("desktop", both), ["wxpay", "alipay"]);
  assert.deepEqual(offeredChannels("phone", { wxpay: false, alipay: true }), ["alipay"]);
  assert.deepEqual(offeredChannels("wechat", { wxpay: false, alipay: true }), []);
  assert.deepEqual(offeredChannels("alipay", { wxpay: true, alipay: false }), []);
});

test("Alipay pays at its cashier on a phone and by QR code on a desktop; the cashier returns to this page", () => {
  assert.equal(alipayTradeType("phone"), "wap");
  assert.equal(alipayTradeType("alipay"), "wap");
  assert.equal(alipayTradeType("desktop"), "qr");
  const here = {
    origin: "https://meter.example",
    pathname: "/h5/",
    search: "?tenant=100001&order=ML1&out_trade_no=MLA2&trade_no=2026&total_amount=1.00",
  } as Location;
  assert.equal(alipayReturnUrl(here), "https://meter.example/h5/?tenant=100001&pay=alipay");
});
