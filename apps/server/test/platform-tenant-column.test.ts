import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import ExcelJS from "exceljs";
import { nextId } from "../src/db/ids.ts";
import { provisionTenant } from "./fixtures.ts";
import type { TestServer } from "./helpers.ts";
import { startTestServer } from "./helpers.ts";
import { buildSite, created } from "./registry-fixtures.ts";

const pms = "/api/blade-pms";
/** The registry screens and a reading log, by their list calls. */
const LISTS = [
  "area/list",
  "room/page",
  "owner/page",
  "meter/page",
  "water/page",
  "collector/page",
  "dataread/page",
];
/** The money lists (the owners' recharge counter among them): their own statements, the same tenant column and filter. */
const MONEY_LISTS = ["datarecharge/page", "payment/list", "dataopenaccount/page", "ownerRecharge/page"];

type Row = Record<string, unknown>;

/**
 * The platform administrator reads tenant-scoped lists across tenants: each row names its tenant,
 * and `tenantId` narrows to one. Everyone else stays in their own tenant whatever they send.
 */
describe("the platform administrator's tenant column and filter", () => {
  let server: TestServer;
  let admin: string;
  let a: Awaited<ReturnType<typeof provisionTenant>>;
  let b: Awaited<ReturnType<typeof provisionTenant>>;

  const rowsOf = async (path: string, token: string): Promise<Row[]> => {
    const res = await server.call("GET", `${pms}/${path}`, token);
    assert.equal(res.statusCode, 200, `${path}: ${res.body}`);
    const data = res.json().data;
    // Trees (areas) answer a forest: its nodes are rows too.
    const flat = (rows: Row[]): Row[] => rows.flatMap((r) => [r, ...flat((r.children as Row[]) ?? [])]);
    return Array.isArray(data) ? flat(data) : data.records;
  };
  const withQuery = (path: string, query: string) => `${path}${path.includes("?") ? "&" : "?"}${query}`;

  before(async () => {
    server = await startTestServer();
    admin = (await server.login()).access_token;
    a = await provisionTenant(server, admin, "甲物业");
    b = await provisionTenant(server, admin, "乙物业");
    const siteA = await buildSite(server, a.token, "甲");
    const siteB = await buildSite(server, b.token, "乙");
    for (const [tenant, site] of [
      [a, siteA],
      [b, siteB],
    ] as const) {
      await server.db.query(
        `insert into pms_data_read (id, tenant_id, meter_id, room_id, product_code, read_time, total_value)
         values ($1, $2, $3, $4, 'x', now(), 1)`,
        [nextId(), tenant.tenantId, site.meter, site.room101],
      );
      // An account with its opening and a counter recharge: a row in each money list.
      await openAccountWithRecharge(tenant.token, site);
    }
  });

  const openAccountWithRecharge = async (token: string, site: Awaited<ReturnType<typeof buildSite>>) => {
    const scheme = await created(server, token, "chargingscheme/submit", {
      schemeName: "居民电价",
      energyType: 1,
      priceMode: 1,
      price: "0.5883",
    });
    const meter = (await server.call("GET", `${pms}/meter/detail?id=${site.meter}`, token)).json().data;
    await created(server, token, "meter/submit", {
      id: site.meter,
      productCode: meter.productCode,
      collectorId: site.collector,
      controlStatus: 1,
      chargingSchemeId: scheme,
    });
    const opened = await server.call("POST", `${pms}/message/openAccount`, token, {
      meterIds: site.meter,
      deposit: "10",
    });
    assert.equal(opened.statusCode, 200, opened.body);
    const { accountId } = (opened.json().data as { accountId: string }[])[0]!;
    const recharged = await server.call("POST", `${pms}/datarecharge/submit`, token, {
      accountId,
      amount: "30.50",
      paymentMethod: 3,
      idempotencyKey: `tenant-column-${accountId}`,
    });
    assert.equal(recharged.statusCode, 200, recharged.body);
  };
  after(() => server.close());

  test("sees every tenant's rows with the tenant's name, and narrows to one by tenantId", async () => {
    for (const path of LISTS) {
      const all = await rowsOf(path, admin);
      const names = new Set(all.map((r) => r.tenantName));
      assert.ok(names.has("甲物业") && names.has("乙物业"), `${path}: ${[...names].join(",")}`);
      for (const row of all) assert.equal(typeof row.tenantName, "string", path);

      const onlyA = await rowsOf(withQuery(path, `tenantId=${a.tenantId}`), admin);
      assert.ok(onlyA.length > 0, path);
      assert.ok(
        onlyA.every((r) => r.tenantId === a.tenantId && r.tenantName === "甲物业"),
        path,
      );
      assert.ok(onlyA.length < all.length, path);
    }
  });

  test("the room-meter screen's joined list (one tenant at a time) names and follows the tenant", async () => {
    const rows = await rowsOf(`roommeter/roomMeterPage?tenantId=${b.tenantId}`, admin);
    assert.ok(rows.length > 0);
    assert.deepEqual(new Set(rows.map((r) => r.tenantName)), new Set(["乙物业"]));
    const own = await rowsOf("roommeter/roomMeterPage", a.token);
    const asked = await rowsOf(`roommeter/roomMeterPage?tenantId=${b.tenantId}`, a.token);
    assert.ok(own.length > 0);
    assert.deepEqual(
      asked.map((r) => r.id),
      own.map((r) => r.id),
    );
    assert.ok(asked.every((r) => !("tenantName" in r)));
    const bad = await server.call("GET", `${pms}/roommeter/roomMeterPage?tenantId=a-b`, admin);
    assert.equal(bad.statusCode, 400);
    assert.match(bad.json().msg, /tenantId/);
  });

  test("a detail names the tenant; an export keeps the tenant's code, the key an import reads back", async () => {
    const [meter] = await rowsOf(`meter/page?tenantId=${b.tenantId}`, admin);
    const detail = await server.call("GET", `${pms}/meter/detail?id=${String(meter!.id)}`, admin);
    assert.equal(detail.json().data.tenantName, "乙物业");

    const res = await server.call("GET", `${pms}/meter/export?tenantId=${b.tenantId}`, admin);
    assert.equal(res.statusCode, 200, res.body);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0]!;
    const header = (sheet.getRow(1).values as ExcelJS.CellValue[]).slice(1);
    const column = header.indexOf("租户编号");
    assert.ok(column >= 0, header.join(","));
    const cells: ExcelJS.CellValue[] = [];
    sheet.eachRow((row, n) => {
      if (n > 1) cells.push((row.values as ExcelJS.CellValue[]).slice(1)[column]);
    });
    assert.ok(cells.length > 0);
    assert.deepEqual(new Set(cells), new Set([b.tenantId]));
  });

  test("the tenant names cost no statement per tenant", async () => {
    const counted = async (path: string) => {
      const query = server.db.query.bind(server.db);
      let queries = 0;
      server.db.query = ((...args: Parameters<typeof query>) => {
        queries++;
        return query(...args);
      }) as typeof server.db.query;
      try {
        assert.ok((await rowsOf(path, admin)).length > 0);
      } finally {
        server.db.query = query;
      }
      return queries;
    };
    // The fewer of two tries: a timer's statement (the API log's flush) may fall inside one.
    const fewest = async (path: string) => Math.min(await counted(path), await counted(path));
    // Rows of several tenants take as many statements as the rows of one.
    assert.equal(await fewest("meter/page"), await fewest(`meter/page?tenantId=${a.tenantId}`));
  });

  test("a malformed tenantId is refused naming the field, for anyone", async () => {
    for (const token of [admin, a.token]) {
      for (const bad of ["x'or'1'='1", "1234567890123", "%00", "甲"]) {
        const res = await server.call("GET", `${pms}/meter/page?tenantId=${encodeURIComponent(bad)}`, token);
        assert.equal(res.statusCode, 400, `${bad}: ${res.body}`);
        assert.match(res.json().msg, /tenantId/);
      }
    }
  });

  test("a tenant's own tenantId neither widens nor moves its view, and names no tenant", async () => {
    for (const path of LISTS) {
      const own = await rowsOf(path, a.token);
      assert.ok(own.length > 0, path);
      for (const asked of [b.tenantId, "000000", a.tenantId]) {
        const rows = await rowsOf(withQuery(path, `tenantId=${asked}`), a.token);
        assert.deepEqual(
          rows.map((r) => r.id),
          own.map((r) => r.id),
          `${path} tenantId=${asked}`,
        );
        assert.ok(
          rows.every((r) => r.tenantId === a.tenantId && !("tenantName" in r)),
          path,
        );
      }
    }
    const res = await server.call("GET", `${pms}/meter/export?tenantId=${b.tenantId}`, a.token);
    assert.equal(res.statusCode, 200, res.body);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0]!;
    const header = (sheet.getRow(1).values as ExcelJS.CellValue[]).slice(1);
    assert.ok(!header.includes("租户"), header.join(","));
    const column = header.indexOf("租户编号");
    const cells: ExcelJS.CellValue[] = [];
    sheet.eachRow((row, n) => {
      if (n > 1) cells.push((row.values as ExcelJS.CellValue[]).slice(1)[column]);
    });
    assert.ok(cells.length > 0);
    assert.deepEqual(new Set(cells), new Set([a.tenantId]));
  });
  test("the money lists name each row's tenant across tenants and narrow to one by tenantId", async () => {
    for (const path of MONEY_LISTS) {
      const all = await rowsOf(path, admin);
      const names = new Set(all.map((r) => r.tenantName));
      assert.ok(names.has("甲物业") && names.has("乙物业"), `${path}: ${[...names].join(",")}`);
      const onlyB = await rowsOf(withQuery(path, `tenantId=${b.tenantId}`), admin);
      assert.ok(onlyB.length > 0, path);
      assert.ok(
        onlyB.every((r) => r.tenantId === b.tenantId && r.tenantName === "乙物业"),
        path,
      );
      assert.ok(onlyB.length < all.length, path);

      // A tenant's user asking for another tenant still reads exactly its own rows.
      const own = await rowsOf(path, a.token);
      assert.ok(own.length > 0, path);
      const asked = await rowsOf(withQuery(path, `tenantId=${b.tenantId}`), a.token);
      assert.deepEqual(
        asked.map((r) => r.id),
        own.map((r) => r.id),
        path,
      );
      assert.ok(
        asked.every((r) => r.tenantId === a.tenantId),
        path,
      );

      for (const token of [admin, a.token]) {
        const bad = await server.call("GET", `${pms}/${withQuery(path, "tenantId=x'or'1")}`, token);
        assert.equal(bad.statusCode, 400, `${path}: ${bad.body}`);
        assert.match(bad.json().msg, /tenantId/);
      }
    }
  });

  test("the area tree beside the tables follows the tenant filter", async () => {
    const names = async (query: string, token: string) =>
      (await rowsOf(`area/tree${query}`, token)).map((n) => String(n.title ?? n.areaName)).sort();
    const all = await names("", admin);
    assert.ok(all.includes("甲阳光园区") && all.includes("乙阳光园区"), all.join(","));
    const onlyB = await names(`?tenantId=${b.tenantId}`, admin);
    assert.ok(onlyB.includes("乙阳光园区") && !onlyB.includes("甲阳光园区"), onlyB.join(","));
    // The tenant's own user sees its own tree whatever it names.
    assert.deepEqual(await names(`?tenantId=${b.tenantId}`, a.token), await names("", a.token));
    assert.ok(!(await names("", a.token)).includes("乙阳光园区"));
    const bad = await server.call("GET", `${pms}/area/tree?tenantId=%00`, admin);
    assert.equal(bad.statusCode, 400);
    assert.match(bad.json().msg, /tenantId/);
  });

  test("the counter's owner of another tenant is recharged and charted in that tenant, named by tenantId", async () => {
    const [owner] = await rowsOf(`ownerRecharge/page?tenantId=${b.tenantId}&keyword=13800000001`, admin);
    const account = (owner!.accounts as Row[])[0]!;
    const balanceOf = async () =>
      ((await rowsOf(`ownerRecharge/page?tenantId=${b.tenantId}`, b.token))[0]!.accounts as Row[])[0]!
        .balance;
    const before = await balanceOf();
    // Without the row's tenant the platform administrator's own tenant is meant: no such account there.
    const astray = await server.call("POST", `${pms}/datarecharge/submit`, admin, {
      accountId: String(account.id),
      amount: "12.34",
      idempotencyKey: `counter-astray-${String(account.id)}`,
    });
    assert.notEqual(astray.statusCode, 200, astray.body);
    assert.equal(await balanceOf(), before);
    const booked = await server.call("POST", `${pms}/datarecharge/submit`, admin, {
      accountId: String(account.id),
      amount: "12.34",
      tenantId: b.tenantId,
      idempotencyKey: `counter-cross-${String(account.id)}`,
    });
    assert.equal(booked.statusCode, 200, booked.body);
    assert.equal(Number(await balanceOf()) * 100 - Number(before) * 100, 1234);
    const path = await server.call(
      "GET",
      `/api/blade-pms/homepage/getOwnerRechargePath?ownerId=${String(owner!.id)}&days=7&tenantId=${b.tenantId}`,
      admin,
    );
    assert.equal(path.statusCode, 200, path.body);
    // The opening's counter recharge (30.50) and this one, on the owner's day in tenant 乙.
    assert.equal(path.json().data.at(-1).recharge, "42.84", path.body);
  });
});
