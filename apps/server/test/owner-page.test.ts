import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { DbReadingsSink } from "../src/modules/metering/readings-sink.db.ts";
import { provisionTenant } from "./fixtures.ts";
import { startTestServer, type TestServer } from "./helpers.ts";
import { buildSite, created } from "./registry-fixtures.ts";
import { type SmsDouble, startAliyunDouble } from "./sms-doubles.ts";
import { startWechatOauthDouble } from "./wechat-oauth-double.ts";

const H5 = "/api/blade-pms/h5";
const WX_APP = { appid: "wx6f1e2d3c4b5a6978", secret: "owner-page-app-secret-0001" };
const ZHANG = "13800000001";
const LI = "13800000002";

describe("owner page: SMS codes, WeChat authorization, binding and owner-scoped reads", () => {
  let server: TestServer;
  let aliyun: SmsDouble;
  let wechat: Awaited<ReturnType<typeof startWechatOauthDouble>>;
  let a: string;
  let b: string;
  let tenantA: string;
  let tenantB: string;
  let site: Awaited<ReturnType<typeof buildSite>>;
  let zhangAccount: string;
  let liAccount: string;
  let liRecharge: string;
  let liMeter: string;
  let zhangRecharge: string;

  /** An owner-page call from an address (each test its own, so the address throttle stays apart). */
  const owner = (
    method: "GET" | "POST",
    path: string,
    options: { token?: string; body?: Record<string, unknown>; address?: string; blade?: string } = {},
  ) =>
    server.inject({
      method,
      url: `${H5}/${path}`,
      remoteAddress: options.address ?? "10.0.0.1",
      headers: {
        ...(options.token ? { "h5-auth": options.token } : {}),
        ...(options.blade ? { "blade-auth": `bearer ${options.blade}` } : {}),
      },
      ...(options.body ? { payload: options.body } : {}),
    });
  /** The code the SMS double last received for a phone. */
  const lastCode = (phone: string): string => {
    const sms = aliyun.received.filter((m) => m.phones.includes(phone)).at(-1);
    assert.ok(sms, `an SMS reached ${phone}`);
    assert.equal(sms.signatureValid, true);
    return (sms.params as Record<string, string>).code ?? "";
  };
  /** Lets the next code to a phone go out at once (the one-a-minute rule is tested on its own). */
  const ageCodes = (phone: string, seconds = 61) =>
    server.db.query(
      "update pms_h5_code set create_time = create_time - make_interval(secs => $2) where phone = $1",
      [phone, seconds],
    );
  const signIn = async (tenantId: string, phone: string, address: string): Promise<string> => {
    await ageCodes(phone);
    const sent = await owner("POST", "code", { body: { tenantId, phone }, address });
    assert.equal(sent.statusCode, 200, sent.body);
    const res = await owner("POST", "sign-in", { body: { tenantId, phone, code: lastCode(phone) }, address });
    assert.equal(res.statusCode, 200, res.body);
    return res.json().data.token;
  };
  const me = async (token: string) => {
    const res = await owner("GET", "me", { token });
    assert.equal(res.statusCode, 200, res.body);
    return res.json().data;
  };

  before(async () => {
    server = await startTestServer();
    aliyun = await startAliyunDouble({ LTAIownerpage: "owner-page-sms-secret" });
    wechat = await startWechatOauthDouble(WX_APP);
    const platform = (await server.login()).access_token;
    const first = await provisionTenant(server, platform, "甲物业");
    a = first.token;
    tenantA = first.tenantId;
    const second = await provisionTenant(server, platform, "乙物业");
    b = second.token;
    tenantB = second.tenantId;
    for (const token of [a, b]) {
      const setting = await server.call("POST", "/api/blade-resource/sms/submit", token, {
        category: 3,
        smsCode: "code",
        templateId: "SMS_CODE",
        accessKey: "LTAIownerpage",
        secretKey: "owner-page-sms-secret",
        signName: "物业",
        endpoint: aliyun.url,
      });
      assert.equal(setting.statusCode, 200, setting.body);
      const enabled = await server.call("POST", "/api/blade-resource/sms/enable", token, {
        id: setting.json().data.id,
      });
      assert.equal(enabled.statusCode, 200, enabled.body);
    }
    const config = await server.call("POST", "/api/blade-pms/wxconfig/submit", a, {
      appId: WX_APP.appid,
      mchId: "1900000109",
      appSecret: WX_APP.secret,
      oauthUrl: wechat.base,
      enabled: 1,
    });
    assert.equal(config.statusCode, 200, config.body);

    site = await buildSite(server, a);
    const price = await created(server, a, "chargingscheme/submit", {
      schemeName: "一元电",
      energyType: 1,
      priceMode: 1,
      price: "1",
    });
    const li = await created(server, a, "owner/submit", { ownerName: "李四", ownerCode: "O2", phone: LI });
    await created(server, a, "ownerroom/submit", { ownerId: li, roomId: site.room102 });
    liMeter = await created(server, a, "meter/save", {
      productCode: "100000000102",
      collectorId: site.collector,
      channel: 2,
    });
    await created(server, a, "roommeter/submit", { roomId: site.room102, energyType: 1, meterId: liMeter });
    const sink = new DbReadingsSink(server.db, "Asia/Shanghai");
    // The priced reading lands on today's daily row in Shanghai, the day the account opens: an hour
    // ago, or halfway back to midnight in the first hour of the day (usage before the opening day is
    // not the owner's).
    const sinceMidnight = (Date.now() + 8 * 3_600_000) % 86_400_000;
    const hourAgo = Date.now() - Math.min(3_600_000, Math.floor(sinceMidnight / 2));
    for (const [meterId, address] of [
      [site.meter, "100000000101"],
      [liMeter, "100000000102"],
    ] as const) {
      await created(server, a, "meter/submit", {
        id: meterId,
        productCode: address,
        collectorId: site.collector,
        controlStatus: 1,
        chargingSchemeId: price,
      });
      await sink.record({
        meterId,
        address,
        at: new Date(hourAgo - 3_600_000),
        energy: { total: "1000.00", tariffs: [] },
        relay: "closed",
        missing: [],
      });
      const opened = await server.call("POST", "/api/blade-pms/message/openAccount", a, {
        meterId,
        deposit: "100",
      });
      assert.equal(opened.statusCode, 200, opened.body);
    }
    // 12.5 kWh today on 张三's meter: the daily row the chart reads.
    await sink.record({
      meterId: site.meter,
      address: "100000000101",
      at: new Date(hourAgo),
      energy: { total: "1012.50", tariffs: [] },
      relay: "closed",
      missing: [],
    });
    const accounts = await server.db.query<{ id: string; meter_id: string }>(
      "select id::text as id, meter_id::text as meter_id from pms_account where tenant_id = $1",
      [tenantA],
    );
    zhangAccount = accounts.find((x) => x.meter_id === site.meter)!.id;
    liAccount = accounts.find((x) => x.meter_id === liMeter)!.id;
    const recharge = async (meterId: string, key: string) => {
      const res = await server.call("POST", "/api/blade-pms/datarecharge/submit", a, {
        meterId,
        amount: "50",
        paymentMethod: 1,
        idempotencyKey: key,
      });
      assert.equal(res.statusCode, 200, res.body);
      return String(res.json().data.id);
    };
    zhangRecharge = await recharge(site.meter, "owner-page-zhang-1");
    liRecharge = await recharge(liMeter, "owner-page-li-1");
  });
  after(async () => {
    await server?.close();
    await aliyun?.close();
    await wechat?.close();
  });

  test("the site answer does not tell whether a tenant code exists, nor WeChat beyond the page's flag", async () => {
    const unknown = "999999";
    const [taken] = await server.db.query("select 1 from sys_tenant where tenant_id = $1", [unknown]);
    assert.equal(taken, undefined);
    const site = (tenantId: string) => owner("GET", `site?tenantId=${tenantId}`, { address: "10.1.9.1" });
    const withWechat = await site(tenantA);
    const without = await site(tenantB);
    const missing = await site(unknown);
    for (const res of [withWechat, without, missing]) assert.equal(res.statusCode, 200, res.body);
    // A code that exists nowhere answers exactly as a tenant without an official account does.
    assert.deepEqual(missing.json(), without.json());
    assert.deepEqual(missing.json().data, { wechat: false });
    // A tenant with one answers in the same shape: only the flag the page offers WeChat by.
    assert.deepEqual(Object.keys(withWechat.json()).sort(), Object.keys(missing.json()).sort());
    assert.deepEqual(withWechat.json().data, { wechat: true });
    // Starting WeChat's authorization does not tell them apart either.
    const start = (tenantId: string) =>
      server.inject({ method: "GET", url: `${H5}/wechat?tenantId=${tenantId}`, remoteAddress: "10.1.9.1" });
    const [startMissing, startWithout] = [await start(unknown), await start(tenantB)];
    assert.equal(startMissing.statusCode, 400);
    assert.equal(startWithout.statusCode, 400);
    assert.deepEqual(startMissing.json(), startWithout.json());
    // The owner who typed a wrong code learns it on asking for an SMS code.
    const code = await owner("POST", "code", {
      body: { tenantId: unknown, phone: ZHANG },
      address: "10.1.9.1",
    });
    assert.equal(code.statusCode, 404);
    assert.match(code.json().msg, /^tenantId: /);
  });

  test("a code is six digits through the tenant's SMS provider, kept hashed, and masked in the send record", async () => {
    const res = await owner("POST", "code", {
      body: { tenantId: tenantA, phone: "13900000009" },
      address: "10.1.0.1",
    });
    assert.equal(res.statusCode, 200, res.body);
    const code = lastCode("13900000009");
    assert.match(code, /^\d{6}$/);
    const [stored] = await server.db.query<{ code_hash: string }>(
      "select code_hash from pms_h5_code where phone = '13900000009'",
    );
    assert.notEqual(stored!.code_hash, code);
    assert.doesNotMatch(stored!.code_hash, new RegExp(code));
    const [log] = await server.db.query<{ params: string }>(
      "select params from sms_send_log where phones = '13900000009'",
    );
    assert.deepEqual(JSON.parse(log!.params), { code: "******" });
    // Bad input is named.
    const bad = await owner("POST", "code", {
      body: { tenantId: tenantA, phone: "1380000" },
      address: "10.1.0.1",
    });
    assert.equal(bad.statusCode, 400);
    assert.match(bad.json().msg, /^phone: /);
    const noTenant = await owner("POST", "code", { body: { phone: ZHANG }, address: "10.1.0.1" });
    assert.equal(noTenant.statusCode, 400);
    assert.match(noTenant.json().msg, /^tenantId: /);
  });

  test("a code expires after five minutes and dies after five wrong tries", async () => {
    const phone = "13900000010";
    await owner("POST", "code", { body: { tenantId: tenantA, phone }, address: "10.1.0.2" });
    const code = lastCode(phone);
    const wrong = code === "000000" ? "111111" : "000000";
    for (let i = 4; i >= 1; i--) {
      const res = await owner("POST", "sign-in", { body: { tenantId: tenantA, phone, code: wrong } });
      assert.equal(res.statusCode, 400);
      assert.match(res.json().msg, new RegExp(`还可尝试 ${i} 次`));
    }
    const fifth = await owner("POST", "sign-in", { body: { tenantId: tenantA, phone, code: wrong } });
    assert.equal(fifth.statusCode, 400);
    const late = await owner("POST", "sign-in", { body: { tenantId: tenantA, phone, code } });
    assert.equal(late.statusCode, 400, "the right code after five wrong tries is refused");
    assert.match(late.json().msg, /^code: 验证码已失效/);

    await ageCodes(phone);
    await owner("POST", "code", { body: { tenantId: tenantA, phone }, address: "10.1.0.2" });
    const fresh = lastCode(phone);
    // Five minutes and a second later (the clock moved by moving the code back in time).
    await server.db.query(
      `update pms_h5_code set create_time = create_time - interval '301 seconds',
                              expires_at = expires_at - interval '301 seconds'
        where phone = $1 and used_time is null`,
      [phone],
    );
    const expired = await owner("POST", "sign-in", { body: { tenantId: tenantA, phone, code: fresh } });
    assert.equal(expired.statusCode, 400);
    assert.match(expired.json().msg, /^code: 验证码已失效/);
    // A code is good once.
    await ageCodes(phone);
    await owner("POST", "code", { body: { tenantId: tenantA, phone }, address: "10.1.0.2" });
    const once = lastCode(phone);
    const used = await owner("POST", "sign-in", { body: { tenantId: tenantA, phone, code: once } });
    assert.equal(used.statusCode, 200, used.body);
    const again = await owner("POST", "sign-in", { body: { tenantId: tenantA, phone, code: once } });
    assert.equal(again.statusCode, 400);
  });

  test("codes are throttled per phone (a minute apart, five an hour) and per address (ten an hour)", async () => {
    const phone = "13900000011";
    const send = (p: string, address: string) =>
      owner("POST", "code", { body: { tenantId: tenantA, phone: p }, address });
    assert.equal((await send(phone, "10.2.0.1")).statusCode, 200);
    const soon = await send(phone, "10.2.0.2");
    assert.equal(soon.statusCode, 429);
    assert.match(soon.json().msg, /^phone: 验证码已发送,请 \d+ 秒后再试/);
    for (let i = 2; i <= 5; i++) {
      await ageCodes(phone);
      assert.equal((await send(phone, `10.2.0.${i + 10}`)).statusCode, 200, `code ${i}`);
    }
    await ageCodes(phone);
    const sixth = await send(phone, "10.2.0.30");
    assert.equal(sixth.statusCode, 429);
    assert.match(sixth.json().msg, /一小时/);

    const before = aliyun.received.length;
    for (let i = 0; i < 10; i++) {
      const res = await send(`1370000${String(i).padStart(4, "0")}`, "10.3.0.1");
      assert.equal(res.statusCode, 200, res.body);
    }
    const eleventh = await send("13700000099", "10.3.0.1");
    assert.equal(eleventh.statusCode, 429);
    assert.equal(aliyun.received.length, before + 10, "the refused code was never sent");
  });

  test("a phone session binds by room number and its own phone; WeChat binds with a code to the owner's phone", async () => {
    const zhang = await signIn(tenantA, ZHANG, "10.4.0.1");
    assert.equal((await me(zhang)).bound, false);
    const early = await owner("GET", "history", { token: zhang });
    assert.equal(early.statusCode, 400);
    assert.match(early.json().msg, /^owner: 尚未绑定/);
    const wrongRoom = await owner("POST", "bind", { token: zhang, body: { room: "102", phone: ZHANG } });
    assert.equal(wrongRoom.statusCode, 400);
    assert.match(wrongRoom.json().msg, /^room: /);
    const bound = await owner("POST", "bind", { token: zhang, body: { room: "101", phone: ZHANG } });
    assert.equal(bound.statusCode, 200, bound.body);
    const mine = await me(zhang);
    assert.equal(mine.ownerName, "张三");
    assert.deepEqual(
      mine.accounts.map((x: { id: string; balanceFen: string; alarmLevel: number; switchStatus: number }) => [
        x.id,
        x.balanceFen,
        x.switchStatus,
      ]),
      [[zhangAccount, "13750", 0]],
      "100 deposit + 50 recharge − 12.50 used",
    );
    const [row] = await server.db.query<{ phone: string; open_id: string | null }>(
      "select phone, open_id from pms_wx_bind where tenant_id = $1 and is_deleted = 0",
      [tenantA],
    );
    assert.deepEqual(row, { phone: ZHANG, open_id: null });

    // Inside WeChat: authorize (snsapi_base) → the double sends the person back with a code.
    wechat.as("oH5_li_si_openid_000000000001");
    const start = await server.inject({ method: "GET", url: `${H5}/wechat?tenantId=${tenantA}` });
    assert.equal(start.statusCode, 302, start.body);
    const authorize = new URL(start.headers.location as string);
    assert.equal(authorize.origin, wechat.base);
    assert.equal(authorize.pathname, "/connect/oauth2/authorize");
    assert.equal(authorize.searchParams.get("scope"), "snsapi_base");
    assert.equal(authorize.searchParams.get("appid"), WX_APP.appid);
    assert.equal(authorize.hash, "#wechat_redirect");
    const back = await fetch(authorize, { redirect: "manual" });
    assert.equal(back.status, 302);
    const callback = new URL(back.headers.get("location")!);
    assert.equal(callback.pathname, `${H5}/wechat/callback`);
    const cookie = String(start.headers["set-cookie"]).split(";")[0]!;
    assert.match(String(start.headers["set-cookie"]), /HttpOnly; SameSite=Lax/);
    // The return link opened in another browser (without the cookie) signs nobody in…
    const elsewhere = await server.inject({ method: "GET", url: `${callback.pathname}${callback.search}` });
    assert.equal(elsewhere.statusCode, 400);
    assert.match(elsewhere.json().msg, /^state: /);
    // …and leaves the state for the browser that started it.
    const landed = await server.inject({
      method: "GET",
      url: `${callback.pathname}${callback.search}`,
      headers: { cookie },
    });
    assert.equal(landed.statusCode, 302, landed.body);
    const page = new URL(landed.headers.location as string, "http://owner.page");
    assert.equal(page.pathname, "/h5/");
    assert.equal(page.searchParams.get("tenant"), tenantA);
    const li = new URLSearchParams(page.hash.slice(1)).get("session")!;
    assert.ok(li);
    // The state is single use: the same return again is refused.
    const replay = await server.inject({
      method: "GET",
      url: `${callback.pathname}${callback.search}`,
      headers: { cookie },
    });
    assert.equal(replay.statusCode, 400);

    assert.equal((await me(li)).bound, false);
    // The WeChat person must prove the owner's phone: without the code, and with 张三's phone, no.
    const noCode = await owner("POST", "bind", { token: li, body: { room: "102", phone: LI } });
    assert.equal(noCode.statusCode, 400);
    assert.match(noCode.json().msg, /^code: /);
    await ageCodes(LI);
    await owner("POST", "code", { body: { tenantId: tenantA, phone: LI }, address: "10.4.0.2" });
    const liBound = await owner("POST", "bind", {
      token: li,
      body: { room: "102", phone: LI, code: lastCode(LI) },
    });
    assert.equal(liBound.statusCode, 200, liBound.body);
    const liMe = await me(li);
    assert.equal(liMe.ownerName, "李四");
    assert.deepEqual(
      liMe.accounts.map((x: { id: string }) => x.id),
      [liAccount],
    );
    const [wx] = await server.db.query<{ app_id: string; owner_id: string }>(
      "select app_id, owner_id::text as owner_id from pms_wx_bind where open_id = 'oH5_li_si_openid_000000000001' and is_deleted = 0",
    );
    assert.equal(wx!.app_id, WX_APP.appid);
  });

  test("an owner sees balance, usage, history, receipts and notices of their own accounts only", async () => {
    const zhang = await signIn(tenantA, ZHANG, "10.5.0.1");
    const days = await owner("GET", `usage?accountId=${zhangAccount}&span=day`, { token: zhang });
    assert.equal(days.statusCode, 200, days.body);
    const today = days.json().data as { period: string; usage: string }[];
    assert.equal(today.length, 1);
    assert.equal(today[0]!.usage, "12.50");
    const months = await owner("GET", `usage?accountId=${zhangAccount}&span=month`, { token: zhang });
    assert.deepEqual(
      months.json().data.map((p: { usage: string }) => p.usage),
      ["12.50"],
    );
    const history = (await owner("GET", "history", { token: zhang })).json().data;
    assert.deepEqual(
      history.recharges.map((r: { id: string }) => r.id),
      [zhangRecharge],
    );
    const receipt = await owner("GET", `receipt?id=${zhangRecharge}`, { token: zhang });
    assert.equal(receipt.statusCode, 200, receipt.body);
    assert.equal(receipt.json().data.amountFen, "5000");
    assert.match(receipt.json().data.receiptNo, /^R\d{8}/);
    // Rooms are named as the console names them, building included: never a bare "101".
    assert.equal(receipt.json().data.roomName, "1号楼 101");
    assert.deepEqual(
      (await me(zhang)).accounts.map((x: { roomLabel: string }) => x.roomLabel),
      ["1号楼 101"],
    );
    // A low-balance alarm and an arrears cut on each owner's meter (as the alarm checks and the
    // arrears rules write them): each owner hears of their own meter only.
    for (const [meterId, code, at] of [
      [site.meter, "100000000101", "2026-11-20 08:00:00+08"],
      [liMeter, "100000000102", "2026-11-21 08:00:00+08"],
    ] as const) {
      await server.db.query(
        `insert into pms_check_record (id, tenant_id, energy_type, meter_id, product_code, rule_code, check_rule_name,
                                       alarm_level, alarm_status, create_time, last_check_time)
         values ($1, $2, 1, $3, $4, 'balance_low', '余额不足', 1, 1, $5, $5)`,
        [`9${meterId.slice(-12)}`, tenantA, meterId, code, at],
      );
      await server.db.query(
        `insert into pms_meter_command (id, tenant_id, energy_type, meter_id, product_code, command_type, source, state)
         values ($1, $2, 1, $3, $4, 'switch', 'arrears/cut', 'success')`,
        [`8${meterId.slice(-12)}`, tenantA, meterId, code],
      );
    }
    const notices = await owner("GET", "notices", { token: zhang });
    assert.equal(notices.statusCode, 200, notices.body);
    const seen = notices.json().data as {
      alarms: { kind: string; productCode: string; time: string; room: string }[];
      supply: { kind: string; state: string; productCode: string; room: string }[];
    };
    assert.deepEqual(
      seen.alarms.map((x) => [x.kind, x.productCode, x.time, x.room]),
      [["balance_low", "100000000101", "2026-11-20 08:00:00", "1号楼 101"]],
    );
    assert.deepEqual(
      seen.supply.map((x) => [x.kind, x.state, x.productCode, x.room]),
      [["cut", "success", "100000000101", "1号楼 101"]],
    );

    // 李四's account and receipt, by id, from 张三's session: not found, as if they did not exist.
    const otherUsage = await owner("GET", `usage?accountId=${liAccount}&span=day`, { token: zhang });
    assert.equal(otherUsage.statusCode, 404);
    const otherReceipt = await owner("GET", `receipt?id=${liRecharge}`, { token: zhang });
    assert.equal(otherReceipt.statusCode, 404);
    // Nor can 张三 pay into 李四's account (found out before anything about WeChat Pay is asked).
    const otherOrder = await owner("POST", "wxpay/order", {
      token: zhang,
      body: { accountId: liAccount, amount: "10" },
    });
    assert.equal(otherOrder.statusCode, 404, otherOrder.body);
    assert.match(otherOrder.json().msg, /^accountId: /);
    const ownOrder = await owner("POST", "wxpay/order", {
      token: zhang,
      body: { accountId: zhangAccount, amount: "10" },
    });
    assert.equal(ownOrder.statusCode, 400, "the tenant has no merchant set up for payments");
    assert.match(ownOrder.json().msg, /^wxconfig: /);
    assert.equal((await owner("GET", "wxpay/order/ML1", { token: zhang })).statusCode, 404);
    const badSpan = await owner("GET", `usage?accountId=${zhangAccount}&span=week`, { token: zhang });
    assert.equal(badSpan.statusCode, 400);
    assert.match(badSpan.json().msg, /^span: /);
  });

  test("another tenant's owner session reaches nothing of this tenant", async () => {
    const siteB = await buildSite(server, b, "乙");
    assert.ok(siteB.owner);
    const other = await signIn(tenantB, ZHANG, "10.6.0.1");
    // Same phone, same room number, but tenant B's owner 张三: the binding is tenant B's own.
    const bound = await owner("POST", "bind", { token: other, body: { room: "101", phone: ZHANG } });
    assert.equal(bound.statusCode, 200, bound.body);
    assert.deepEqual((await me(other)).accounts, [], "tenant B's 张三 has no accounts");
    for (const path of [
      `usage?accountId=${zhangAccount}&span=day`,
      `usage?accountId=${liAccount}&span=month`,
      `receipt?id=${zhangRecharge}`,
    ]) {
      const res = await owner("GET", path, { token: other });
      assert.equal(res.statusCode, 404, path);
    }
    assert.deepEqual((await owner("GET", "history", { token: other })).json().data.recharges, []);
  });

  test("operator tokens are refused on the owner API, and owner sessions on the operator API", async () => {
    const zhang = await signIn(tenantA, ZHANG, "10.7.0.1");
    const asOperator = await owner("GET", "me", { blade: a });
    assert.equal(asOperator.statusCode, 401);
    const operatorAsOwner = await owner("GET", "me", { token: a });
    assert.equal(operatorAsOwner.statusCode, 401);
    for (const url of [
      "/api/blade-pms/owner/page?current=1&size=10",
      "/api/blade-pms/wxbind/page",
      "/api/blade-system/menu/routes",
    ]) {
      const res = await server.inject({ method: "GET", url, headers: { "blade-auth": `bearer ${zhang}` } });
      assert.equal(res.statusCode, 401, url);
      const viaHeader = await server.inject({ method: "GET", url, headers: { "h5-auth": zhang } });
      assert.equal(viaHeader.statusCode, 401, url);
    }
    const nothing = await owner("GET", "me", { token: "not-a-session" });
    assert.equal(nothing.statusCode, 401);
  });

  test("unbinding from the page and from the console's wxbind screen both end the owner's access", async () => {
    const zhang = await signIn(tenantA, ZHANG, "10.8.0.1");
    assert.equal((await me(zhang)).bound, true);
    const unbound = await owner("POST", "unbind", { token: zhang });
    assert.equal(unbound.statusCode, 200, unbound.body);
    assert.equal((await me(zhang)).bound, false);
    assert.equal((await owner("GET", "history", { token: zhang })).statusCode, 400);
    // Bound again, then removed by an operator on the wxbind screen.
    assert.equal(
      (await owner("POST", "bind", { token: zhang, body: { room: "101", phone: ZHANG } })).statusCode,
      200,
    );
    const page = await server.call("GET", `/api/blade-pms/wxbind/page?current=1&size=10&phone=${ZHANG}`, a);
    assert.equal(page.statusCode, 200, page.body);
    const [record] = page.json().data.records as { id: string; ownerId: string; phone: string }[];
    assert.equal(record!.phone, ZHANG);
    const removed = await server.call("POST", `/api/blade-pms/wxbind/remove?ids=${record!.id}`, a);
    assert.equal(removed.statusCode, 200, removed.body);
    assert.equal((await me(zhang)).bound, false);
    // A binding that names nobody (neither openid nor phone) is refused on the screen's form.
    const nobody = await server.call("POST", "/api/blade-pms/wxbind/submit", a, { ownerId: record!.ownerId });
    assert.equal(nobody.statusCode, 400);
    assert.match(nobody.json().msg, /^openId: /);
    // Tenant B's operator cannot remove tenant A's binding (the console's remove is tenant-bound).
    await owner("POST", "bind", { token: zhang, body: { room: "101", phone: ZHANG } });
    const again = (
      await server.call("GET", `/api/blade-pms/wxbind/page?current=1&size=10&phone=${ZHANG}`, a)
    ).json().data.records[0] as { id: string };
    await server.call("POST", `/api/blade-pms/wxbind/remove?ids=${again.id}`, b);
    assert.equal((await me(zhang)).bound, true);
  });
});
