import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { MeterOverview, OwnerOverview, RoomOverview } from "@meterline/contracts";
import { provisionTenant } from "./fixtures.ts";
import { startTestServer, type TestServer } from "./helpers.ts";
import { buildSite, created } from "./registry-fixtures.ts";

const pms = "/api/blade-pms";

describe("detail pages: one answer per room, owner and meter", () => {
  let server: TestServer;
  let tenant: Awaited<ReturnType<typeof provisionTenant>>;
  let other: Awaited<ReturnType<typeof provisionTenant>>;
  let site: Awaited<ReturnType<typeof buildSite>>;

  const get = (path: string, token = tenant.token) => server.call("GET", `${pms}/${path}`, token);
  /** The answer of a call and how many SQL statements it took. */
  async function counted<T>(path: string): Promise<{ data: T; queries: number }> {
    const query = server.db.query.bind(server.db);
    let queries = 0;
    server.db.query = ((...args: Parameters<typeof query>) => {
      queries++;
      return query(...args);
    }) as typeof server.db.query;
    try {
      const res = await get(path);
      assert.equal(res.statusCode, 200, `${path}: ${res.body}`);
      return { data: res.json().data as T, queries };
    } finally {
      server.db.query = query;
    }
  }

  before(async () => {
    server = await startTestServer();
    const platform = (await server.login()).access_token;
    tenant = await provisionTenant(server, platform, "详情物业");
    other = await provisionTenant(server, platform, "隔壁物业");
    site = await buildSite(server, tenant.token);
    const t = tenant.tenantId;
    // A remote-controlled meter: the server keeps its balance, so an account opens without a read.
    const scheme = await created(server, tenant.token, "chargingscheme/submit", {
      schemeName: "居民电价",
      energyType: 1,
      priceMode: 1,
      price: "0.5883",
    });
    await created(server, tenant.token, "meter/submit", {
      id: site.meter,
      productCode: "100000000101",
      collectorId: site.collector,
      controlStatus: 1,
      chargingSchemeId: scheme,
    });
    await server.db.query(
      `insert into pms_meter_current_data (id, tenant_id, energy_type, meter_id, product_code, read_time, total_value, balance, switch_status)
       values (9101, $1, 1, $2, '100000000101', now(), 123.45, 67.80, 1)`,
      [t, site.meter],
    );
    await server.db.query(
      `insert into pms_data_read (id, tenant_id, meter_id, room_id, product_code, read_time, total_value, balance, switch_status)
       values (9201, $1, $2, $3, '100000000101', now() - interval '1 hour', 120.00, 70.00, 1),
              (9202, $1, $2, $3, '100000000101', now(), 123.45, 67.80, 1)`,
      [t, site.meter, site.room101],
    );
    await server.db.query(
      `insert into pms_data_daily (id, tenant_id, meter_id, room_id, product_code, day_date, start_value, end_value, usage)
       values (9301, $1, $2, $3, '100000000101', (now() at time zone 'Asia/Shanghai')::date, 120.00, 123.45, 3.45),
              (9302, $1, $2, $3, '100000000101', (now() at time zone 'Asia/Shanghai')::date - 1, 118.00, 120.00, 2.00)`,
      [t, site.meter, site.room101],
    );
    const open = await server.call("POST", `${pms}/message/openAccount`, tenant.token, {
      meterId: site.meter,
      deposit: "30",
    });
    assert.equal(open.statusCode, 200, open.body);
    const switched = await server.call("POST", `${pms}/message/switchBatch`, tenant.token, {
      meterIds: [site.meter],
      switchType: 2,
    });
    assert.equal(switched.statusCode, 200, switched.body);
  });
  after(() => server.close());

  test("a room: its path, owner, meters with live reading and account, readings, commands, usage", async () => {
    const { data, queries } = await counted<RoomOverview>(`room/overview?id=${site.room101}`);
    assert.equal(data.room.roomName, "101");
    assert.equal(data.room.areaPath, "阳光园区 / 1号楼");
    assert.deepEqual(
      data.owners.map((o) => [o.ownerName, o.phone]),
      [["张三", "13800000001"]],
    );
    assert.deepEqual(
      data.meters.map((m) => [m.energyType, m.productCode]),
      [
        [1, "100000000101"],
        [2, "10000000000101"],
      ],
    );
    const electric = data.meters[0]!;
    assert.equal(electric.reading?.totalValue, "123.45");
    assert.equal(electric.collectorName, "1号楼 DTU");
    assert.equal(electric.account?.balance, "30.00");
    assert.equal(electric.account?.ownerName, "张三");
    assert.equal(electric.account?.alarmLevel, 0);
    assert.equal(data.meters[1]!.reading, null, "the water meter was never read");
    assert.deepEqual(
      data.readings.map((r) => r.totalValue),
      ["123.45", "120.00"],
    );
    assert.ok(data.commands.some((c) => c.productCode === "100000000101" && c.commandType !== ""));
    assert.equal(data.usage.days.length, 30);
    assert.equal(data.usage.days.at(-1)?.electric, "3.45");
    assert.equal(data.usage.days.at(-2)?.electric, "2.00");
    assert.equal(data.usage.months.length, 12);
    // Today and yesterday may fall in two months; the months hold the 5.45 between them.
    const months = data.usage.months.map((m) => Number(m.electric)).reduce((a, b) => a + b, 0);
    assert.equal(months.toFixed(2), "5.45");
    assert.ok(queries <= 12, `a room took ${queries} queries`);
  });

  test("an owner: identity, rooms with their path, accounts with balances, recharges, usage", async () => {
    const booked = await server.call("POST", `${pms}/datarecharge/submit`, tenant.token, {
      meterId: site.meter,
      amount: "20",
      paymentMethod: 1,
      idempotencyKey: "detail-0001-aaaa",
    });
    assert.equal(booked.statusCode, 200, booked.body);
    const { data, queries } = await counted<OwnerOverview>(`owner/overview?id=${site.owner}`);
    assert.equal(data.owner.ownerName, "张三");
    assert.equal(data.owner.balance, "50.00");
    assert.deepEqual(
      data.rooms.map((r) => [r.roomName, r.areaPath]),
      [["101", "阳光园区 / 1号楼"]],
    );
    assert.equal(data.meters.length, 2);
    assert.equal(data.meters.find((m) => m.energyType === 1)?.account?.balance, "50.00");
    assert.deepEqual(
      data.recharges.map((r) => [r.amount, r.productCode]),
      [["20.00", "100000000101"]],
    );
    assert.equal(data.usage.days.at(-1)?.electric, "3.45");
    assert.ok(queries <= 12, `an owner took ${queries} queries`);
  });

  test("a meter: configuration with names, room and owner, live reading, account, readings, commands", async () => {
    const { data, queries } = await counted<MeterOverview>(`meter/overview?id=${site.meter}`);
    assert.equal(data.meter.productCode, "100000000101");
    assert.equal(data.meter.protocol, "dlt645_2007");
    assert.equal(data.meter.channel, 1);
    assert.equal(data.meter.controlStatus, 1);
    assert.equal(data.meter.chargingSchemeName, "居民电价");
    assert.equal(data.meter.roomName, "101");
    assert.equal(data.meter.areaPath, "阳光园区 / 1号楼");
    assert.equal(data.meter.reading?.balance, "67.80");
    assert.deepEqual(
      data.owners.map((o) => o.ownerName),
      ["张三"],
    );
    assert.equal(data.readings.length, 2);
    assert.ok(data.commands.length >= 1);
    assert.ok(queries <= 12, `a meter took ${queries} queries`);

    const water = await counted<MeterOverview>(`water/overview?id=${site.water}`);
    assert.equal(water.data.meter.energyType, 2);
    assert.equal(water.data.meter.productCode, "10000000000101");
    assert.equal(water.data.meter.account, null);
    assert.deepEqual(water.data.readings, []);
    // An electric id is no water meter.
    assert.equal((await get(`water/overview?id=${site.meter}`)).statusCode, 404);
  });

  test("the queries of a page do not grow with its meters", async () => {
    // The fewest of three calls: the count wraps the whole database handle, so a background pass
    // (the API log's flush, a cache refilling after a change announcement) may land in one call.
    // A page whose queries grew with its meters would show it in every call.
    const steady = async () => {
      const calls = [];
      for (let i = 0; i < 3; i++) calls.push(await counted<RoomOverview>(`room/overview?id=${site.room101}`));
      return { data: calls[0]!.data, queries: Math.min(...calls.map((call) => call.queries)) };
    };
    const before = (await steady()).queries;
    for (const code of ["100000000102", "100000000103", "100000000104"]) {
      const meter = await created(server, tenant.token, "meter/save", {
        productCode: code,
        collectorId: site.collector,
      });
      await created(server, tenant.token, "roommeter/submit", {
        roomId: site.room101,
        energyType: 1,
        meterId: meter,
      });
    }
    const { data, queries } = await steady();
    assert.equal(data.meters.length, 5);
    assert.equal(queries, before);
  });

  test("another tenant's ids are not found; a bad or missing id is a 400 naming it", async () => {
    for (const path of [
      `room/overview?id=${site.room101}`,
      `owner/overview?id=${site.owner}`,
      `meter/overview?id=${site.meter}`,
      `water/overview?id=${site.water}`,
    ]) {
      const res = await get(path, other.token);
      assert.equal(res.statusCode, 404, `${path}: ${res.body}`);
      assert.doesNotMatch(res.body, /张三|100000000101/);
    }
    const missing = await get("room/overview");
    assert.equal(missing.statusCode, 400);
    assert.match(missing.json().msg, /id/);
    const bad = await get("owner/overview?id=abc");
    assert.equal(bad.statusCode, 400);
    assert.match(bad.json().msg, /id/);
  });

  test("without the screen's permission the overview is refused", async () => {
    const res = await server.call("GET", `${pms}/room/overview?id=${site.room101}`, "not-a-token");
    assert.equal(res.statusCode, 401);
  });

  test("each page lists the alarms still open on its meters, and no other tenant's or restored one", async () => {
    const record = (id: number, tenantId: string, rule: string, status: number) =>
      server.db.query(
        `insert into pms_check_record (id, tenant_id, energy_type, meter_id, product_code, rule_code, check_rule_name,
                                       alarm_status, content, create_time, last_check_time)
         values ($1, $2, 1, $3, '100000000101', $4, $4, $5, '表计自报', now(), now())`,
        [id, tenantId, site.meter, rule, status],
      );
    await record(9401, tenant.tenantId, "battery_low", 1);
    await record(9402, tenant.tenantId, "reverse_energy", 2);
    await record(9403, other.tenantId, "cover_open", 1);
    for (const path of [
      `meter/overview?id=${site.meter}`,
      `room/overview?id=${site.room101}`,
      `owner/overview?id=${site.owner}`,
    ]) {
      const { data } = await counted<{ alarms: { id: string; ruleCode: string; productCode: string }[] }>(
        path,
      );
      assert.deepEqual(
        data.alarms.map((a) => [a.id, a.ruleCode, a.productCode]),
        [["9401", "battery_low", "100000000101"]],
        path,
      );
    }
    const { data } = await counted<RoomOverview>(`room/overview?id=${site.room102}`);
    assert.deepEqual(data.alarms, []);
  });
});
