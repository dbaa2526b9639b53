import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { provisionTenant } from "./fixtures.ts";
import { startTestServer, type TestServer } from "./helpers.ts";
import { type SmsDouble, startAliyunDouble, startTencentDouble } from "./sms-doubles.ts";

const SMS = "/api/blade-resource/sms";
const SEND = `${SMS}/endpoint/send-message`;

describe("SMS settings and sending through HTTP", () => {
  let server: TestServer;
  let aliyun: SmsDouble;
  let tencent: SmsDouble;
  let a: string;
  let b: string;
  let aliyunId: string;
  let tencentId: string;

  const logRows = (tenantId: string) =>
    server.db.query<{
      result: number;
      retryable: number;
      error: string | null;
      provider_code: string | null;
    }>("select result, retryable, error, provider_code from sms_send_log where tenant_id = $1 order by id", [
      tenantId,
    ]);
  let tenantA: string;

  before(async () => {
    server = await startTestServer();
    aliyun = await startAliyunDouble({ LTAIaliyunA: "aliyun-secret-A" });
    tencent = await startTencentDouble({ AKIDtencentA: "tencent-secret-A" });
    const admin = (await server.login()).access_token;
    const first = await provisionTenant(server, admin, "甲物业");
    a = first.token;
    tenantA = first.tenantId;
    b = (await provisionTenant(server, admin, "乙物业")).token;
    const submit = async (body: Record<string, unknown>) => {
      const res = await server.call("POST", `${SMS}/submit`, a, body);
      assert.equal(res.statusCode, 200, res.body);
      return String(res.json().data.id);
    };
    aliyunId = await submit({
      category: 3,
      smsCode: "ali",
      templateId: "SMS_154950909",
      accessKey: "LTAIaliyunA",
      secretKey: "aliyun-secret-A",
      signName: "甲物业",
      endpoint: aliyun.url,
    });
    tencentId = await submit({
      category: 4,
      smsCode: "qcloud",
      templateId: "449739",
      accessKey: "AKIDtencentA",
      secretKey: "tencent-secret-A",
      signName: "甲物业",
      appId: "1400006666",
      regionId: "ap-guangzhou",
      endpoint: tencent.url,
    });
  });
  after(async () => {
    await server?.close();
    await aliyun?.close();
    await tencent?.close();
  });

  test("secrets are stored encrypted and answered masked", async () => {
    const [stored] = await server.db.query<{ secret_key: string }>(
      "select secret_key from blade_sms where id = $1",
      [aliyunId],
    );
    assert.doesNotMatch(stored!.secret_key, /aliyun-secret-A/);
    const detail = await server.call("GET", `${SMS}/detail?id=${aliyunId}`, a);
    assert.equal(detail.statusCode, 200, detail.body);
    assert.equal(detail.json().data.secretKey, "****et-A");
    const list = await server.call("GET", `${SMS}/list?current=1&size=10`, a);
    assert.equal(list.json().data.total, 2);
    assert.doesNotMatch(list.body, /aliyun-secret-A|tencent-secret-A/);
  });

  test("enabling one configuration switches the tenant's other one off", async () => {
    const status = async () =>
      Object.fromEntries(
        (
          await server.db.query<{ id: string; status: number }>(
            "select id::text as id, status from blade_sms where tenant_id = $1",
            [tenantA],
          )
        ).map((r) => [r.id, r.status]),
      );
    assert.equal((await server.call("POST", `${SMS}/enable?id=${aliyunId}`, a)).statusCode, 200);
    assert.deepEqual(await status(), { [aliyunId]: 2, [tencentId]: 1 });
    assert.equal((await server.call("POST", `${SMS}/enable?id=${tencentId}`, a)).statusCode, 200);
    assert.deepEqual(await status(), { [aliyunId]: 1, [tencentId]: 2 });
  });

  test("send-message goes through the enabled provider with a signature the double accepts", async () => {
    const res = await server.call(
      "POST",
      `${SEND}?phones=13800138000,15900000001&params=${encodeURIComponent('{"name":"张三","balance":"8.20"}')}`,
      a,
    );
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().msg, "发送成功");
    assert.equal(res.json().data.result, 1);
    const got = tencent.received.at(-1)!;
    assert.equal(got.signatureValid, true);
    assert.deepEqual(got.phones, ["+8613800138000", "+8615900000001"]);
    assert.deepEqual(got.params, ["张三", "8.20"]);
    assert.equal(got.templateId, "449739");
  });

  test("a code picks that configuration: the Aliyun double gets a valid SendSms", async () => {
    const res = await server.call("POST", SEND, a, {
      code: "ali",
      phones: "13800138000",
      params: { code: "1234" },
    });
    assert.equal(res.statusCode, 200, res.body);
    const got = aliyun.received.at(-1)!;
    assert.equal(got.signatureValid, true);
    assert.deepEqual(got.params, { code: "1234" });
    assert.equal(got.signName, "甲物业");
  });

  test("phones that break the rules are a 400 naming the field, and nothing is sent or recorded", async () => {
    const before = (await logRows(tenantA)).length;
    const sentBefore = tencent.received.length;
    const cases: [string, string][] = [
      ["", "phones: 手机号码不能为空"],
      ["1380013800", "phones: 手机号码长度不为11位"],
      ["23800138000", "phones: 手机号码格式不正确"],
      ["13800138000,1380013800a", "phones: 手机号码格式不正确"],
    ];
    for (const [phones, message] of cases) {
      const res = await server.call("POST", SEND, a, { phones, params: "{}" });
      assert.equal(res.statusCode, 400, `${phones}: ${res.body}`);
      assert.match(res.json().msg, new RegExp(`^${message}`));
    }
    const badParams = await server.call("POST", SEND, a, { phones: "13800138000", params: "[1" });
    assert.equal(badParams.statusCode, 400);
    assert.match(badParams.json().msg, /^params:/);
    assert.equal((await logRows(tenantA)).length, before);
    assert.equal(tencent.received.length, sentBefore);
  });

  test("a failing provider answers 502 with its error, and the failure is recorded", async () => {
    aliyun.mode = "refuse";
    const refused = await server.call("POST", SEND, a, { code: "ali", phones: "13800138000" });
    assert.equal(refused.statusCode, 502, refused.body);
    assert.match(refused.json().msg, /^发送失败: .*isv\.BUSINESS_LIMIT_CONTROL/);
    aliyun.mode = "error500";
    const broken = await server.call("POST", SEND, a, { code: "ali", phones: "13800138000" });
    assert.equal(broken.statusCode, 502);
    aliyun.mode = "ok";
    const rows = await logRows(tenantA);
    assert.deepEqual(
      rows.slice(-2).map((r) => [r.result, r.retryable, r.provider_code]),
      [
        [0, 1, "isv.BUSINESS_LIMIT_CONTROL"],
        [0, 1, "InternalError"],
      ],
    );
    assert.deepEqual(
      rows.slice(0, 2).map((r) => r.result),
      [1, 1],
    );
  });

  test("an edit that sends the mask back keeps the secret", async () => {
    const detail = (await server.call("GET", `${SMS}/detail?id=${aliyunId}`, a)).json().data;
    const saved = await server.call("POST", `${SMS}/submit`, a, { ...detail, signName: "甲物业服务" });
    assert.equal(saved.statusCode, 200, saved.body);
    const res = await server.call("POST", SEND, a, { code: "ali", phones: "13800138000" });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(aliyun.received.at(-1)!.signatureValid, true);
    assert.equal(aliyun.received.at(-1)!.signName, "甲物业服务");
  });

  test("another tenant can neither read, enable nor send with these settings", async () => {
    const list = await server.call("GET", `${SMS}/list?current=1&size=10`, b);
    assert.equal(list.json().data.total, 0);
    const detail = await server.call("GET", `${SMS}/detail?id=${aliyunId}`, b);
    assert.doesNotMatch(detail.body, /LTAIaliyunA|SMS_154950909/);
    const enable = await server.call("POST", `${SMS}/enable?id=${aliyunId}`, b);
    assert.equal(enable.statusCode, 404);
    const [row] = await server.db.query<{ status: number }>("select status from blade_sms where id = $1", [
      aliyunId,
    ]);
    assert.equal(row!.status, 1);
    const sentBefore = aliyun.received.length + tencent.received.length;
    for (const body of [{ code: "ali", phones: "13800138000" }, { phones: "13800138000" }]) {
      const res = await server.call("POST", SEND, b, body);
      assert.equal(res.statusCode, 400, res.body);
      assert.match(res.json().msg, /^code:/);
    }
    await server.call("POST", `${SMS}/remove?ids=${aliyunId}`, b);
    const stillThere = await server.call("GET", `${SMS}/detail?id=${aliyunId}`, a);
    assert.equal(stillThere.json().data.id, aliyunId);
    assert.equal(aliyun.received.length + tencent.received.length, sentBefore);
  });
});
