import assert from "node:assert/strict";
import { generateKeyPairSync } from "node:crypto";
import { describe, test } from "node:test";
import {
  checkTradeNotification,
  errorResponse,
  fen,
  fromShanghaiTime,
  paymentCodeChannel,
  rawMember,
  rsa2Sign,
  rsa2Verify,
  shanghaiTime,
  signContent,
  signedRequest,
  signNotification,
  signResponse,
  verifyNotification,
  verifyRequest,
  verifyResponse,
  yuan,
} from "./alipay-protocol.ts";

const pair = () => {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  return {
    privateKey: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
    publicKey: publicKey.export({ type: "spki", format: "pem" }).toString(),
    // As Alipay's key tool hands them out: bare base64 of the DER.
    barePrivateKey: privateKey.export({ type: "pkcs8", format: "der" }).toString("base64"),
    barePublicKey: publicKey.export({ type: "spki", format: "der" }).toString("base64"),
    pkcs1PrivateKey: privateKey.export({ type: "pkcs1", format: "der" }).toString("base64"),
  };
};
const application = pair();
const alipay = pair();
const stranger = pair();
const APP_ID = "2021000117650001";
const app = { appId: APP_ID, alipayPublicKey: alipay.publicKey };

const paidNotification = (overrides: Record<string, string> = {}) =>
  signNotification(
    {
      notify_time: "2026-11-29 10:00:05",
      notify_type: "trade_status_sync",
      notify_id: "ac05099524730693a8b330c5ecf72da9786",
      charset: "utf-8",
      version: "1.0",
      app_id: APP_ID,
      trade_no: "2026112922001400000000000001",
      out_trade_no: "ML20261129000001",
      total_amount: "100.50",
      receipt_amount: "100.50",
      buyer_id: "2088102177846880",
      trade_status: "TRADE_SUCCESS",
      gmt_payment: "2026-11-29 10:00:04",
      ...overrides,
    },
    alipay.privateKey,
  );
const order = { outTradeNo: "ML20261129000001", amountFen: 10050n };

describe("Alipay RSA2 signing", () => {
  test("the signed text is sorted name=value pairs without sign and empty values", () => {
    assert.equal(
      signContent({
        method: "alipay.trade.query",
        app_id: "1",
        sign: "x",
        notify_url: "",
        b: "2",
        a: "a=b&c",
      }),
      "a=a=b&c&app_id=1&b=2&method=alipay.trade.query",
    );
    assert.equal(signContent({ sign: "x", sign_type: "RSA2", z: "1" }, ["sign", "sign_type"]), "z=1");
  });

  test("a signature verifies with the matching public key only, PEM or bare base64", () => {
    const sig = rsa2Sign("a=1&b=2", application.privateKey);
    assert.equal(rsa2Verify("a=1&b=2", sig, application.publicKey), true);
    assert.equal(rsa2Verify("a=1&b=2", sig, application.barePublicKey), true);
    assert.equal(rsa2Verify("a=1&b=3", sig, application.publicKey), false);
    assert.equal(rsa2Verify("a=1&b=2", sig, stranger.publicKey), false);
    assert.equal(rsa2Verify("a=1&b=2", undefined, application.publicKey), false);
    assert.equal(rsa2Verify("a=1&b=2", sig, "not a key"), false);
    // Alipay's tool writes PKCS#8 for Java and PKCS#1 for others: both sign the same.
    assert.equal(rsa2Sign("a=1", application.barePrivateKey), rsa2Sign("a=1", application.privateKey));
    assert.equal(rsa2Sign("a=1", application.pkcs1PrivateKey), rsa2Sign("a=1", application.privateKey));
  });

  test("a gateway request carries the common parameters and a signature the gateway accepts", () => {
    const params = signedRequest(
      { appId: APP_ID, privateKey: application.privateKey },
      {
        method: "alipay.trade.precreate",
        bizContent: { out_trade_no: "ML1", total_amount: "0.01", subject: "电费充值" },
        notifyUrl: "https://meter.example/api/alipay/notify/000000",
        timestamp: new Date("2026-11-29T16:30:05Z"),
      },
    );
    assert.equal(params.app_id, APP_ID);
    assert.equal(params.method, "alipay.trade.precreate");
    assert.equal(params.charset, "utf-8");
    assert.equal(params.sign_type, "RSA2");
    assert.equal(params.version, "1.0");
    assert.equal(params.timestamp, "2026-11-30 00:30:05", "Asia/Shanghai");
    assert.equal(params.notify_url, "https://meter.example/api/alipay/notify/000000");
    assert.deepEqual(JSON.parse(params.biz_content as string), {
      out_trade_no: "ML1",
      total_amount: "0.01",
      subject: "电费充值",
    });
    const check = verifyRequest(params, { appId: APP_ID, publicKey: application.publicKey });
    assert.equal(check.ok, true);
    assert.deepEqual(
      verifyRequest(
        { ...params, biz_content: '{"total_amount":"999"}' },
        { appId: APP_ID, publicKey: application.publicKey },
      ),
      {
        ok: false,
        code: "isv.invalid-signature",
        reason: "sign",
      },
    );
    assert.equal(
      verifyRequest(params, { appId: "2021000000000000", publicKey: application.publicKey }).ok,
      false,
    );
    assert.equal(verifyRequest(params, { appId: APP_ID, publicKey: stranger.publicKey }).ok, false);
    assert.equal(
      verifyRequest({ ...params, sign_type: "RSA" }, { appId: APP_ID, publicKey: application.publicKey }).ok,
      false,
    );
  });
});

describe("Alipay answers", () => {
  const method = "alipay.trade.query";
  const answer = {
    code: "10000",
    msg: "Success",
    out_trade_no: "ML1",
    trade_status: "TRADE_SUCCESS",
    total_amount: "1.00",
  };

  test("a signed answer is read with its fields", () => {
    const text = signResponse(method, answer, alipay.privateKey);
    assert.match(text, /^\{"alipay_trade_query_response":\{.*\},"sign":"[A-Za-z0-9+/=]+"\}$/);
    assert.deepEqual(verifyResponse(text, method, alipay.publicKey), { ok: true, answer });
  });

  test("the signed bytes are those sent: spacing and key order kept, nested braces and quotes handled", () => {
    const inner = '{ "code":"10000","msg":"Success","note":"a \\"}\\" b","list":[{"x":1}] }';
    const text = `{"sign":"${rsa2Sign(inner, alipay.privateKey)}",  "alipay_trade_query_response" : ${inner}}`;
    assert.equal(rawMember(text, "alipay_trade_query_response"), inner);
    const check = verifyResponse(text, method, alipay.publicKey);
    assert.equal(check.ok, true);
  });

  test("a tampered answer, a foreign signer, a missing sign or another method's answer are refused", () => {
    const text = signResponse(method, answer, alipay.privateKey);
    assert.deepEqual(verifyResponse(text.replace('"1.00"', '"9.00"'), method, alipay.publicKey), {
      ok: false,
      reason: "signature",
    });
    assert.equal(
      verifyResponse(signResponse(method, answer, stranger.privateKey), method, alipay.publicKey).ok,
      false,
    );
    assert.equal(
      verifyResponse(JSON.stringify({ alipay_trade_query_response: answer }), method, alipay.publicKey).ok,
      false,
    );
    assert.deepEqual(verifyResponse(text, "alipay.trade.refund", alipay.publicKey), {
      ok: false,
      reason: "format",
    });
    assert.deepEqual(verifyResponse("<html>", method, alipay.publicKey), { ok: false, reason: "format" });
  });

  test("an unsigned error answer can only say no", () => {
    const no = errorResponse({ code: "40002", msg: "Invalid Arguments", sub_code: "isv.invalid-app-id" });
    const check = verifyResponse(no, method, alipay.publicKey);
    assert.equal(check.ok && check.answer.sub_code, "isv.invalid-app-id");
    assert.equal(
      verifyResponse(errorResponse({ code: "10000", msg: "Success" }), method, alipay.publicKey).ok,
      false,
    );
  });
});

describe("Alipay asynchronous notifications", () => {
  test("a notification signed by Alipay for this app and order is accepted", () => {
    assert.deepEqual(verifyNotification(paidNotification(), app), { ok: true });
    assert.deepEqual(checkTradeNotification(paidNotification(), app, order), { ok: true });
  });

  test("the signature covers neither sign nor sign_type", () => {
    const notification = paidNotification();
    const content = signContent(notification, ["sign", "sign_type"]);
    assert.doesNotMatch(content, /sign_type=|sign=/);
    assert.equal(rsa2Verify(content, notification.sign, alipay.publicKey), true);
  });

  test("a tampered body is refused", () => {
    assert.deepEqual(
      checkTradeNotification({ ...paidNotification(), trade_status: "TRADE_FINISHED" }, app, order),
      {
        ok: false,
        reason: "signature",
      },
    );
    assert.deepEqual(checkTradeNotification({ ...paidNotification(), extra: "1" }, app, order), {
      ok: false,
      reason: "signature",
    });
  });

  test("a notification signed with a foreign key is refused", () => {
    const forged = signNotification({ ...paidNotification(), sign: "" }, stranger.privateKey);
    assert.deepEqual(checkTradeNotification(forged, app, order), { ok: false, reason: "signature" });
  });

  test("a notification for another app id is refused, even when Alipay signed it", () => {
    const other = paidNotification({ app_id: "2021000117659999" });
    assert.deepEqual(checkTradeNotification(other, app, order), { ok: false, reason: "app_id" });
  });

  test("a changed amount is refused: altered after signing, or signed but not the order's", () => {
    assert.deepEqual(checkTradeNotification({ ...paidNotification(), total_amount: "1.00" }, app, order), {
      ok: false,
      reason: "signature",
    });
    assert.deepEqual(checkTradeNotification(paidNotification({ total_amount: "100.05" }), app, order), {
      ok: false,
      reason: "amount",
    });
    assert.deepEqual(checkTradeNotification(paidNotification({ total_amount: "100.5" }), app, order), {
      ok: true,
    });
  });

  test("another sign type or another order's number is refused", () => {
    assert.deepEqual(checkTradeNotification({ ...paidNotification(), sign_type: "RSA" }, app, order), {
      ok: false,
      reason: "sign_type",
    });
    assert.deepEqual(checkTradeNotification(paidNotification({ out_trade_no: "ML2" }), app, order), {
      ok: false,
      reason: "fields",
    });
  });
});

describe("Alipay amounts and times", () => {
  test("fen and yuan convert exactly", () => {
    assert.equal(yuan(1n), "0.01");
    assert.equal(yuan(10050n), "100.50");
    assert.equal(yuan(0n), "0.00");
    assert.equal(fen("0.01"), 1n);
    assert.equal(fen("100.5"), 10050n);
    assert.equal(fen("7"), 700n);
    for (const bad of ["", "1.001", "-1.00", "1e3", " 1.00", "1.", undefined])
      assert.equal(fen(bad), undefined, String(bad));
    for (const amount of [1n, 99n, 100n, 123456789n]) assert.equal(fen(yuan(amount)), amount);
  });

  test("times are Asia/Shanghai both ways", () => {
    const at = new Date("2026-12-31T23:59:59Z");
    assert.equal(shanghaiTime(at), "2027-01-01 07:59:59");
    assert.equal(fromShanghaiTime("2027-01-01 07:59:59")?.toISOString(), at.toISOString());
    assert.equal(fromShanghaiTime("2027-01-01T07:59:59"), undefined);
  });
});

describe("payment codes at the counter", () => {
  test("WeChat codes begin 10–15, Alipay codes 25–30; anything else is neither", () => {
    assert.equal(paymentCodeChannel("134567890123456789"), "wechat");
    assert.equal(paymentCodeChannel("104567890123456789"), "wechat");
    assert.equal(paymentCodeChannel("284771234567890123"), "alipay");
    assert.equal(paymentCodeChannel("2547712345678901"), "alipay");
    assert.equal(paymentCodeChannel("304771234567890123456789"), "alipay");
    assert.equal(paymentCodeChannel(" 284771234567890123 "), "alipay", "a scanner's trailing blank");
    for (const code of [
      "164567890123456789",
      "244771234567890123",
      "314771234567890123",
      "13456789012345678",
      "28abc",
      "",
    ])
      assert.equal(paymentCodeChannel(code), undefined, code);
  });
});
