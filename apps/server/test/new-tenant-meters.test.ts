import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { BatchJobItem, BatchJobSummary } from "@meterline/contracts";
import ExcelJS from "exceljs";
import { DbReadingsSink } from "../src/modules/metering/readings-sink.db.ts";
import { pumpAccountJob } from "../src/modules/money/account-jobs.ts";
import { provisionTenant } from "./fixtures.ts";
import { multipartFile, startTestServer, type TestServer } from "./helpers.ts";

const pms = "/api/blade-pms";
const HEADERS = [
  "区域路径",
  "房间名称",
  "业主姓名",
  "电表表号",
  "水表表号",
  "采集器注册码",
  "收费方案",
  "电表控制方式",
  "电表初始读数",
  "水表初始读数",
] as const;
type Row = Partial<Record<(typeof HEADERS)[number], string>>;

const COLLECTOR = "DTU-NEW-SITE";
const LOCAL_METER = "300000000001";
const REMOTE_METER = "300000000002";
const REMOTE_WATER = "30000000000002";

async function workbook(rows: Row[]): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet("房间档案");
  sheet.addRow([...HEADERS]);
  for (const row of rows) sheet.addRow(HEADERS.map((h) => row[h] ?? ""));
  return Buffer.from(await book.xlsx.writeBuffer());
}

/** A new site's sheet: one local-prepaid meter, one remote meter and water meter, two bad rows. */
const SHEET: Row[] = [
  {
    区域路径: "新园区/1号楼",
    房间名称: "101",
    业主姓名: "甲",
    电表表号: LOCAL_METER,
    采集器注册码: COLLECTOR,
    收费方案: "新电价",
    电表控制方式: "本地预付费",
    电表初始读数: "1234.5",
  },
  {
    区域路径: "新园区/1号楼",
    房间名称: "102",
    业主姓名: "乙",
    电表表号: REMOTE_METER,
    水表表号: REMOTE_WATER,
    采集器注册码: COLLECTOR,
    收费方案: "新电价,新水价",
    电表初始读数: "100.25",
    水表初始读数: "8.5",
  },
  {
    区域路径: "新园区/1号楼",
    房间名称: "103",
    电表表号: "300000000003",
    电表控制方式: "遥控",
    电表初始读数: "-1",
  },
  { 区域路径: "新园区/1号楼", 房间名称: "104", 水表初始读数: "5" },
];

describe("a new tenant's meters import with their control mode and initial reading, and open", () => {
  let server: TestServer;
  let tenant: Awaited<ReturnType<typeof provisionTenant>>;
  let file: Buffer;

  const post = (path: string, body?: Record<string, unknown>) =>
    server.call("POST", `${pms}/${path}`, tenant.token, body);
  const upload = (path: string, content: Buffer) => {
    const body = multipartFile("rooms.xlsx", content);
    return server.inject({
      method: "POST",
      url: `${pms}/${path}`,
      headers: { ...body.headers, "blade-auth": `bearer ${tenant.token}` },
      payload: body.payload,
    });
  };
  const submit = async (path: string, body: Record<string, unknown>) => {
    const res = await post(path, body);
    assert.equal(res.statusCode, 200, `${path}: ${res.body}`);
  };
  const meterId = async (table: string, code: string) =>
    (
      await server.db.query<{ id: string }>(
        `select id::text as id from ${table} where tenant_id = $1 and product_code = $2`,
        [tenant.tenantId, code],
      )
    )[0]!.id;

  before(async () => {
    server = await startTestServer();
    tenant = await provisionTenant(server, (await server.login()).access_token, "新租户物业");
    // A collector registered but never connected, as on a site whose DTUs are not installed yet.
    await submit("collector/submit", { collectorName: "1号楼 DTU", collectorCode: COLLECTOR });
    await submit("chargingscheme/submit", {
      schemeName: "新电价",
      energyType: 1,
      priceMode: 1,
      price: "0.5",
    });
    await submit("chargingscheme/submit", { schemeName: "新水价", energyType: 2, priceMode: 1, price: "3" });
    file = await workbook(SHEET);
  });
  after(() => server.close());

  test("the preview names the bad control mode and readings by their column", async () => {
    const res = await upload("room/import-preview", file);
    assert.equal(res.statusCode, 200, res.body);
    const data = res.json().data;
    assert.deepEqual([data.total, data.valid], [4, 2], res.body);
    const reasons = (data.problems as { row: number; reason: string }[]).map((p) => [p.row, p.reason]);
    assert.deepEqual(reasons, [
      [
        4,
        "电表控制方式: [遥控] 不存在, 可选 远程控制、本地预付费、预付费; 电表初始读数: [-1] 须为不小于 0 的读数, 最多 2 位小数",
      ],
      [5, "水表初始读数: 本行没有水表表号"],
    ]);
  });

  test("the import stores each meter's control mode and its initial reading", async () => {
    const res = await upload("room/import", file);
    assert.equal(res.statusCode, 200, res.body);
    const meters = await server.db.query<{ code: string; control_status: number }>(
      "select product_code as code, control_status from pms_meter where tenant_id = $1 order by product_code",
      [tenant.tenantId],
    );
    // Blank is remote: the server keeps the balance, as a new site expects.
    assert.deepEqual(
      meters.map((m) => [m.code, m.control_status]),
      [
        [LOCAL_METER, 0],
        [REMOTE_METER, 1],
      ],
    );
    const initial = await server.db.query<{ energy_type: number; code: string; total: string }>(
      `select v.energy_type, coalesce(m.product_code, w.product_code) as code, v.total_value::text as total
         from pms_meter_orig_value v
         left join pms_meter m on m.id = v.meter_id and v.energy_type = 1
         left join pms_water w on w.id = v.meter_id and v.energy_type = 2
        where v.tenant_id = $1 and v.is_deleted = 0 order by v.energy_type, code`,
      [tenant.tenantId],
    );
    assert.deepEqual(
      initial.map((v) => [v.energy_type, v.code, Number(v.total)]),
      [
        [1, LOCAL_METER, 1234.5],
        [1, REMOTE_METER, 100.25],
        [2, REMOTE_WATER, 8.5],
      ],
    );
  });

  test("the first priced reading charges only the usage above the initial reading", async () => {
    const meter = await meterId("pms_meter", REMOTE_METER);
    const opened = await post("message/openAccount", { meterId: meter, deposit: "100" });
    assert.equal(opened.statusCode, 200, opened.body);
    const accountId = opened.json().data[0].accountId as string;
    const sink = new DbReadingsSink(server.db, "Asia/Shanghai");
    await sink.record({
      meterId: meter,
      address: REMOTE_METER,
      at: new Date(Date.now() + 60_000),
      energy: { total: "110.25", tariffs: [] },
      relay: "closed",
      missing: [],
    });
    // 110.25 − 100.25 = 10 kWh × 0.5 = 5.00 yuan, not 110.25 kWh and not nothing.
    const [account] = await server.db.query<{ balance: string }>(
      "select balance::text as balance from pms_account where id = $1",
      [accountId],
    );
    assert.equal(account!.balance, String(10000 - 500));
  });

  test("opening a local-prepaid meter whose purchase count is unread says what to do", async () => {
    const meter = await meterId("pms_meter", LOCAL_METER);
    const res = await post("message/openAccount", { meterId: meter, deposit: "50" });
    assert.equal(res.statusCode, 400, res.body);
    assert.equal(
      res.json().msg,
      `deposit: 本地预付费电表 ${LOCAL_METER} 须先抄到购电次数才能写表预存: ` +
        `采集器 1号楼 DTU(${COLLECTOR}) 从未连接, 请等待采集器上线后在抄表中读取该表`,
    );
    const [state] = await server.db.query<{ account_status: number }>(
      "select account_status from pms_meter where id = $1",
      [meter],
    );
    assert.equal(state!.account_status, 0, "nothing was opened");
  });

  test("a batch job says per meter what it waits for: the reason, or the offline collector", async () => {
    const local = await meterId("pms_meter", LOCAL_METER);
    // The remote meter, opened above, fails as already open: a job needs two meters.
    const remote = await meterId("pms_meter", REMOTE_METER);
    const start = async (deposit?: string) => {
      const res = await post("message/openAccount", {
        meterIds: `${local},${remote}`,
        ...(deposit ? { deposit } : {}),
      });
      assert.equal(res.statusCode, 200, res.body);
      const jobId = res.json().data.jobId as string;
      await pumpAccountJob(server.db, jobId, 10, "Asia/Shanghai");
      const detail = await server.call("GET", `${pms}/batchjob/detail?id=${jobId}`, tenant.token);
      const items = await server.call("GET", `${pms}/batchjob/items?id=${jobId}&size=10`, tenant.token);
      return {
        job: detail.json().data as BatchJobSummary,
        item: (items.json().data.records as BatchJobItem[]).find((i) => i.meterId === local)!,
      };
    };
    // With a deposit the meter fails, and its item carries what the operator must do.
    const refused = await start("50");
    assert.equal(refused.item.state, "fail");
    assert.match(refused.item.reason, /须先抄到购电次数.*从未连接/);
    assert.equal(refused.item.waitingFor, null, "a failed item waits for nothing");
    // Without one the scheme writes are queued behind the offline collector: the item says so.
    const waiting = await start();
    assert.equal(waiting.item.state, "queued");
    assert.deepEqual(waiting.item.waitingFor, { collectorName: "1号楼 DTU", collectorCode: COLLECTOR });
    assert.deepEqual([waiting.job.remaining, waiting.job.waitingOffline], [1, 1]);
    // Once the collector is online the item is only waiting for the meter's reply.
    await server.db.query("update pms_collector set online_status = 1 where collector_code = $1", [
      COLLECTOR,
    ]);
    const items = await server.call(
      "GET",
      `${pms}/batchjob/items?id=${waiting.job.id}&size=10`,
      tenant.token,
    );
    const item = (items.json().data.records as BatchJobItem[]).find((i) => i.meterId === local)!;
    assert.equal(item.state, "queued");
    assert.equal(item.waitingFor, null);
  });
});
