import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { AliyunSmsProvider } from "../src/modules/sms/aliyun-sms.ts";
import { QiniuSmsProvider, qiniuAuthorization } from "../src/modules/sms/qiniu-sms.ts";
import { MSG_RESULT, type SmsSettings } from "../src/modules/sms/sms-provider.ts";
import { TencentSmsProvider } from "../src/modules/sms/tencent-sms.ts";
import { YunpianSmsProvider, yunpianTemplateValue } from "../src/modules/sms/yunpian-sms.ts";
import {
  type SmsDouble,
  startAliyunDouble,
  startQiniuDouble,
  startTencentDouble,
  startYunpianDouble,
} from "./sms-doubles.ts";

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

describe("Yunpian SMS provider against the local double", () => {
  let double: SmsDouble;
  let settings: SmsSettings;
  before(async () => {
    double = await startYunpianDouble(["yunpian-apikey-1"]);
    settings = {
      accessKey: "米特物业",
      secretKey: "yunpian-apikey-1",
      signName: "米特物业",
      templateId: "5012345",
      endpoint: double.url,
    };
  });
  after(() => double.close());

  test("a template batch goes through with its variables intact, one success per number", async () => {
    double.mode = "ok";
    const tricky = { ...message, params: { name: "张三 & 1=2", amount: "12.50#" } };
    const outcome = await new YunpianSmsProvider().send(settings, tricky);
    assert.equal(outcome.result, MSG_RESULT.success, outcome.error);
    const got = double.received.at(-1)!;
    assert.equal(got.signatureValid, true);
    assert.deepEqual(got.phones, message.phones);
    assert.equal(got.templateId, "5012345");
    assert.deepEqual(got.params, tricky.params);
  });

  test("a wrong API key is the request's refusal, not retried; throttling and server errors are", async () => {
    double.mode = "ok";
    const refused = await new YunpianSmsProvider().send({ ...settings, secretKey: "wrong" }, message);
    assert.deepEqual(
      [refused.result, refused.retryable, refused.providerCode],
      [MSG_RESULT.fail, false, "-1"],
    );
    assert.match(refused.error ?? "", /非法的apikey/);
    double.mode = "refuse";
    const limited = await new YunpianSmsProvider().send(settings, message);
    assert.deepEqual(
      [limited.result, limited.retryable, limited.providerCode],
      [MSG_RESULT.fail, true, "33"],
    );
    double.mode = "error500";
    const broken = await new YunpianSmsProvider().send(settings, message);
    assert.deepEqual([broken.result, broken.retryable], [MSG_RESULT.fail, true]);
    double.mode = "hang";
    const silent = await new YunpianSmsProvider({ timeoutMs: 300 }).send(settings, message);
    assert.deepEqual([silent.result, silent.retryable], [MSG_RESULT.unconfirmed, true]);
  });

  test("tpl_value encodes each side of #key#=value", () => {
    assert.equal(
      yunpianTemplateValue({ name: "张三 & 1=2", n: "1" }),
      "%23name%23=%E5%BC%A0%E4%B8%89%20%26%201%3D2&%23n%23=1",
    );
    assert.equal(yunpianTemplateValue({}), "");
  });
});

describe("Qiniu SMS provider against the local double", () => {
  let double: SmsDouble;
  let settings: SmsSettings;
  before(async () => {
    double = await startQiniuDouble({ "qiniu-ak": "qiniu-secret" });
    settings = {
      accessKey: "qiniu-ak",
      secretKey: "qiniu-secret",
      signName: "1131042429772763136",
      templateId: "1131042429772763137",
      endpoint: double.url,
    };
  });
  after(() => double.close());

  test("a signed message goes through and is answered with a job id", async () => {
    double.mode = "ok";
    const outcome = await new QiniuSmsProvider().send(settings, message);
    assert.equal(outcome.result, MSG_RESULT.success, outcome.error);
    const got = double.received.at(-1)!;
    assert.equal(got.signatureValid, true);
    assert.deepEqual(got.phones, message.phones);
    assert.deepEqual(got.params, message.params);
    assert.equal(got.templateId, "1131042429772763137");
    // A numeric sign name is Qiniu's signature id; a name is left to the template's own.
    assert.equal(got.signName, "1131042429772763136");
    await new QiniuSmsProvider().send({ ...settings, signName: "米特物业" }, message);
    assert.equal(double.received.at(-1)!.signName, "");
  });

  test("a wrong secret fails the double's signature check, not retried; its own errors are", async () => {
    double.mode = "ok";
    const refused = await new QiniuSmsProvider().send({ ...settings, secretKey: "wrong" }, message);
    assert.deepEqual(
      [refused.result, refused.retryable, refused.providerCode],
      [MSG_RESULT.fail, false, "BadToken"],
    );
    assert.equal(double.received.at(-1)!.signatureValid, false);
    double.mode = "refuse";
    const template = await new QiniuSmsProvider().send(settings, message);
    assert.deepEqual([template.retryable, template.providerCode], [false, "TemplateNotAvailable"]);
    double.mode = "error500";
    const broken = await new QiniuSmsProvider().send(settings, message);
    assert.deepEqual([broken.result, broken.retryable], [MSG_RESULT.fail, true]);
  });

  test("the Authorization matches a vector computed apart (Python hmac, urlsafe_b64encode)", () => {
    assert.equal(
      qiniuAuthorization(
        { accessKey: "ak", secretKey: "qiniu-secret" },
        {
          method: "POST",
          url: "https://sms.qiniuapi.com/v1/message",
          contentType: "application/json",
          body: '{"template_id":"1","mobiles":["13800138000"],"parameters":{}}',
        },
      ),
      "Qiniu ak:SUNr3X6WJwlmrY9e3nEoq5hQjcA=",
    );
  });
});
