import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { sweepReadings } from "../src/modules/metering/reading-retention.ts";
import { DbReadingsSink } from "../src/modules/metering/readings-sink.db.ts";
import { addUser, provisionTenant } from "./fixtures.ts";
import { startTestServer, type TestServer } from "./helpers.ts";
import { buildSite, get } from "./registry-fixtures.ts";

/** Shanghai wall time as an instant (UTC+8, no daylight saving). */
const local = (text: string) => new Date(`${text}+08:00`);

interface Day {
  dayDate: string;
  startValue: string;
  endValue: string;
  usage: string;
}

interface Read {
  id: string;
  totalValue: string;
  source: string;
  operatorName: string;
  voided: number;
  voidReason: string;
  voidUser: string;
}

describe("manual reads and voids of the reading logs", () => {
  let server: TestServer;
  let admin: string;
  let site: Awaited<ReturnType<typeof buildSite>>;
  let sink: DbReadingsSink;

  const electric = (at: string, total: string) =>
    sink.record({
      meterId: site.meter,
      address: "100000000101",
      at: local(at),
      energy: { total, tariffs: [] },
      missing: [],
    });
  const post = (path: string, body: Record<string, unknown>, token = admin) =>
    server.call("POST", `/api/blade-pms/${path}`, token, body);
  const day = async (path: string, meterId: string, date: string) => {
    const page = await get(server, admin, `${path}?meterId=${meterId}&size=50`);
    const row = (page.records as Day[]).find((r) => r.dayDate === date);
    assert.ok(row, `a ${path} row for ${date}`);
    return [row.startValue, row.endValue, row.usage];
  };
  const reads = async (query = "") =>
    (await get(server, admin, `dataread/page?meterId=${site.meter}&size=50${query}`)).records as Read[];

  before(async () => {
    server = await startTestServer();
    admin = (await server.login()).access_token;
    site = await buildSite(server, admin);
    sink = new DbReadingsSink(server.db, "Asia/Shanghai");
    await electric("2025-03-10T08:00:00", "100.00");
    await electric("2025-03-10T12:00:00", "110.00");
    // The next day's first read closes the 10th and opens the 11th from its end.
    await electric("2025-03-11T08:00:00", "120.00");
  });
  after(() => server.close());

  test("a manual read joins the log, marked, and changes that day's usage and the next day's start", async () => {
    assert.deepEqual(await day("datadailydd/page", site.meter, "2025-03-10"), ["100.00", "110.00", "10.00"]);
    const res = await post("dataread/submit", {
      meterId: site.meter,
      readTime: "2025-03-10 18:00:00",
      totalValue: "115.5",
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(await day("datadailydd/page", site.meter, "2025-03-10"), ["100.00", "115.50", "15.50"]);
    assert.deepEqual(await day("datadailydd/page", site.meter, "2025-03-11"), ["115.50", "120.00", "4.50"]);
    const manual = await reads("&source=manual");
    assert.equal(manual.length, 1);
    assert.deepEqual([manual[0]!.totalValue, manual[0]!.source, manual[0]!.voided], ["115.50", "manual", 0]);
    assert.ok(manual[0]!.operatorName, "the operator is named");
    assert.equal((await reads("&source=gateway")).length, 3, "the gateway's reads say so");
    const other = await get(server, admin, "dataReadOther/page");
    assert.deepEqual(
      other.records.map((r: Read) => [r.totalValue, r.source]),
      [["115.50", "manual"]],
      "dataReadOther lists the reads entered by hand, and only those",
    );
  });

  test("a read lower than the one before (or higher than the one after) is refused; nothing stored", async () => {
    const count = (await reads()).length;
    const cases: [Record<string, unknown>, RegExp][] = [
      [
        { meterId: site.meter, readTime: "2025-03-10 20:00:00", totalValue: "115.00" },
        /^totalValue: .*115\.50/,
      ],
      [{ meterId: site.meter, readTime: "2025-03-10 09:00:00", totalValue: "112" }, /^totalValue: .*110\.00/],
      [{ meterId: site.meter, totalValue: "abc" }, /^totalValue: /],
      [{ meterId: site.meter, totalValue: "-1" }, /^totalValue: /],
      [{ meterId: site.meter }, /^totalValue: /],
      [{ meterId: site.meter, readTime: "2025-02-30 10:00:00", totalValue: "200" }, /^readTime: /],
      [{ meterId: site.meter, readTime: "2999-01-01 10:00:00", totalValue: "200" }, /^readTime: /],
      [{ totalValue: "200" }, /^meterId: /],
    ];
    for (const [body, message] of cases) {
      const res = await post("dataread/submit", body);
      assert.equal(res.statusCode, 400, `${JSON.stringify(body)}: ${res.body}`);
      assert.match(res.json().msg, message, JSON.stringify(body));
    }
    assert.equal((await reads()).length, count, "nothing stored");
    assert.deepEqual(await day("datadailydd/page", site.meter, "2025-03-10"), ["100.00", "115.50", "15.50"]);
  });

  test("a void keeps the read, marked with who and why, and recomputes the day", async () => {
    const [manual] = await reads("&source=manual");
    const noReason = await post(`dataread/remove?ids=${manual!.id}`, {});
    assert.equal(noReason.statusCode, 400);
    assert.match(noReason.json().msg, /^reason: /);
    const res = await post(`dataread/remove?ids=${manual!.id}`, { reason: "抄错了" });
    assert.equal(res.statusCode, 200, res.body);
    const [voided] = await reads("&voided=1");
    assert.deepEqual(
      [voided?.id, voided?.voided, voided?.voidReason, Boolean(voided?.voidUser)],
      [manual!.id, 1, "抄错了", true],
    );
    assert.equal((await reads()).length, 4, "the read stays in the log");
    assert.deepEqual(await day("datadailydd/page", site.meter, "2025-03-10"), ["100.00", "110.00", "10.00"]);
    assert.deepEqual(await day("datadailydd/page", site.meter, "2025-03-11"), ["110.00", "120.00", "10.00"]);
    // The day's first read voided: the day opened from it reopens from the first read left.
    const first = (await reads()).find((r) => r.totalValue === "100.00");
    assert.equal((await post(`dataread/remove?ids=${first!.id}`, { reason: "表计异常" })).statusCode, 200);
    assert.deepEqual(await day("datadailydd/page", site.meter, "2025-03-10"), ["110.00", "110.00", "0.00"]);
  });

  test("water: a manual read opens the day as a gateway read would", async () => {
    const res = await post("waterdataread/submit", {
      meterId: site.water,
      readTime: "2025-03-12 09:00:00",
      totalValue: "7.25",
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(await day("waterdatadaily/page", site.water, "2025-03-12"), ["7.25", "7.25", "0.00"]);
    await post("waterdataread/submit", {
      meterId: site.water,
      readTime: "2025-03-12 17:00",
      totalValue: "9",
    });
    assert.deepEqual(await day("waterdatadaily/page", site.water, "2025-03-12"), ["7.25", "9.00", "1.75"]);
    const lower = await post("waterdataread/submit", { meterId: site.water, totalValue: "8" });
    assert.equal(lower.statusCode, 400);
    assert.match(lower.json().msg, /^totalValue: /);
    // An electric meter id on the water log is no meter of that log.
    assert.equal(
      (await post("waterdataread/submit", { meterId: site.meter, totalValue: "1" })).statusCode,
      404,
    );
  });

  test("another tenant neither enters reads on our meters nor voids ours", async () => {
    const other = await provisionTenant(server, admin, "别家物业");
    const count = (await reads()).length;
    const submit = await post("dataread/submit", { meterId: site.meter, totalValue: "500" }, other.token);
    assert.equal(submit.statusCode, 404, submit.body);
    const [read] = await reads("&voided=0");
    const remove = await post(`dataread/remove?ids=${read!.id}`, { reason: "x" }, other.token);
    assert.equal(remove.statusCode, 404, remove.body);
    assert.equal((await reads("&voided=0"))[0]?.id, read!.id, "not voided");
    assert.equal((await reads()).length, count);
  });

  test("a read voided already is refused, its first void standing", async () => {
    const [voided] = await reads("&voided=1&source=manual");
    const again = await post(`dataread/remove?ids=${voided!.id}`, { reason: "再作废一次" });
    assert.equal(again.statusCode, 400, again.body);
    assert.match(again.json().msg, /^ids: .*已作废/);
    const [still] = await reads("&voided=1&source=manual");
    assert.equal(still?.voidReason, "抄错了");
  });

  test("corrections reach only meters inside the caller's data scope; others read as absent", async () => {
    const menuId = async (code: string) =>
      (await server.db.query<{ id: string }>("select id from sys_menu where code = $1", [code]))[0]!.id;
    const scope = async (name: string, rule: Record<string, unknown>) =>
      (
        await server.call("POST", "/api/blade-system/data-scope/submit", admin, {
          menuId: await menuId("meter"),
          resourceCode: "meter",
          scopeName: name,
          ...rule,
        })
      ).json().data.id as string;
    const signIn = async (account: string, dataScopeIds: string[]) => {
      const role = (
        await server.call("POST", "/api/blade-system/role/submit", admin, {
          roleName: account,
          roleAlias: account,
        })
      ).json().data.id as string;
      const grant = await server.call("POST", "/api/blade-system/role/grant", admin, {
        roleIds: [role],
        menuIds: await Promise.all(["dataRead", "dataRead_add", "dataRead_delete"].map(menuId)),
        dataScopeIds,
      });
      assert.equal(grant.statusCode, 200, grant.body);
      await addUser(server.db, { tenantId: "000000", account, password: "pw-scope", roleIds: [role] });
      return (await server.login(account, "pw-scope")).access_token;
    };
    const ours = await signIn("reader-in", [
      await scope("本表", {
        scopeType: 5,
        scopeValue: JSON.stringify({ field: "productCode", op: "eq", value: "100000000101" }),
      }),
    ]);
    const own = await signIn("reader-own", [
      await scope("本人建的表", { scopeType: 2, scopeColumn: "createUser" }),
    ]);
    const count = (await reads()).length;
    const [read] = await reads("&voided=0");
    const outside = await post(
      "dataread/submit",
      { meterId: site.meter, readTime: "2025-03-11 09:00:00", totalValue: "121" },
      own,
    );
    assert.equal(outside.statusCode, 404, outside.body);
    const voidOutside = await post(`dataread/remove?ids=${read!.id}`, { reason: "越权" }, own);
    assert.equal(voidOutside.statusCode, 404, voidOutside.body);
    assert.equal((await reads()).length, count, "nothing stored");
    assert.equal((await reads("&voided=0"))[0]?.id, read!.id, "nothing voided");
    const inside = await post(
      "dataread/submit",
      { meterId: site.meter, readTime: "2025-03-11 09:00:00", totalValue: "121" },
      ours,
    );
    assert.equal(inside.statusCode, 200, inside.body);
    // Taken back out so that the later cases see the log they expect.
    await server.db.query("delete from pms_data_read where id = $1", [inside.json().data.id]);
  });

  test("datadailydd/submit recomputes a day from its reads; another tenant's day is a 404", async () => {
    const page = await get(server, admin, `datadailydd/page?meterId=${site.meter}&size=50`);
    const tenth = (page.records as (Day & { id: string })[]).find((r) => r.dayDate === "2025-03-10");
    // A stale row, as a crash between writes could leave it: the submit puts it right.
    await server.db.query("update pms_data_daily set end_value = 999, usage = 889 where id = $1", [
      tenth!.id,
    ]);
    const res = await post("datadailydd/submit", { id: tenth!.id });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(await day("datadailydd/page", site.meter, "2025-03-10"), ["110.00", "110.00", "0.00"]);
    const other = await provisionTenant(server, admin, "另一家物业");
    assert.equal((await post("datadailydd/submit", { id: tenth!.id }, other.token)).statusCode, 404);
    assert.equal((await post("datadailydd/submit", {})).statusCode, 400);
  });

  test("the retention sweep takes manual and voided reads to history as they are", async () => {
    // March 2025 is more than the default 400 days before now.
    await sweepReadings(server.db);
    assert.equal((await reads()).length, 0);
    const his = await get(server, admin, "dataReadOtherHis/page");
    assert.deepEqual(
      his.records.map((r: Read) => [r.totalValue, r.source, r.voided, r.voidReason]),
      [["115.50", "manual", 1, "抄错了"]],
    );
  });
});
