import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { MeterReading } from "@meterline/gateway";
import { nextId } from "../src/db/ids.ts";
import { evaluateAll, evaluateTenant } from "../src/modules/alarm/alarm.service.ts";
import { DbReadingsSink } from "../src/modules/metering/readings-sink.db.ts";
import { addRole, addUser, provisionTenant } from "./fixtures.ts";
import { startTestServer, type TestServer } from "./helpers.ts";
import { buildSite, created } from "./registry-fixtures.ts";

const pms = "/api/blade-pms";
const local = (text: string) => new Date(`${text}+08:00`);
const minutesAfter = (date: Date, minutes: number) => new Date(date.getTime() + minutes * 60_000);

interface RecordOut {
  id: string;
  meterId: string;
  productCode: string;
  ruleCode: string;
  checkRuleName: string;
  alarmLevel: number;
  alarmStatus: number;
  ignored: boolean;
  createTime: string;
  roomName?: string;
}

describe("alarms: rules raise check records, recovery restores them, ignores silence them", () => {
  let server: TestServer;
  let admin: string;
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
  const water = (at: Date, volume: string) =>
    sink.record({ meterId: site.water, address: "10000000000101", at, volume, valve: "open", missing: [] });
  const post = (path: string, body: Record<string, unknown>, token = admin) =>
    server.call("POST", `${pms}/${path}`, token, body);
  const get = async (path: string, token = admin) => {
    const res = await server.call("GET", `${pms}/${path}`, token);
    assert.equal(res.statusCode, 200, `${path}: ${res.body}`);
    return res.json().data;
  };
  const bell = async (token = admin): Promise<RecordOut[]> =>
    (await get("checkRecord/upPage?current=1&size=10", token)).records;
  const records = async (query = ""): Promise<RecordOut[]> =>
    (await get(`checkRecord/page?current=1&size=100${query}`)).records;
  const byRule = async (meterId: string, ruleCode: string) =>
    (await records(`&meterId=${meterId}&ruleCode=${ruleCode}`)).map((r) => r.alarmStatus);
  const ignoreCount = async () =>
    Number((await server.db.query<{ n: string }>("select count(*)::text as n from pms_check_ignore"))[0]!.n);

  before(async () => {
    server = await startTestServer();
    admin = (await server.login()).access_token;
    site = await buildSite(server, admin);
    sink = new DbReadingsSink(server.db, "Asia/Shanghai");
    const price = await created(server, admin, "chargingscheme/submit", {
      schemeName: "一元电",
      energyType: 1,
      priceMode: 1,
      price: "1",
    });
    const scheme = await created(server, admin, "alarmscheme/submit", {
      schemeName: "电费告警",
      energyType: 1,
      firstAlarm: "50",
      secondAlarm: "20",
      arrearsLimit: "10",
      tripOnArrears: 0,
    });
    await created(server, admin, "meter/submit", {
      id: site.meter,
      productCode: "100000000101",
      collectorId: site.collector,
      controlStatus: 1,
      chargingSchemeId: price,
      alarmSchemeId: scheme,
    });
  });
  after(() => server.close());

  test("balance levels of the account raise their records as readings are priced; a recharge restores", async () => {
    await electric(local("2026-11-10T08:00:00"), "1000.00");
    const opened = await post("message/openAccount", { meterId: site.meter, deposit: "60" });
    assert.equal(opened.statusCode, 200, opened.body);
    assert.deepEqual(await bell(), []);

    // 15 kWh at 1 yuan: 45 left, below the first alarm (50).
    await electric(local("2026-11-10T09:00:00"), "1015.00");
    const [low] = await bell();
    assert.deepEqual(
      [
        low?.productCode,
        low?.ruleCode,
        low?.checkRuleName,
        low?.alarmLevel,
        low?.alarmStatus,
        low?.createTime,
      ],
      ["100000000101", "balance_low", "余额不足", 1, 1, "2026-11-10 09:00:00"],
    );
    // Still low: the same record, not a second one.
    await electric(local("2026-11-10T10:00:00"), "1030.00");
    assert.equal((await records("&ruleCode=balance_low")).length, 1);

    // 15 left, at or below the second alarm: the low record gives way to the severe one.
    await electric(local("2026-11-10T11:00:00"), "1045.00");
    assert.deepEqual(await byRule(site.meter, "balance_low"), [2]);
    assert.deepEqual(
      (await bell()).map((r) => [r.ruleCode, r.alarmLevel]),
      [["balance_severe", 2]],
    );

    const recharge = await post("datarecharge/submit", {
      meterId: site.meter,
      amount: "100",
      paymentMethod: 1,
      idempotencyKey: "alarm-test-recharge-1",
    });
    assert.equal(recharge.statusCode, 200, recharge.body);
    // The recharge itself raises nothing; the next pass sees the level back to normal.
    const pass = await evaluateAll(server.db, local("2026-11-10T11:05:00"));
    assert.deepEqual(pass, { raised: 0, restored: 1 });
    assert.deepEqual(await byRule(site.meter, "balance_severe"), [2]);
    assert.deepEqual(await bell(), []);

    const [severe] = await records("&ruleCode=balance_severe");
    const detail = await get(`checkRecord/detail?id=${severe!.id}`);
    assert.deepEqual(
      detail.history.map((h: { fromStatus: number; toStatus: number }) => [h.fromStatus, h.toStatus]),
      [
        [0, 1],
        [1, 2],
      ],
    );
  });

  test("offline longer than the tenant's threshold raises; the next reading restores", async () => {
    // The tenant sets the rule: 30 minutes, under its own name.
    await created(server, admin, "alarm/submit", {
      ruleCode: "offline",
      checkRuleName: "离线超时",
      threshold: "30",
      enabled: 1,
    });
    const last = local("2026-11-10T11:00:00");
    assert.deepEqual(await evaluateAll(server.db, minutesAfter(last, 30)), { raised: 0, restored: 0 });
    assert.deepEqual(await evaluateAll(server.db, minutesAfter(last, 31)), { raised: 1, restored: 0 });
    assert.deepEqual(
      (await bell()).map((r) => [r.ruleCode, r.checkRuleName]),
      [["offline", "离线超时"]],
    );
    // The screen's list names the room the meter is installed in, with its building.
    assert.deepEqual(
      (await records("&ruleCode=offline")).map((r) => r.roomName),
      ["1号楼 101"],
    );
    // A second pass finds the open record and raises nothing more.
    assert.deepEqual(await evaluateAll(server.db, minutesAfter(last, 45)), { raised: 0, restored: 0 });
    await electric(minutesAfter(last, 50), "1045.00");
    assert.deepEqual(await byRule(site.meter, "offline"), [2]);
    assert.deepEqual(await bell(), []);
  });

  test("a register that runs backwards or jumps beyond the rating raises; a normal interval restores", async () => {
    const t = local("2026-11-12T08:00:00");
    await water(t, "100.00");
    await water(minutesAfter(t, 15), "100.50");
    assert.deepEqual(await bell(), []);
    // 20 m³ in 15 minutes is 80 m³/h, beyond the default 50.
    await water(minutesAfter(t, 30), "120.50");
    assert.deepEqual(
      (await bell()).map((r) => r.ruleCode),
      ["register_jump"],
    );
    await water(minutesAfter(t, 45), "120.60");
    assert.deepEqual(await byRule(site.water, "register_jump"), [2]);
    await water(minutesAfter(t, 60), "119.00");
    assert.deepEqual(
      (await bell()).map((r) => r.ruleCode),
      ["register_back"],
    );
    await water(minutesAfter(t, 75), "119.10");
    assert.deepEqual(await byRule(site.water, "register_back"), [2]);
    assert.deepEqual(await bell(), []);
  });

  test("water flowing in every interval of 24 hours raises; one still interval restores", async () => {
    const start = local("2026-11-14T00:00:00");
    let total = 200;
    for (let hour = 0; hour < 24; hour++) {
      await water(minutesAfter(start, hour * 60), total.toFixed(2));
      total += 0.05;
    }
    assert.deepEqual(await bell(), [], "23 hours of flow are not yet 24");
    await water(minutesAfter(start, 24 * 60), total.toFixed(2));
    const [flow] = await bell();
    assert.deepEqual([flow?.ruleCode, flow?.checkRuleName], ["water_flow", "持续流水"]);
    await water(minutesAfter(start, 25 * 60), total.toFixed(2));
    assert.deepEqual(await byRule(site.water, "water_flow"), [2]);
  });

  test("ignore this time hides the record until it restores; 7 days and permanent keep the rule quiet for their period only", async () => {
    // Each round: the electric meter is read, then silent long enough to be offline.
    let last = local("2026-11-16T08:00:00");
    const electricPass = (now: Date) =>
      evaluateTenant(server.db, "000000", now, { energyType: 1, meterId: site.meter });
    const offlineRound = async () => {
      await electric(last, "1045.00");
      // The electric meter alone: the water meter, silent since its own test, would be offline too.
      const outcome = await electricPass(minutesAfter(last, 40));
      last = minutesAfter(last, 60);
      return outcome;
    };

    // This time (days 0).
    assert.equal((await offlineRound()).raised, 1);
    const [first] = await bell();
    assert.equal(first?.ruleCode, "offline");
    const once = await post("checkIgnore/save", { meterId: site.meter, recordId: first!.id, days: 0 });
    assert.equal(once.statusCode, 200, once.body);
    assert.equal(once.json().msg, "操作成功!");
    assert.deepEqual(await bell(), []);
    const [hidden] = await records(`&alarmStatus=1&ruleCode=offline`);
    assert.deepEqual([hidden?.id, hidden?.ignored], [first!.id, true]);
    // It restores with the next reading; the next time the meter goes silent is a new alarm, shown.
    assert.equal((await offlineRound()).raised, 1);
    const [second] = await bell();
    assert.notEqual(second?.id, first!.id);

    // Seven days (ignoreType 2).
    const week = await post("checkIgnore/save", { recordId: second!.id, ignoreType: 2, remark: "检修中" });
    assert.equal(week.statusCode, 200, week.body);
    assert.deepEqual(await bell(), []);
    assert.equal((await offlineRound()).raised, 0, "silenced for the week");
    assert.deepEqual(await bell(), []);
    // Once the week is over the rule speaks again.
    await server.db.query("update pms_check_ignore set ignore_until = $1 where record_id = $2", [
      minutesAfter(last, -1),
      second!.id,
    ]);
    assert.equal((await offlineRound()).raised, 1);
    const [third] = await bell();
    assert.equal(third?.ruleCode, "offline");

    // Permanently (days 9999) needs a reason; then nothing is raised again, however long.
    const before = await ignoreCount();
    const blank = await post("checkIgnore/save", { recordId: third!.id, days: 9999, reason: "  " });
    assert.equal(blank.statusCode, 400);
    assert.match(blank.json().msg, /^reason: 忽略理由不能为空/);
    assert.equal(await ignoreCount(), before, "nothing stored");
    const forever = await post("checkIgnore/save", {
      recordId: third!.id,
      ignoreType: 3,
      days: 9999,
      reason: "表已拆除",
    });
    assert.equal(forever.statusCode, 200, forever.body);
    assert.deepEqual(await bell(), []);
    for (let i = 0; i < 2; i++) assert.equal((await offlineRound()).raised, 0);
    assert.deepEqual(await electricPass(minutesAfter(last, 60 * 24 * 400)), {
      raised: 0,
      restored: 0,
    });

    const ignores = await get(`checkIgnore/page?current=1&size=10&meterId=${site.meter}`);
    assert.deepEqual(
      ignores.records.map(
        (i: { ignoreType: number; days: number; reason: string; checkRuleName: string }) => [
          i.ignoreType,
          i.days,
          i.reason,
          i.checkRuleName,
        ],
      ),
      [
        [3, 9999, "表已拆除", "离线超时"],
        [2, 7, "检修中", "离线超时"],
        [1, 0, "", "离线超时"],
      ],
    );
    // The week is over: that ignore is on file but no longer at work; the others are.
    assert.deepEqual(
      ignores.records.map((i: { inEffect: boolean }) => i.inEffect),
      [true, false, true],
    );
    const atWork = await get(`checkIgnore/page?current=1&size=10&meterId=${site.meter}&inEffect=true`);
    assert.equal(atWork.total, 2);

    // Lifting the permanent ignore: the next silence is an alarm in the bell again; the list drops it.
    const permanent = ignores.records[0] as { id: string };
    const lifted = await post("checkIgnore/remove", { ids: permanent.id });
    assert.equal(lifted.statusCode, 200, lifted.body);
    assert.equal(lifted.json().data.removed, 1);
    assert.equal((await offlineRound()).raised, 1, "the rule speaks again");
    assert.deepEqual(
      (await bell()).map((r) => r.ruleCode),
      ["offline"],
    );
    const after = await get(`checkIgnore/page?current=1&size=10&meterId=${site.meter}`);
    assert.equal(after.total, 2);
    // A page past the end still says how many there are.
    const beyond = await get(`checkIgnore/page?current=9&size=10&meterId=${site.meter}`);
    assert.deepEqual([beyond.records.length, beyond.total], [0, 2]);
    const again = await post("checkIgnore/remove", { ids: permanent.id });
    assert.equal(again.statusCode, 400);
    assert.match(again.json().msg, /^ids: /);
    assert.match((await post("checkIgnore/remove", {})).json().msg, /: ids$/);
  });

  test("bad ignores are a 400 naming the field and store nothing; another tenant neither sees nor ignores", async () => {
    const [record] = await records();
    assert.ok(record);
    const before = await ignoreCount();
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ recordId: record.id, ignoreType: 5 }, /^ignoreType: /],
      [{ recordId: record.id, days: 3 }, /^days: /],
      [{ recordId: record.id, ignoreType: 1, days: 7 }, /^days: /],
      [{ recordId: record.id, ignoreType: 3 }, /^reason: 忽略理由不能为空/],
      [{ days: 7 }, /^recordId: /],
      [{ recordId: "123", days: 7 }, /^recordId: 告警记录不存在/],
      [{ recordId: record.id, meterId: site.water, days: 7 }, /^meterId: /],
    ];
    for (const [body, message] of cases) {
      const res = await post("checkIgnore/save", body);
      assert.equal(res.statusCode, 400, `${JSON.stringify(body)}: ${res.body}`);
      assert.match(res.json().msg, message, JSON.stringify(body));
    }
    const other = await provisionTenant(server, admin, "别家物业");
    const foreign = await post("checkIgnore/save", { recordId: record.id, days: 7 }, other.token);
    assert.equal(foreign.statusCode, 400, foreign.body);
    assert.match(foreign.json().msg, /^recordId: 告警记录不存在/);
    assert.equal(await ignoreCount(), before, "nothing stored");
    assert.deepEqual(await bell(other.token), []);
    assert.equal((await get("checkRecord/page?current=1&size=10", other.token)).total, 0);
    // Another tenant's remove and close touch nothing of ours, nor does its lifting of our ignores.
    await server.call("POST", `/blade-pms/checkRecord/remove?ids=${record.id}`, other.token);
    assert.ok((await records()).some((r) => r.id === record.id));
    const ours = (await get("checkIgnore/page?current=1&size=200")).records as { id: string }[];
    assert.ok(ours.length > 0);
    assert.equal((await get("checkIgnore/page?current=1&size=10", other.token)).total, 0);
    const lift = await post("checkIgnore/remove", { ids: ours.map((i) => i.id).join(",") }, other.token);
    assert.equal(lift.statusCode, 400, lift.body);
    assert.equal((await get("checkIgnore/page?current=1&size=200")).total, ours.length);
  });

  test("close, remove without the /api prefix, and the spoken text of an alarm", async () => {
    await created(server, admin, "alarm/submit", {
      ruleCode: "balance_low",
      checkRuleName: "余额偏低",
      enabled: 1,
    });
    // Back below the first alarm: 1045 → 1120 is 75 kWh of the 115 left.
    await electric(local("2026-11-20T08:00:00"), "1120.00");
    const [low] = await bell();
    assert.deepEqual([low?.ruleCode, low?.checkRuleName], ["balance_low", "余额偏低"]);
    const closed = await post(`checkRecord/close?ids=${low!.id}`, {});
    assert.equal(closed.statusCode, 200, closed.body);
    assert.deepEqual(closed.json().data, { closed: 1 });
    assert.deepEqual(await byRule(site.meter, "balance_low"), [3, 2]);

    const removed = await server.call("POST", `/blade-pms/checkRecord/remove?ids=${low!.id}`, admin);
    assert.equal(removed.statusCode, 200, removed.body);
    assert.deepEqual(await byRule(site.meter, "balance_low"), [2]);
    const anonymous = await server.inject({
      method: "POST",
      url: `/blade-pms/checkRecord/remove?ids=${low!.id}`,
    });
    assert.equal(anonymous.statusCode, 401);

    const speech = await get(
      `message/SpeechByContent?type=2&checkRuleName=${encodeURIComponent("余额偏低")}`,
    );
    assert.equal(speech, "您有一条新的告警：余额偏低，请及时处理");
    const wrong = await server.call("GET", `${pms}/message/SpeechByContent?type=1&checkRuleName=x`, admin);
    assert.equal(wrong.statusCode, 400);
    assert.match(wrong.json().msg, /^type: /);
  });

  test("the screen's codes guard each call: reading needs any of them, ignore, close and remove their own", async () => {
    const userWith = async (codes: string[]) => {
      const role = await addRole(server.db, "000000", `r${nextId()}`);
      await server.db.query(
        `insert into sys_role_menu (id, menu_id, role_id)
         select (select max(id) from sys_role_menu) + row_number() over () + 100000, m.id, $2
           from sys_menu m where m.code = any($1) and m.is_deleted = 0`,
        [codes, role],
      );
      const account = `u${nextId()}`;
      await addUser(server.db, { tenantId: "000000", account, password: "pw-test", roleIds: [role] });
      return (await server.login(account, "pw-test", "000000")).access_token;
    };
    const [record] = await records();
    assert.ok(record);
    const none = await userWith([]);
    const reader = await userWith(["checkRecord"]);
    const ignorer = await userWith(["checkRecord_ignore"]);
    const status = async (method: "GET" | "POST", url: string, token: string) =>
      (await server.call(method, url, token)).statusCode;
    assert.equal(await status("GET", `${pms}/checkRecord/upPage`, none), 403);
    assert.equal(await status("GET", `${pms}/checkRecord/upPage`, reader), 200);
    assert.equal(await status("GET", `${pms}/checkRecord/upPage`, ignorer), 200);
    const before = await ignoreCount();
    assert.equal(await status("POST", `${pms}/checkIgnore/save?recordId=${record.id}&days=7`, reader), 403);
    assert.equal(await status("POST", `${pms}/checkRecord/close?ids=${record.id}`, ignorer), 403);
    assert.equal(await status("POST", `/blade-pms/checkRecord/remove?ids=${record.id}`, reader), 403);
    assert.equal(await ignoreCount(), before);
    assert.equal(await status("POST", `${pms}/checkIgnore/save?recordId=${record.id}&days=7`, ignorer), 200);
    assert.equal(await ignoreCount(), before + 1);
    // Reading the ignores is any alarm reader's; lifting one is the ignorer's.
    const [mine] = (await get("checkIgnore/page?current=1&size=1", reader)).records as { id: string }[];
    assert.ok(mine);
    assert.equal(await status("POST", `${pms}/checkIgnore/remove?ids=${mine.id}`, reader), 403);
    assert.equal(await status("POST", `${pms}/checkIgnore/remove?ids=${mine.id}`, ignorer), 200);
  });

  test("the roles' data scope over meters holds for records: outside it they read as absent", async () => {
    const role = await addRole(server.db, "000000", `r${nextId()}`);
    await server.db.query(
      `insert into sys_role_menu (id, menu_id, role_id)
       select (select max(id) from sys_role_menu) + row_number() over () + 100000, m.id, $2
         from sys_menu m where m.code = any($1) and m.is_deleted = 0`,
      [["checkRecord", "checkRecord_ignore", "checkRecord_close"], role],
    );
    const account = `u${nextId()}`;
    await addUser(server.db, { tenantId: "000000", account, password: "pw-test", roleIds: [role] });
    const scoped = (await server.login(account, "pw-test", "000000")).access_token;
    // Electric meters: only those the user created (none); water meters are not limited.
    const [menu] = await server.db.query<{ id: string }>("select id from sys_menu where code = 'meter'");
    const rule = await server.call("POST", "/api/blade-system/data-scope/submit", admin, {
      menuId: menu!.id,
      resourceCode: "meter",
      scopeName: "本人电表",
      scopeColumn: "createUser",
      scopeType: 2,
    });
    assert.equal(rule.statusCode, 200, rule.body);
    await server.db.query(
      "insert into sys_role_scope (id, scope_category, scope_id, role_id) values ($1, 1, $2, $3)",
      [nextId(), rule.json().data.id, role],
    );
    const all = await records();
    const seen = (await get("checkRecord/page?current=1&size=100", scoped)).records as RecordOut[];
    assert.ok(all.some((r) => r.meterId === site.meter));
    assert.ok(seen.length > 0, "the water meter's records stay in sight");
    assert.deepEqual(
      seen.map((r) => r.id),
      all.filter((r) => r.meterId === site.water).map((r) => r.id),
    );
    const electricRecord = all.find((r) => r.meterId === site.meter)!;
    const detail = await get(`checkRecord/detail?id=${electricRecord.id}`, scoped);
    assert.deepEqual(detail, {});
    const before = await ignoreCount();
    const ignore = await post("checkIgnore/save", { recordId: electricRecord.id, days: 7 }, scoped);
    assert.equal(ignore.statusCode, 400, ignore.body);
    assert.match(ignore.json().msg, /^recordId: 告警记录不存在/);
    assert.equal(await ignoreCount(), before);
    const ignores = await get("checkIgnore/page?current=1&size=100", scoped);
    assert.ok(ignores.records.every((i: { meterId: string }) => i.meterId === site.water));
  });
});
