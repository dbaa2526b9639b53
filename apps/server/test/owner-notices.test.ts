import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { MeterReading } from "@meterline/gateway";
import { evaluateAll } from "../src/modules/alarm/alarm.service.ts";
import { DbReadingsSink } from "../src/modules/metering/readings-sink.db.ts";
import { AliyunSmsProvider } from "../src/modules/sms/aliyun-sms.ts";
import { TencentSmsProvider } from "../src/modules/sms/tencent-sms.ts";
import { provisionTenant } from "./fixtures.ts";
import { startTestServer, type TestServer } from "./helpers.ts";
import { buildSite, created } from "./registry-fixtures.ts";
import { type SmsDouble, startAliyunDouble } from "./sms-doubles.ts";

const pms = "/api/blade-pms";
const local = (text: string) => new Date(`${text}+08:00`);

interface QueuedOut {
  id: string;
  ownerId: string;
  phone: string;
  ruleCode: string | null;
  alarmLevel: number | null;
  templateParams: string;
  state: number;
  attempts: number;
  lastError: string | null;
  nextAttemptTime: string | null;
}

interface SmsOut {
  id: string;
  phones: string;
  result: number;
  error: string | null;
  providerCode: string | null;
  providerAnswer: string | null;
  messageId: string | null;
  remark: string | null;
}

/** Waits for the queue (polling every half second in these tests) to bring a state about. */
async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> {
  const deadline = Date.now() + 30_000;
  let last = await read();
  while (!done(last)) {
    if (Date.now() > deadline) assert.fail(`${what}: still ${JSON.stringify(last)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    last = await read();
  }
  return last;
}

describe("owner SMS for balance alarms, through the job queue and the provider double", () => {
  let server: TestServer;
  let aliyun: SmsDouble;
  let a: string;
  let b: string;
  let site: Awaited<ReturnType<typeof buildSite>>;
  let sink: DbReadingsSink;

  const electric = (at: Date, total: string, extra: Partial<MeterReading> = {}) =>
    sink.record({
      meterId: site.meter,
      address: "100000000101",
      at,
      energy: { total, tariffs: [] },
      relay: "closed",
      missing: [],
      ...extra,
    });
  const get = async (path: string, token = a) => {
    const res = await server.call("GET", `${pms}/${path}`, token);
    assert.equal(res.statusCode, 200, `${path}: ${res.body}`);
    return res.json().data;
  };
  const post = (path: string, body: Record<string, unknown>, token = a) =>
    server.call("POST", `${pms}/${path}`, token, body);
  const queue = async (token = a): Promise<QueuedOut[]> =>
    (await get("messagequeue/list?current=1&size=100", token)).records;
  const smsPage = async (query = "", token = a): Promise<SmsOut[]> =>
    (await get(`sms/page?current=1&size=100${query}`, token)).records;
  const byLevel = async (level: number) => (await queue()).find((m) => m.alarmLevel === level);

  before(async () => {
    server = await startTestServer({
      notices: { pollSeconds: 0.5, backoff: { baseSeconds: 0.2, maxSeconds: 1 } },
      // A provider that does not answer within half a second counts as timed out.
      smsProviders: {
        3: new AliyunSmsProvider({ timeoutMs: 500 }),
        4: new TencentSmsProvider({ timeoutMs: 500 }),
      },
    });
    aliyun = await startAliyunDouble({ LTAInotices: "notices-secret" });
    const platform = (await server.login()).access_token;
    a = (await provisionTenant(server, platform, "甲物业")).token;
    b = (await provisionTenant(server, platform, "乙物业")).token;
    const setting = await server.call("POST", "/api/blade-resource/sms/submit", a, {
      category: 3,
      smsCode: "ali",
      templateId: "SMS_BALANCE",
      accessKey: "LTAInotices",
      secretKey: "notices-secret",
      signName: "甲物业",
      endpoint: aliyun.url,
    });
    assert.equal(setting.statusCode, 200, setting.body);
    const enabled = await server.call("POST", "/api/blade-resource/sms/enable", a, {
      id: setting.json().data.id,
    });
    assert.equal(enabled.statusCode, 200, enabled.body);

    site = await buildSite(server, a);
    sink = new DbReadingsSink(server.db, "Asia/Shanghai");
    const price = await created(server, a, "chargingscheme/submit", {
      schemeName: "一元电",
      energyType: 1,
      priceMode: 1,
      price: "1",
    });
    const scheme = await created(server, a, "alarmscheme/submit", {
      schemeName: "电费告警",
      energyType: 1,
      firstAlarm: "50",
      secondAlarm: "20",
      arrearsLimit: "10",
      tripOnArrears: 0,
    });
    await created(server, a, "meter/submit", {
      id: site.meter,
      productCode: "100000000101",
      collectorId: site.collector,
      controlStatus: 1,
      chargingSchemeId: price,
      alarmSchemeId: scheme,
    });
    await electric(local("2026-11-10T08:00:00"), "1000.00");
    const opened = await post("message/openAccount", { meterId: site.meter, deposit: "60" });
    assert.equal(opened.statusCode, 200, opened.body);
  });
  after(async () => {
    await server?.close();
    await aliyun?.close();
  });

  test("one SMS per owner, level and day: a second low alarm the same day sends none, a higher level sends one", async () => {
    // 15 kWh at 1 yuan: 45 left, below the first alarm.
    await electric(local("2026-11-10T09:00:00"), "1015.00");
    const low = await until(
      () => byLevel(1),
      (m) => m?.state === 3,
      "low balance message sent",
    );
    // Nothing is answered as null on the wire (contract §2.1): no error is "".
    assert.deepEqual(
      [low!.phone, low!.ruleCode, low!.attempts, low!.lastError],
      ["13800000001", "balance_low", 1, ""],
    );
    assert.equal(aliyun.received.length, 1);
    const [first] = aliyun.received;
    assert.equal(first!.signatureValid, true);
    assert.deepEqual(first!.phones, ["13800000001"]);
    assert.equal(first!.templateId, "SMS_BALANCE");
    // The room as the console names it, its building included: a bare "101" would fit every building.
    assert.deepEqual(first!.params, { name: "张三", room: "1号楼 101", balance: "45.00" });

    // Recharged, restored, then low again the same day: a new record, but no second message.
    const recharge = await post("datarecharge/submit", {
      meterId: site.meter,
      amount: "100",
      paymentMethod: 1,
      idempotencyKey: "notice-recharge-1",
    });
    assert.equal(recharge.statusCode, 200, recharge.body);
    assert.deepEqual(await evaluateAll(server.db, local("2026-11-10T09:05:00")), { raised: 0, restored: 1 });
    await electric(local("2026-11-10T10:00:00"), "1111.00");
    const lows = await server.db.query("select id from pms_check_record where rule_code = 'balance_low'");
    assert.equal(lows.length, 2, "the second low alarm was raised");
    // Severely low (20 left): its own level, its own message.
    await electric(local("2026-11-10T11:00:00"), "1140.00");
    const severe = await until(
      () => byLevel(2),
      (m) => m?.state === 3,
      "severe balance message sent",
    );
    assert.equal(severe!.ruleCode, "balance_severe");
    assert.equal(JSON.parse(severe!.templateParams).balance, "20.00");
    assert.deepEqual(
      (await queue()).map((m) => m.alarmLevel).sort(),
      [1, 2],
      "one message per level that day",
    );
    assert.equal(aliyun.received.length, 2);
    // Every send is recorded with the provider's answer and the message it belongs to.
    const records = await smsPage();
    assert.deepEqual(
      records.map((r) => [r.result, r.providerCode]),
      [
        [1, "OK"],
        [1, "OK"],
      ],
    );
    assert.deepEqual(records.map((r) => r.messageId).sort(), [low!.id, severe!.id].sort());
    assert.match(records[0]!.providerAnswer ?? "", /"Code":"OK"/);
  });

  test("a provider that times out or fails leaves the message queued with its error; it is retried and sent", async () => {
    aliyun.mode = "hang";
    // 40 below zero: arrears.
    await electric(local("2026-11-10T12:00:00"), "1200.00");
    const timedOut = await until(
      () => byLevel(3),
      (m) => m?.state === 2 && (m.attempts ?? 0) >= 1,
      "arrears message waiting for a retry",
    );
    assert.match(timedOut!.lastError ?? "", /500 毫秒内未应答/);
    assert.ok(timedOut!.nextAttemptTime, "the next attempt time is shown");

    aliyun.mode = "error500";
    const failed = await until(
      () => byLevel(3),
      (m) => /InternalError/.test(m?.lastError ?? ""),
      "arrears message failing at the provider",
    );
    assert.equal(failed!.state, 2);

    aliyun.mode = "ok";
    const sent = await until(
      () => byLevel(3),
      (m) => m?.state === 3,
      "arrears message sent at last",
    );
    assert.equal(sent!.lastError, "");
    const attempts = await smsPage(`&messageId=${sent!.id}`);
    assert.equal(attempts.length, sent!.attempts, "every attempt is recorded");
    const results = attempts.map((r) => r.result);
    assert.equal(results.filter((r) => r === 1).length, 1, "sent exactly once");
    assert.ok(results.includes(2), "the time-out is recorded as to be confirmed");
    assert.ok(results.includes(0), "the provider's error is recorded");
    assert.ok(
      attempts.some((r) => /InternalError/.test(r.providerAnswer ?? "")),
      "the provider's answer is kept",
    );
  });

  test("messagequeue and sms answer list, detail, submit and remove at their paths, for their own tenant only", async () => {
    const [message] = await queue();
    const detail = await get(`messagequeue/detail?id=${message!.id}`);
    assert.equal(detail.id, message!.id);
    assert.equal(detail.ownerId, site.owner);

    // Another tenant sees none of it and can change none of it.
    assert.deepEqual(await queue(b), []);
    assert.deepEqual(await smsPage("", b), []);
    const hidden = await server.call("GET", `${pms}/messagequeue/detail?id=${message!.id}`, b);
    assert.equal(hidden.statusCode, 404);
    const [record] = await smsPage();
    assert.equal((await server.call("GET", `${pms}/sms/detail?id=${record!.id}`, b)).statusCode, 404);
    assert.equal((await post("messagequeue/remove", { ids: message!.id }, b)).statusCode, 404);
    assert.equal((await post("messagequeue/submit", { id: message!.id }, b)).statusCode, 404);
    assert.equal((await post("sms/remove", { ids: record!.id }, b)).statusCode, 404);
    assert.equal((await post("sms/submit", { id: record!.id, remark: "x" }, b)).statusCode, 404);
    assert.equal((await queue()).length, 3, JSON.stringify(await queue()));

    // Without an enabled SMS setting a message fails at once, with the reason, and stays listed.
    const orphan = await post("messagequeue/submit", { phone: "13900000005", templateParams: "{}" }, b);
    assert.equal(orphan.statusCode, 200, orphan.body);
    const failed = await until(
      () => get(`messagequeue/detail?id=${orphan.json().data.id}`, b),
      (m: QueuedOut) => m.state === 4,
      "message of a tenant without SMS setting failed",
    );
    assert.deepEqual([failed.attempts, failed.lastError], [1, "未启用短信配置"]);
    assert.equal((await queue()).length, 3, "the other tenant's message is not listed here");

    // A sent message is not sent again.
    const again = await post("messagequeue/submit", { id: message!.id });
    assert.equal(again.statusCode, 400, again.body);

    // An operator's own message: a bad phone is refused naming the field and stores nothing.
    const bad = await post("messagequeue/submit", { phone: "1380000", templateParams: '{"name":"李四"}' });
    assert.equal(bad.statusCode, 400);
    assert.match(bad.json().msg, /^phone: /);
    assert.equal((await queue()).length, 3);
    const queued = await post("messagequeue/submit", {
      phone: "13900000002",
      templateParams: '{"name":"李四","room":"102","balance":"5.00"}',
    });
    assert.equal(queued.statusCode, 200, queued.body);
    const mine = await until(
      () => get(`messagequeue/detail?id=${queued.json().data.id}`),
      (m: QueuedOut) => m.state === 3,
      "operator's message sent",
    );
    assert.equal(mine.phone, "13900000002");
    assert.deepEqual(aliyun.received.at(-1)?.params, { name: "李四", room: "102", balance: "5.00" });

    // Removed: gone from the list and the detail.
    assert.equal((await post("messagequeue/remove", { ids: mine.id })).statusCode, 200);
    assert.equal(
      (await queue()).some((m) => m.id === mine.id),
      false,
    );
    assert.equal((await server.call("GET", `${pms}/messagequeue/detail?id=${mine.id}`, a)).statusCode, 404);

    // sms: a remark on a record, a send of one's own, and remove.
    assert.equal((await post("sms/submit", { id: record!.id, remark: "已电话联系" })).statusCode, 200);
    assert.equal((await get(`sms/detail?id=${record!.id}`)).remark, "已电话联系");
    const before = (await smsPage()).length;
    const sent = await post("sms/submit", { phones: "13900000003", params: '{"name":"王五"}' });
    assert.equal(sent.statusCode, 200, sent.body);
    assert.equal((await smsPage()).length, before + 1);
    const badPhones = await post("sms/submit", { phones: "12345", params: "{}" });
    assert.equal(badPhones.statusCode, 400);
    assert.equal((await smsPage()).length, before + 1);
    assert.equal((await post("sms/remove", { ids: record!.id })).statusCode, 200);
    assert.equal(
      (await smsPage()).some((r) => r.id === record!.id),
      false,
    );
  });

  test("a production server keeps only https provider addresses", async () => {
    const previous = process.env.NODE_ENV;
    process.env.NODE_ENV = "production";
    try {
      const count = async () =>
        (await server.db.query("select id from blade_sms where sms_code like 'prod%'")).length;
      const plain = await server.call("POST", "/api/blade-resource/sms/submit", a, {
        category: 3,
        smsCode: "prod-http",
        templateId: "SMS_1",
        accessKey: "LTAIprod",
        secretKey: "prod-secret",
        signName: "甲物业",
        endpoint: "http://sms.example.com/",
      });
      assert.equal(plain.statusCode, 400, plain.body);
      assert.match(plain.json().msg, /^endpoint: /);
      assert.equal(await count(), 0, "nothing stored on refusal");
      const secure = await server.call("POST", "/api/blade-resource/sms/submit", a, {
        category: 3,
        smsCode: "prod-https",
        templateId: "SMS_1",
        accessKey: "LTAIprod",
        secretKey: "prod-secret",
        signName: "甲物业",
        endpoint: "https://sms.example.com/",
      });
      assert.equal(secure.statusCode, 200, secure.body);
      // The enabled setting (the local double, plain http) no longer sends in production.
      const refused = await post("sms/submit", { phones: "13900000004", params: "{}" });
      assert.equal(refused.statusCode, 400, refused.body);
      assert.match(refused.json().msg, /^endpoint: /);
    } finally {
      process.env.NODE_ENV = previous;
    }
  });

  test("the next day the same level sends again", async () => {
    const recharge = await post("datarecharge/submit", {
      meterId: site.meter,
      amount: "100",
      paymentMethod: 1,
      idempotencyKey: "notice-recharge-2",
    });
    assert.equal(recharge.statusCode, 200, recharge.body);
    await evaluateAll(server.db, local("2026-11-10T13:00:00"));
    // 60 left, then 45 the next morning: low again, on a new day.
    await electric(local("2026-11-11T09:00:00"), "1215.00");
    const lows = await until(
      async () => (await queue()).filter((m) => m.alarmLevel === 1),
      (list) => list.length === 2 && list.every((m) => m.state === 3),
      "a low balance message for each day",
    );
    assert.deepEqual(
      lows.map((m) => JSON.parse(m.templateParams).balance),
      ["45.00", "45.00"],
    );
  });

  test("an alarm scheme whose channels leave out SMS raises the alarm and sends its owner nothing", async () => {
    await server.db.query("update pms_alarm_scheme set notify_channels = 'console'");
    const recharge = await post("datarecharge/submit", {
      meterId: site.meter,
      amount: "100",
      paymentMethod: 1,
      idempotencyKey: "notice-recharge-3",
    });
    assert.equal(recharge.statusCode, 200, recharge.body);
    await evaluateAll(server.db, local("2026-11-11T13:00:00"));
    const before = (await queue()).length;
    const sent = aliyun.received.length;
    // 60 left, then 45 the next morning: low again, on a new day, but the scheme says console only.
    await electric(local("2026-11-12T09:00:00"), "1315.00");
    const open = await server.db.query(
      "select id from pms_check_record where rule_code = 'balance_low' and alarm_status = 1",
    );
    assert.equal(open.length, 1, "the low balance alarm was raised");
    assert.equal((await queue()).length, before, "no message queued");
    assert.equal(aliyun.received.length, sent);
  });
});
