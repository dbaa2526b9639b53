import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { AliyunSmsProvider } from "../src/modules/sms/aliyun-sms.ts";
import { MSG_RESULT, type SmsSettings } from "../src/modules/sms/sms-provider.ts";
import { TencentSmsProvider } from "../src/modules/sms/tencent-sms.ts";
import { type SmsDouble, startAliyunDouble, startTencentDouble } from "./sms-doubles.ts";

const message = { phones: ["13800138000", "15900000001"], params: { name: "张三", amount: "12.50" } };

describe("Aliyun SMS provider against the local double", () => {
  let double: SmsDouble;
  let settings: SmsSettings;
  before(async () => {
    double = await startAliyunDouble({ LTAI5tExample: "aliyun-secret-1" });
    settings = {
      accessKey: "LTAI5tExample",
      secretKey: "aliyun-secret-1",
      signName: "米特物业",
      templateId: "SMS_123456",
      endpoint: double.url,
    };
  });
  after(() => double.close());

  test("a signed SendSms goes through and is answered OK", async () => {
    double.mode = "ok";
    const outcome = await new AliyunSmsProvider().send(settings, message);
    assert.equal(outcome.result, MSG_RESULT.success, outcome.error);
    assert.equal(outcome.providerCode, "OK");
    const got = double.received.at(-1)!;
    assert.equal(got.signatureValid, true);
    assert.deepEqual(got.phones, message.phones);
    assert.deepEqual(got.params, message.params);
    assert.equal(got.signName, "米特物业");
    assert.equal(got.templateId, "SMS_123456");
  });

  test("a wrong secret is refused by the double's signature check, not retried", async () => {
    double.mode = "ok";
    const outcome = await new AliyunSmsProvider().send({ ...settings, secretKey: "wrong" }, message);
    assert.equal(outcome.result, MSG_RESULT.fail);
    assert.equal(outcome.providerCode, "SignatureDoesNotMatch");
    assert.equal(outcome.retryable, false);
    assert.equal(double.received.at(-1)!.signatureValid, false);
  });

  test("throttling and server errors fail retryably", async () => {
    double.mode = "refuse";
    const limited = await new AliyunSmsProvider().send(settings, message);
    assert.deepEqual(
      [limited.result, limited.retryable, limited.providerCode],
      [0, true, "isv.BUSINESS_LIMIT_CONTROL"],
    );
    double.mode = "error500";
    const broken = await new AliyunSmsProvider().send(settings, message);
    assert.deepEqual([broken.result, broken.retryable], [0, true]);
    assert.match(broken.error ?? "", /InternalError/);
  });

  test("a double that never answers gives 'to be confirmed', retryable", async () => {
    double.mode = "hang";
    const outcome = await new AliyunSmsProvider({ timeoutMs: 300 }).send(settings, message);
    assert.equal(outcome.result, MSG_RESULT.unconfirmed);
    assert.equal(outcome.retryable, true);
  });

  test("an address nobody listens on fails retryably", async () => {
    const outcome = await new AliyunSmsProvider().send(
      { ...settings, endpoint: "http://127.0.0.1:9/" },
      message,
    );
    assert.deepEqual([outcome.result, outcome.retryable], [MSG_RESULT.fail, true]);
  });
});

describe("Tencent Cloud SMS provider against the local double", () => {
  let double: SmsDouble;
  let settings: SmsSettings;
  before(async () => {
    double = await startTencentDouble({ AKIDexample: "tencent-secret-1" });
    settings = {
      accessKey: "AKIDexample",
      secretKey: "tencent-secret-1",
      signName: "米特物业",
      templateId: "449739",
      appId: "1400006666",
      endpoint: double.url,
    };
  });
  after(() => double.close());

  test("a TC3-signed SendSms goes through, numbers in E.164 and values in order", async () => {
    double.mode = "ok";
    const outcome = await new TencentSmsProvider().send(settings, message);
    assert.equal(outcome.result, MSG_RESULT.success, outcome.error);
    const got = double.received.at(-1)!;
    assert.equal(got.signatureValid, true);
    assert.deepEqual(got.phones, ["+8613800138000", "+8615900000001"]);
    assert.deepEqual(got.params, ["张三", "12.50"]);
  });

  test("a wrong secret is refused with AuthFailure.SignatureFailure", async () => {
    double.mode = "ok";
    const outcome = await new TencentSmsProvider().send({ ...settings, secretKey: "wrong" }, message);
    assert.equal(outcome.result, MSG_RESULT.fail);
    assert.equal(outcome.providerCode, "AuthFailure.SignatureFailure");
    assert.equal(outcome.retryable, false);
  });

  test("a refusal, a 502 and a time-out are each failures the caller can tell apart", async () => {
    double.mode = "refuse";
    const refused = await new TencentSmsProvider().send(settings, message);
    assert.deepEqual([refused.result, refused.retryable], [MSG_RESULT.fail, false]);
    assert.equal(refused.providerCode, "FailedOperation.InsufficientBalanceInSmsPackage");
    double.mode = "error500";
    const bad = await new TencentSmsProvider().send(settings, message);
    assert.deepEqual([bad.result, bad.retryable], [MSG_RESULT.fail, true]);
    double.mode = "hang";
    const slow = await new TencentSmsProvider({ timeoutMs: 300 }).send(settings, message);
    assert.deepEqual([slow.result, slow.retryable], [MSG_RESULT.unconfirmed, true]);
  });
});
