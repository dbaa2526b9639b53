import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import ExcelJS from "exceljs";
import { nextId } from "../src/db/ids.ts";
import { raiseRecord } from "../src/modules/alarm/alarm.repository.ts";
import type { RuleCode } from "../src/modules/alarm/alarm-rules.ts";
import { addRole, addUser, provisionTenant } from "./fixtures.ts";
import { startTestServer, type TestServer } from "./helpers.ts";
import { buildSite, created } from "./registry-fixtures.ts";

const pms = "/api/blade-pms";

interface RecordOut {
  id: string;
  productCode: string;
  ruleCode: string;
  roomName: string;
  alarmStatus: number;
}

describe("告警记录: the screen's filters by place, rule, level and state, its export, and the home page's alarm counts", () => {
  let server: TestServer;
  let tenant: Awaited<ReturnType<typeof provisionTenant>>;
  let site: Awaited<ReturnType<typeof buildSite>>;
  /** An electric meter in room 201 of 2号楼, beside the site's meters in room 101 of 1号楼. */
  let meter2: string;

  const get = (path: string, token = tenant.token) => server.call("GET", `${pms}/${path}`, token);
  const data = async (path: string, token = tenant.token) => {
    const res = await get(path, token);
    assert.equal(res.statusCode, 200, `${path}: ${res.body}`);
    return res.json().data;
  };
  const records = async (query: string): Promise<RecordOut[]> =>
    (await data(`checkRecord/page?current=1&size=100${query}`)).records;
  const raise = (energyType: 1 | 2, meterId: string, productCode: string, code: RuleCode, level = 0) =>
    raiseRecord(server.db, {
      tenantId: tenant.tenantId,
      energyType,
      meterId,
      productCode,
      ownerId: null,
      code,
      name: `规则 ${code}`,
      level,
      content: `内容 ${code}`,
      at: new Date("2026-11-20T02:00:00Z"),
    });

  before(async () => {
    server = await startTestServer();
    const platform = (await server.login()).access_token;
    tenant = await provisionTenant(server, platform, "告警物业");
    site = await buildSite(server, tenant.token);
    meter2 = await created(server, tenant.token, "meter/save", {
      productCode: "100000000201",
      collectorId: site.collector,
      channel: 2,
    });
    await created(server, tenant.token, "roommeter/submit", {
      roomId: site.room201,
      energyType: 1,
      meterId: meter2,
    });
    await raise(1, site.meter, "100000000101", "balance_low", 1);
    await raise(1, site.meter, "100000000101", "offline");
    await raise(2, site.water, "10000000000101", "water_flow");
    await raise(1, meter2, "100000000201", "offline");
    await raise(1, meter2, "100000000201", "arrears", 3);
    // One of meter 2's records has ended: it no longer counts as open.
    await server.db.query(
      "update pms_check_record set alarm_status = 2 where tenant_id = $1 and meter_id = $2 and rule_code = 'offline'",
      [tenant.tenantId, meter2],
    );
  });
  after(() => server.close());

  test("filters by area (rooms below it), rule, level and state; rooms read with their building", async () => {
    const codes = (rows: RecordOut[]) => rows.map((r) => `${r.productCode} ${r.ruleCode}`).sort();
    assert.deepEqual(codes(await records(`&areaId=${site.building2}`)), [
      "100000000201 arrears",
      "100000000201 offline",
    ]);
    assert.equal((await records(`&areaId=${site.park}`)).length, 5, "the park holds both buildings");
    assert.deepEqual(codes(await records(`&areaId=${site.building1}&ruleCode=offline`)), [
      "100000000101 offline",
    ]);
    assert.deepEqual(codes(await records("&alarmLevel=3")), ["100000000201 arrears"]);
    assert.deepEqual(codes(await records("&ruleCode=offline&alarmStatus=1")), ["100000000101 offline"]);
    assert.deepEqual(codes(await records(`&roomId=${site.room201}&alarmStatus=1`)), ["100000000201 arrears"]);
    const rooms = new Set((await records("")).map((r) => r.roomName));
    assert.deepEqual([...rooms].sort(), ["1号楼 101", "2号楼 201"]);
    // A rule added later is a code like these: nothing carries it yet, so nothing matches.
    assert.deepEqual(await records("&ruleCode=cover_open"), []);
    for (const bad of ["ruleCode=Robert');", "alarmLevel=9", "areaId=x", "startTime=yesterday"]) {
      const res = await get(`checkRecord/page?${bad}`);
      assert.equal(res.statusCode, 400, bad);
      assert.match(res.json().msg, new RegExp(`${bad.split("=")[0]}$`));
    }
  });

  test("the export writes what the filters match, with Chinese labels, and needs its own button", async () => {
    const res = await get(`checkRecord/export?areaId=${site.building2}`);
    assert.equal(res.statusCode, 200, res.body.slice(0, 300));
    assert.match(String(res.headers["content-type"]), /spreadsheetml/);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const rows: string[][] = [];
    book.worksheets[0]!.eachRow((row) =>
      rows.push((row.values as unknown[]).slice(1).map((v) => String(v ?? ""))),
    );
    assert.deepEqual(rows[0], [
      "表号",
      "能源类型",
      "房间",
      "告警规则",
      "告警等级",
      "状态",
      "告警内容",
      "告警时间",
      "最近检测",
      "结束时间",
    ]);
    assert.deepEqual(
      rows
        .slice(1)
        .map((r) => r.slice(0, 6).join("|"))
        .sort(),
      [
        "100000000201|电|2号楼 201|规则 arrears|欠费|告警中",
        "100000000201|电|2号楼 201|规则 offline||已恢复",
      ],
    );

    const role = await addRole(server.db, tenant.tenantId, `r${nextId()}`);
    await server.db.query(
      `insert into sys_role_menu (id, menu_id, role_id)
       select (select max(id) from sys_role_menu) + row_number() over () + 100000, m.id, $1
         from sys_menu m where m.code = 'checkRecord' and m.is_deleted = 0`,
      [role],
    );
    const account = `u${nextId()}`;
    await addUser(server.db, { tenantId: tenant.tenantId, account, password: "pw-test", roleIds: [role] });
    const reader = (await server.login(account, "pw-test", tenant.tenantId)).access_token;
    assert.equal((await get("checkRecord/page", reader)).statusCode, 200);
    assert.equal((await get("checkRecord/export", reader)).statusCode, 403);
  });

  test("open alarms per rule, and meters alarming and in arrears on the device status", async () => {
    assert.deepEqual(await data("checkRecord/ruleCounts"), [
      { ruleCode: "arrears", checkRuleName: "规则 arrears", count: 1 },
      { ruleCode: "balance_low", checkRuleName: "规则 balance_low", count: 1 },
      { ruleCode: "offline", checkRuleName: "规则 offline", count: 1 },
      { ruleCode: "water_flow", checkRuleName: "规则 water_flow", count: 1 },
    ]);
    // Meter 2's account is in arrears (ARREAS_STATUS 1); a closed account of the site's meter is not.
    for (const [meterId, status, arrears] of [
      [meter2, 1, 1],
      [site.meter, 2, 1],
    ] as const)
      await server.db.query(
        `insert into pms_account (id, tenant_id, owner_id, energy_type, meter_id, control_status, status, alarm_level, arrears_status)
         values ($1, $2, $3, 1, $4, 1, $5, 3, $6)`,
        [nextId(), tenant.tenantId, site.owner, meterId, status, arrears],
      );
    const status = await data("homepage/deviceStatusData");
    // Two electric meters alarm (the site's twice, counted once); the water meter once.
    assert.deepEqual([status.electric.alarming, status.electric.arrears], [2, 1]);
    assert.deepEqual([status.water.alarming, status.water.arrears], [1, 0]);
  });
});
