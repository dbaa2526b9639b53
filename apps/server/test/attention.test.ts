import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import ExcelJS from "exceljs";
import { localDay } from "../src/modules/metering/usage-periods.ts";
import { addRole, addUser, provisionTenant } from "./fixtures.ts";
import { startTestServer, type TestServer } from "./helpers.ts";
import { buildSite, created } from "./registry-fixtures.ts";

const pms = "/api/blade-pms";

interface AttentionOut {
  accountId: string;
  energyType: number;
  productCode: string;
  roomName: string;
  ownerName: string;
  phone: string;
  balance: string;
  alarmLevel: number;
  dailyCharge: string | null;
  paceDays: number;
  daysUntilEmpty: number | null;
  daysUntilCut: number | null;
  switchStatus: number | null;
}

describe("待关注账户: who needs attention, how long each balance lasts, reminders", () => {
  let server: TestServer;
  let tenant: Awaited<ReturnType<typeof provisionTenant>>;
  let other: Awaited<ReturnType<typeof provisionTenant>>;
  let site: Awaited<ReturnType<typeof buildSite>>;
  let electric: string;
  let water: string;

  const get = (path: string, token = tenant.token) => server.call("GET", `${pms}/${path}`, token);
  const post = (path: string, body: Record<string, unknown>, token = tenant.token) =>
    server.call("POST", `${pms}/${path}`, token, body);
  const list = async (query: string, token = tenant.token): Promise<AttentionOut[]> => {
    const res = await get(`attention/page?current=1&size=50&${query}`, token);
    assert.equal(res.statusCode, 200, res.body);
    return res.json().data.records;
  };
  /** Closed days of the last week, each charging `fen` for usage. */
  async function closeDays(accountId: string, charges: number[]) {
    const today = localDay(new Date(), "Asia/Shanghai");
    for (const [i, fen] of charges.entries()) {
      const day = new Date(Date.parse(`${today}T00:00:00Z`) - (i + 1) * 86_400_000)
        .toISOString()
        .slice(0, 10);
      await server.db.query(
        `insert into pms_account_day (tenant_id, account_id, day, opening_balance, usage, usage_charge, fee, credit,
           debit, correction, closing_balance, entries)
         values ($1, $2, $3, 0, 0, $4, 0, 0, 0, 0, 0, 1)`,
        [tenant.tenantId, accountId, day, fen],
      );
    }
  }

  before(async () => {
    server = await startTestServer();
    const platform = (await server.login()).access_token;
    tenant = await provisionTenant(server, platform, "关注物业");
    other = await provisionTenant(server, platform, "隔壁物业");
    site = await buildSite(server, tenant.token);
    const alarm = await created(server, tenant.token, "alarmscheme/submit", {
      schemeName: "余额告警",
      energyType: 1,
      firstAlarm: "50",
      secondAlarm: "20",
      arrearsLimit: "10",
      tripOnArrears: 1,
    });
    const price = (energyType: number) =>
      created(server, tenant.token, "chargingscheme/submit", {
        schemeName: `单价${energyType}`,
        energyType,
        priceMode: 1,
        price: "1.00",
      });
    await created(server, tenant.token, "meter/submit", {
      id: site.meter,
      controlStatus: 1,
      chargingSchemeId: await price(1),
      alarmSchemeId: alarm,
    });
    await created(server, tenant.token, "water/submit", {
      id: site.water,
      controlStatus: 1,
      chargingSchemeId: await price(2),
    });
    const opened = await post("message/openAccount", { meterId: site.meter, deposit: "30.00" });
    assert.equal(opened.statusCode, 200, opened.body);
    const openedWater = await post("waterparam/openAccount", { meterId: site.water, deposit: "100" });
    assert.equal(openedWater.statusCode, 200, openedWater.body);
    [electric, water] = (
      await server.db.query<{ id: string }>(
        "select id::text as id from pms_account where tenant_id = $1 order by energy_type",
        [tenant.tenantId],
      )
    ).map((r) => r.id) as [string, string];
    // 35.00 元 over the week, 5.00 元 a day: 30.00 元 lasts 6 days, with the 10.00 元 overdraft 8.
    await closeDays(electric, [500, 500, 500, 500, 500, 500, 500]);
    await closeDays(water, [100, 100]);
  });
  after(() => server?.close());

  test("the low balance lists with its room, owner, phone and the days it lasts", async () => {
    const rows = await list("");
    assert.deepEqual(
      rows.map((r) => r.accountId),
      [electric],
      "only the account at an alarm level (30.00 ≤ the 50.00 first alarm); the water account is fine",
    );
    const [row] = rows;
    assert.equal(row!.roomName, "1号楼 101");
    assert.equal(row!.ownerName, "张三");
    assert.equal(row!.phone, "13800000001");
    assert.equal(row!.productCode, "100000000101");
    assert.equal(row!.balance, "30.00");
    assert.equal(row!.alarmLevel, 1);
    assert.equal(row!.dailyCharge, "5.00");
    assert.equal(row!.paceDays, 7);
    assert.equal(row!.daysUntilEmpty, 6);
    assert.equal(row!.daysUntilCut, 8);
  });

  test("cut within N days holds from the cut's own day, not the day before", async () => {
    assert.deepEqual(await list("cutWithinDays=7"), []);
    assert.deepEqual(
      (await list("cutWithinDays=8")).map((r) => r.accountId),
      [electric],
    );
    // The water account has no alarm scheme: it never trips, so no cut is ever due.
    assert.deepEqual(
      (await list("cutWithinDays=365&energyType=2")).map((r) => r.accountId),
      [],
    );
    assert.deepEqual(
      (await list("keyword=1号楼 101")).map((r) => r.accountId),
      [electric],
    );
    assert.deepEqual(await list("keyword=13900"), []);
  });

  test("another tenant sees none of it; bad filters are named", async () => {
    assert.deepEqual(await list("cutWithinDays=365", other.token), []);
    assert.deepEqual(await list("", other.token), []);
    for (const bad of [
      "cutWithinDays=x",
      "cutWithinDays=366",
      "energyType=3",
      "alarmLevel=0",
      "alarmLevel=1,2",
    ]) {
      const res = await get(`attention/page?${bad}`);
      assert.equal(res.statusCode, 400, bad);
      assert.match(res.json().msg, new RegExp(bad.split("=")[0]!));
    }
  });

  test("the export holds what the page shows, in Chinese", async () => {
    const res = await get("attention/export?cutWithinDays=8");
    assert.equal(res.statusCode, 200, res.body.slice(0, 300));
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const rows: string[][] = [];
    book.worksheets[0]!.eachRow((row) =>
      rows.push((row.values as unknown[]).slice(1).map((v) => String(v ?? ""))),
    );
    assert.equal(rows[0]![0], "房间");
    assert.deepEqual(rows[1]!.slice(0, 3), ["1号楼 101", "张三", "13800000001"]);
    assert.ok(rows[1]!.includes("6") && rows[1]!.includes("8"), JSON.stringify(rows[1]));
  });

  test("a reminder queues one SMS per owner and day through the tenant's channel, logged per owner", async () => {
    const first = await post("attention/remind", { accountIds: electric });
    assert.equal(first.statusCode, 200, first.body);
    assert.deepEqual(first.json().data, { queued: 1, noPhone: 0, alreadyToday: 0, owners: 1 });
    const again = await post("attention/remind", { cutWithinDays: "8" });
    assert.deepEqual(again.json().data, { queued: 0, noPhone: 0, alreadyToday: 1, owners: 1 });
    const queued = (await get("messagequeue/list?current=1&size=20")).json().data.records as {
      ownerId: string;
      ruleCode: string;
      phone: string;
      templateParams: string;
    }[];
    const reminders = queued.filter((m) => m.ruleCode === "reminder");
    assert.equal(reminders.length, 1);
    assert.equal(reminders[0]!.ownerId, site.owner);
    assert.equal(reminders[0]!.phone, "13800000001");
    assert.deepEqual(JSON.parse(reminders[0]!.templateParams), {
      name: "张三",
      room: "1号楼 101",
      balance: "30.00",
    });
    // Another tenant's account id names nothing here.
    const foreign = await post("attention/remind", { accountIds: electric }, other.token);
    assert.deepEqual(foreign.json().data, { queued: 0, noPhone: 0, alreadyToday: 0, owners: 0 });
  });

  test("the list and its buttons need their own grants", async () => {
    const role = await addRole(server.db, tenant.tenantId, "reader");
    await addUser(server.db, {
      tenantId: tenant.tenantId,
      account: "clerk",
      password: "clerk-Passw0rd!",
      roleIds: [role],
    });
    const clerk = (await server.login("clerk", "clerk-Passw0rd!", tenant.tenantId)).access_token;
    assert.equal((await get("attention/page", clerk)).statusCode, 403);
    assert.equal((await post("attention/remind", { accountIds: electric }, clerk)).statusCode, 403);
  });

  test("an alarm rule must be one the server runs: a reminder is no rule", async () => {
    const res = await post("alarm/submit", { ruleCode: "reminder", checkRuleName: "提醒", enabled: 1 });
    assert.equal(res.statusCode, 400, res.body);
    assert.match(res.json().msg, /ruleCode/);
  });
});
