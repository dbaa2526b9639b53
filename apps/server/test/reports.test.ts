import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import ExcelJS from "exceljs";
import { DEMO_TENANT_ID, seedDemoSite } from "../src/demo/demo-site.ts";
import { provisionTenant } from "./fixtures.ts";
import { ADMIN_PASSWORD, startTestServer, type TestServer } from "./helpers.ts";

const base = "/api/blade-report/report/rest";
const MONTHLY_BY_BUILDING = "2020";
const RECHARGES_BY_METHOD = "2021";
const ARREARS = "2022";

type Row = Record<string, string | null>;

describe("reports built from the catalogue", () => {
  let server: TestServer;
  let demo: string;
  let other: { tenantId: string; token: string };
  let platform: string;
  before(async () => {
    server = await startTestServer();
    assert.equal(await seedDemoSite(server.db, { adminPassword: ADMIN_PASSWORD }), true);
    demo = (await server.login("admin", ADMIN_PASSWORD, DEMO_TENANT_ID)).access_token;
    platform = (await server.login()).access_token;
    other = await provisionTenant(server, platform, "报表隔离租户");
  });
  after(() => server.close());

  const run = async (token: string, body: unknown) => {
    const res = await server.call("POST", `${base}/run`, token, body);
    return { status: res.statusCode, body: res.json() };
  };
  const rowsOf = async (token: string, body: unknown): Promise<Row[]> => {
    const { status, body: answer } = await run(token, body);
    assert.equal(status, 200, JSON.stringify(answer));
    assert.equal(answer.data.truncated, false);
    return answer.data.rows;
  };

  test("list answers the contract's page with the shipped definitions, content as base64", async () => {
    const res = await server.call("GET", `${base}/list?current=1&size=20`, demo);
    assert.equal(res.statusCode, 200, res.body);
    const page = res.json().data;
    const names = page.records.map((r: { name: string }) => r.name);
    for (const name of ["各楼栋月用电量", "每日各支付方式充值", "欠费清单"])
      assert.ok(names.includes(name), name);
    const shipped = page.records.find((r: { id: string }) => r.id === MONTHLY_BY_BUILDING);
    assert.equal(shipped.builtin, true);
    assert.equal(JSON.parse(Buffer.from(shipped.content, "base64").toString("utf8")).dataset, "daily_usage");
    assert.equal(typeof page.total, "number");
  });

  test("monthly usage by building matches the same figures summed directly", async () => {
    const rows = await rowsOf(demo, { id: MONTHLY_BY_BUILDING });
    const expected = await server.db.query<{ building: string; month: string; usage: string }>(
      `select a.area_name as building, to_char(d.day_date, 'YYYY-MM') as month, sum(d.usage)::text as usage
         from pms_data_daily d join pms_room r on r.id = d.room_id join pms_area a on a.id = r.area_id
        where d.tenant_id = $1 group by 1, 2 order by 1, 2`,
      [DEMO_TENANT_ID],
    );
    assert.ok(expected.length >= 4, "the demo has usage in every building");
    assert.deepEqual(
      rows.map((r) => [r.g0, r.g1, Number(r.m0)]),
      expected.map((e) => [e.building, e.month, Number(e.usage)]),
    );
  });

  test("recharges by method per day match the ledger's own sums in yuan and counts", async () => {
    const rows = await rowsOf(demo, { id: RECHARGES_BY_METHOD });
    const expected = await server.db.query<{ day: string; method: number; amount: string; count: string }>(
      `select to_char((create_time at time zone 'Asia/Shanghai')::date, 'YYYY-MM-DD') as day, payment_method as method,
              (sum(amount) / 100.0)::numeric(20, 2)::text as amount, count(*)::text as count
         from pms_recharge where tenant_id = $1 and state = 1 and recharge_type = 1 group by 1, 2`,
      [DEMO_TENANT_ID],
    );
    assert.ok(expected.length > 10);
    const labels: Record<number, string> = {
      0: "其他",
      1: "现金",
      2: "银联",
      3: "微信",
      4: "支付宝",
      5: "微信在线支付",
    };
    const key = (day?: string | null, method?: string | null) => `${day}|${method}`;
    const want = new Map(expected.map((e) => [key(e.day, labels[e.method]!), [e.amount, e.count]]));
    assert.equal(rows.length, want.size);
    for (const r of rows) assert.deepEqual([r.m0, r.m1], want.get(key(r.g0, r.g1)), key(r.g0, r.g1));
  });

  test("the arrears list holds every open account below zero, with its balance", async () => {
    const rows = await rowsOf(demo, { id: ARREARS });
    const [expected] = await server.db.query<{ n: number; total: string }>(
      `select count(*)::int as n, coalesce((sum(balance) / 100.0)::numeric(20, 2)::text, '0') as total
         from pms_account where tenant_id = $1 and status = 1 and balance < 0`,
      [DEMO_TENANT_ID],
    );
    assert.ok(expected!.n > 0, "the demo has accounts in arrears");
    assert.equal(rows.length, expected!.n);
    const sum = rows.reduce((s, r) => s + Math.round(Number(r.m0) * 100), 0);
    assert.equal(sum, Math.round(Number(expected!.total) * 100));
    assert.ok(rows.every((r) => Number(r.m0) < 0 && r.g0 && r.g2));
  });

  test("a designed definition is saved, run with a date range, and listed for its tenant only", async () => {
    const definition = {
      dataset: "daily_usage",
      groupBy: ["energy_type"],
      measures: [
        { column: "usage", fn: "sum" },
        { column: "usage", fn: "max" },
        { column: "records", fn: "count" },
      ],
      filters: [],
      chart: "pie",
    };
    const saved = await server.call("POST", `${base}/submit`, demo, { name: "水电用量对比", definition });
    assert.equal(saved.statusCode, 200, saved.body);
    const id = saved.json().data.id as string;
    const [span] = await server.db.query<{ last: string }>(
      "select to_char(max(day_date), 'YYYY-MM-DD') as last from pms_data_daily where tenant_id = $1",
      [DEMO_TENANT_ID],
    );
    const rows = await rowsOf(demo, { id, dateFrom: span!.last, dateTo: span!.last });
    const [electric] = await server.db.query<{ usage: string; n: string }>(
      "select sum(usage)::text as usage, count(*)::text as n from pms_data_daily where tenant_id = $1 and day_date = $2",
      [DEMO_TENANT_ID, span!.last],
    );
    const power = rows.find((r) => r.g0 === "电");
    assert.equal(Number(power?.m0), Number(electric!.usage));
    assert.equal(power?.m2, electric!.n);

    // The other tenant sees the shipped definitions, never this one; by id it does not exist.
    const theirs = (await server.call("GET", `${base}/list?size=50`, other.token)).json().data.records;
    assert.ok(!theirs.some((r: { id: string }) => r.id === id));
    assert.ok(theirs.some((r: { id: string }) => r.id === MONTHLY_BY_BUILDING));
    assert.equal((await run(other.token, { id })).status, 404);
    assert.equal((await server.call("POST", `${base}/remove?ids=${id}`, other.token)).statusCode, 400);
    assert.equal(
      (await server.call("POST", `${base}/submit`, other.token, { id, name: "x", definition })).statusCode,
      404,
    );
    // A shipped definition runs on the caller's own data: the new tenant has no usage at all.
    assert.deepEqual(await rowsOf(other.token, { id: MONTHLY_BY_BUILDING }), []);
    assert.deepEqual(await rowsOf(other.token, { id: ARREARS }), []);

    // Shipped definitions cannot be changed or removed; the tenant's own can.
    assert.equal((await server.call("POST", `${base}/remove?ids=${ARREARS}`, demo)).statusCode, 400);
    // All or nothing: with a shipped id beside it, its own definition stays.
    assert.equal((await server.call("POST", `${base}/remove?ids=${id},${ARREARS}`, demo)).statusCode, 400);
    assert.equal((await run(demo, { id })).status, 200);
    const edit = await server.call("POST", `${base}/submit`, demo, { id: ARREARS, name: "x", definition });
    assert.equal(edit.statusCode, 400);
    assert.match(edit.json().msg, /^id:/);
    assert.equal((await server.call("POST", `${base}/remove?ids=${id}`, demo)).statusCode, 200);
    assert.equal((await run(demo, { id })).status, 404);
  });

  test("every dataset runs with each of its group keys, columns and filters", async () => {
    const catalog = (await server.call("GET", `${base}/catalog`, demo)).json().data;
    assert.equal(catalog.datasets.length, 8);
    for (const dataset of catalog.datasets) {
      const measures = dataset.columns.flatMap((c: { key: string }) =>
        catalog.fns.map((fn: string) => ({ column: c.key, fn })),
      );
      for (const group of dataset.groups) {
        const filters = dataset.filters.map((f: { key: string; values: { value: string }[] }) => ({
          key: f.key,
          value: f.values[0]?.value,
        }));
        const { status, body } = await run(demo, {
          definition: { dataset: dataset.key, groupBy: [group.key], measures: measures.slice(0, 6), filters },
        });
        assert.equal(status, 200, `${dataset.key} by ${group.key}: ${body.msg}`);
      }
      const whole = await rowsOf(demo, {
        definition: { dataset: dataset.key, measures: [{ column: "records", fn: "count" }] },
      });
      assert.equal(whole.length, 1);
    }
  });

  test("keys outside the catalogue and SQL in values are refused with 400 naming the field", async () => {
    const good = {
      dataset: "recharges",
      groupBy: ["day"],
      measures: [{ column: "amount", fn: "sum" }],
      chart: "bar",
    };
    const attempts: [unknown, RegExp][] = [
      [{ ...good, dataset: "recharges; drop table sys_user" }, /^definition\.dataset:/],
      [{ ...good, dataset: "constructor" }, /^definition\.dataset:/],
      [
        { ...good, groupBy: ["day", "r.owner_id) union select password from sys_user --"] },
        /^definition\.groupBy\[1\]:/,
      ],
      [{ ...good, groupBy: ["building", "alarm_level"] }, /^definition\.groupBy\[1\]:/],
      [{ ...good, dataset: "daily_usage", groupBy: ["payment_method"] }, /^definition\.groupBy\[0\]:/],
      [
        {
          ...good,
          measures: [{ column: "amount)::text, (select password from sys_user limit 1", fn: "sum" }],
        },
        /^definition\.measures\[0\]\.column:/,
      ],
      [{ ...good, measures: [{ column: "amount", fn: "pg_sleep" }] }, /^definition\.measures\[0\]\.fn:/],
      [
        { ...good, filters: [{ key: "payment_method", value: "1' or '1'='1" }] },
        /^definition\.filters\[0\]\.value:/,
      ],
      [{ ...good, filters: [{ key: "tenant_id", value: "000000" }] }, /^definition\.filters\[0\]\.key:/],
      [{ ...good, dateFrom: "2026-01-01'; --" }, /^definition\.dateFrom:/],
      [{ ...good, chart: "<script>" }, /^definition\.chart:/],
      [{ ...good, measures: [] }, /^definition\.measures:/],
    ];
    for (const [definition, field] of attempts) {
      const { status, body } = await run(demo, { definition });
      assert.equal(status, 400, JSON.stringify(definition));
      assert.match(body.msg, field);
      const saved = await server.call("POST", `${base}/submit`, demo, { name: "坏报表", definition });
      assert.equal(saved.statusCode, 400);
      assert.match(saved.json().msg, field);
    }
    const badDate = await run(demo, { id: RECHARGES_BY_METHOD, dateFrom: "2026-02-30" });
    assert.equal(badDate.status, 400);
    assert.match(badDate.body.msg, /^dateFrom:/);
    const [users] = await server.db.query<{ n: number }>("select count(*)::int as n from sys_user");
    assert.ok(users!.n > 0, "nothing was dropped");
  });

  test("Excel export parses back to the run's figures; PDF is a real PDF with the CJK font", async () => {
    const rows = await rowsOf(demo, { id: MONTHLY_BY_BUILDING });
    const xlsx = await server.call("GET", `${base}/export?id=${MONTHLY_BY_BUILDING}&format=xlsx`, demo);
    assert.equal(xlsx.statusCode, 200, xlsx.body.slice(0, 200));
    assert.match(String(xlsx.headers["content-type"]), /spreadsheetml/);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    const sheetRows: unknown[][] = [];
    book.worksheets[0]!.eachRow((row) => sheetRows.push((row.values as unknown[]).slice(1)));
    assert.deepEqual(sheetRows[0], ["楼栋", "月份", "用量合计"]);
    assert.deepEqual(
      sheetRows.slice(1),
      rows.map((r) => [r.g0, r.g1, Number(r.m0)]),
    );

    const pdf = await server.call("GET", `${base}/export?id=${RECHARGES_BY_METHOD}&format=pdf`, demo);
    assert.equal(pdf.statusCode, 200, pdf.body.slice(0, 200));
    assert.equal(pdf.headers["content-type"], "application/pdf");
    const bytes = pdf.rawPayload;
    assert.equal(bytes.subarray(0, 5).toString("latin1"), "%PDF-");
    const text = bytes.toString("latin1");
    assert.match(text, /%%EOF\s*$/);
    // Rows of the run at 25 or so a page: as many pages as that takes, the CJK face embedded.
    const runRows = (await rowsOf(demo, { id: RECHARGES_BY_METHOD })).length;
    const pages = (text.match(/\/Type \/Page\b/g) ?? []).length;
    assert.ok(pages >= Math.ceil(runRows / 30) && pages >= 2, `${pages} pages for ${runRows} rows`);
    assert.match(text, /NotoSansCJKsc-Regular/);
    assert.match(String(pdf.headers["content-disposition"]), /\.pdf$/);

    const refused = await server.call("GET", `${base}/export?id=${RECHARGES_BY_METHOD}&format=csv`, demo);
    assert.equal(refused.statusCode, 400);
    assert.match(refused.json().msg, /^format:/);
  });
  // Last: it narrows the demo administrator's role for good.
  test("a role's data scope narrows a report to the meters it may see", async () => {
    const [user] = await server.db.query<{ id: string; role_id: string }>(
      "select id::text as id, role_id from sys_user where tenant_id = $1 and account = 'admin'",
      [DEMO_TENANT_ID],
    );
    for (const resource of ["meter", "water"]) {
      const [menu] = await server.db.query<{ id: string }>("select id from sys_menu where code = $1", [
        resource,
      ]);
      const rule = await server.call("POST", "/api/blade-system/data-scope/submit", platform, {
        menuId: menu!.id,
        resourceCode: resource,
        scopeName: "本人表计",
        scopeColumn: "createUser",
        scopeType: 2,
      });
      assert.equal(rule.statusCode, 200, rule.body);
      await server.db.query(
        "insert into sys_role_scope (id, scope_category, scope_id, role_id) values ($1, 1, $2, $3)",
        [`${Date.now()}${resource.length}`, rule.json().data.id, user!.role_id.split(",")[0]],
      );
    }
    // The administrator "wrote" the electric meters of 1号楼 only.
    await server.db.query("update pms_meter set create_user = null where tenant_id = $1", [DEMO_TENANT_ID]);
    await server.db.query("update pms_water set create_user = null where tenant_id = $1", [DEMO_TENANT_ID]);
    await server.db.query(
      `update pms_meter m set create_user = $2 from pms_room_meter rm, pms_room r, pms_area a
        where rm.meter_id = m.id and rm.energy_type = 1 and r.id = rm.room_id and a.id = r.area_id
          and a.area_name = '1号楼' and m.tenant_id = $1`,
      [DEMO_TENANT_ID, user!.id],
    );
    const token = (await server.login("admin", ADMIN_PASSWORD, DEMO_TENANT_ID)).access_token;
    const rows = await rowsOf(token, { id: MONTHLY_BY_BUILDING });
    const expected = await server.db.query<{ month: string; usage: string }>(
      `select to_char(d.day_date, 'YYYY-MM') as month, sum(d.usage)::text as usage
         from pms_data_daily d join pms_room r on r.id = d.room_id join pms_area a on a.id = r.area_id
         join pms_meter m on m.id = d.meter_id
        where d.tenant_id = $1 and m.create_user = $2 group by 1 order by 1`,
      [DEMO_TENANT_ID, user!.id],
    );
    assert.ok(expected.length > 0);
    assert.deepEqual(
      rows.map((r) => [r.g0, r.g1, Number(r.m0)]),
      expected.map((e) => ["1号楼", e.month, Number(e.usage)]),
    );
    // Water meters are all outside the scope: a water report is empty.
    const water = await rowsOf(token, {
      definition: {
        dataset: "daily_usage",
        measures: [{ column: "usage", fn: "sum" }],
        filters: [{ key: "energy_type", value: "2" }],
      },
    });
    assert.deepEqual(water, [{ m0: null }]);
  });
});
