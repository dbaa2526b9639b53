import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { MeterReading } from "@meterline/gateway";
import { sweepReadings } from "../src/modules/metering/reading-retention.ts";
import { DbReadingsSink } from "../src/modules/metering/readings-sink.db.ts";
import { localDay } from "../src/modules/metering/usage-periods.ts";
import { addRole, addUser, provisionTenant } from "./fixtures.ts";
import { startTestServer, type TestServer } from "./helpers.ts";
import { type PlanNode, planOf, recordInPlace } from "./plan-tenant.ts";
import { buildSite, get } from "./registry-fixtures.ts";

/** The area filter's room scans (alias r) inside a sub-plan run once per row of the outer scan. */
function roomScansPerRow(node: PlanNode, inSubPlan = false): string[] {
  const perRow = inSubPlan || String(node["Subplan Name"] ?? "").startsWith("SubPlan");
  const here =
    perRow && node["Relation Name"] === "pms_room" && /^r(_\d+)?$/.test(node.Alias ?? "")
      ? [node.Alias!]
      : [];
  return [...here, ...(node.Plans ?? []).flatMap((child) => roomScansPerRow(child, perRow))];
}

/** Shanghai wall time as an instant (UTC+8, no daylight saving). */
const local = (text: string) => new Date(`${text}+08:00`);

interface DailyRow {
  dayDate: string;
  startValue: string;
  endValue: string;
  usage: string;
  tipUsage?: string;
  peakUsage?: string;
  startSource: string;
  closed: number;
  roomId: string;
  roomName: string;
}

describe("reading log and daily usage, from the gateway's reads", () => {
  let server: TestServer;
  let admin: string;
  let site: Awaited<ReturnType<typeof buildSite>>;
  let sink: DbReadingsSink;

  const electric = (at: string, total: string, bands: string[], extra: Partial<MeterReading> = {}) =>
    sink.record({
      meterId: site.meter,
      address: "100000000101",
      at: local(at),
      energy: { total, tariffs: bands },
      balance: "88.5",
      relay: "closed",
      missing: [],
      ...extra,
    });
  const water = (at: string, volume: string) =>
    sink.record({
      meterId: site.water,
      address: "10000000000101",
      at: local(at),
      volume,
      valve: "open",
      missing: [],
    });
  const days = async (path: string, query = "") =>
    ((await get(server, admin, `${path}?size=50${query}`)) as { records: DailyRow[] }).records;
  const day = async (path: string, date: string) => {
    const row = (await days(path, `&meterId=${path.startsWith("water") ? site.water : site.meter}`)).find(
      (r) => r.dayDate === date,
    );
    assert.ok(row, `a ${path} row for ${date}`);
    return row;
  };

  before(async () => {
    server = await startTestServer();
    admin = (await server.login()).access_token;
    site = await buildSite(server, admin);
    sink = new DbReadingsSink(server.db, "Asia/Shanghai");
  });
  after(() => server.close());

  test("local days follow the tenant's zone, not UTC", () => {
    assert.equal(localDay(new Date("2025-03-01T16:30:00Z"), "Asia/Shanghai"), "2025-03-02");
    assert.equal(localDay(new Date("2025-03-01T16:30:00Z"), "UTC"), "2025-03-01");
  });

  test("electric: reads open and move the day, the meter's freeze closes yesterday and opens today", async () => {
    await electric("2025-03-01T08:00:00", "100.00", ["10.00", "20.00", "30.00", "40.00"]);
    await electric("2025-03-01T20:00:00", "105.50", ["11.00", "22.00", "31.50", "41.00"]);
    let first = await day("datadailydd/page", "2025-03-01");
    assert.deepEqual(
      [first.startValue, first.endValue, first.usage, first.startSource, first.closed],
      ["100.00", "105.50", "5.50", "reading", 0],
    );
    assert.equal(first.roomName, "1号楼 101", "the row names the room the meter is installed in");

    // Just after midnight: the freeze (registers at 00:00) and the current registers.
    await electric("2025-03-02T00:30:00", "106.20", ["11.00", "22.00", "32.20", "41.00"], {
      dailyFrozen: {
        time: "2025-03-02 00:00",
        energy: { total: "106.00", tariffs: ["11.00", "22.00", "32.00", "41.00"] },
      },
    });
    first = await day("datadailydd/page", "2025-03-01");
    assert.deepEqual(
      [first.endValue, first.usage, first.closed],
      ["106.00", "6.00", 1],
      "closed at the freeze",
    );
    assert.deepEqual(
      [first.tipUsage, first.peakUsage],
      ["1.00", "2.00"],
      "band usage is end − start per band",
    );
    const second = await day("datadailydd/page", "2025-03-02");
    assert.deepEqual(
      [second.startValue, second.endValue, second.usage, second.startSource, second.closed],
      ["106.00", "106.20", "0.20", "frozen", 0],
    );

    // A late reply from before the last read does not move the day back; a closed day stays closed.
    await electric("2025-03-02T00:10:00", "106.05", ["11.00", "22.00", "32.05", "41.00"]);
    assert.equal((await day("datadailydd/page", "2025-03-02")).endValue, "106.20");
    await electric("2025-03-02T23:59:00", "108.00", ["11.00", "22.00", "34.00", "41.00"]);
    // Without a freeze the next day continues from the last read, so no usage falls between days.
    await electric("2025-03-03T00:01:00", "108.10", ["11.00", "22.00", "34.10", "41.00"]);
    const third = await day("datadailydd/page", "2025-03-03");
    assert.deepEqual([third.startValue, third.usage, third.startSource], ["108.00", "0.10", "reading"]);
    assert.equal(
      (await day("datadailydd/page", "2025-03-02")).closed,
      1,
      "a later day closes the one before",
    );

    const reads = await get(server, admin, `dataread/page?meterId=${site.meter}&size=50`);
    assert.equal(reads.total, 6, "every read is in the log, also the late one");
    assert.equal(reads.records[0].totalValue, "108.10", "newest first");
    assert.equal(reads.records[0].balance, "88.50");
  });

  test("water: the first read of a day continues from yesterday's last one", async () => {
    await water("2025-03-01T07:00:00", "10.000");
    await water("2025-03-01T19:00:00", "12.5");
    await water("2025-03-02T07:00:00", "13.00");
    const first = await day("waterdatadaily/page", "2025-03-01");
    assert.deepEqual(
      [first.startValue, first.endValue, first.usage, first.closed],
      ["10.00", "12.50", "2.50", 1],
    );
    const second = await day("waterdatadaily/pageNew", "2025-03-02");
    assert.deepEqual([second.startValue, second.endValue, second.usage], ["12.50", "13.00", "0.50"]);
    const reads = await get(server, admin, `waterdataread/pageNew?meterId=${site.water}`);
    assert.equal(reads.total, 3);
  });

  test("areaId narrows readings and usage to the rooms of the area and below", async () => {
    assert.ok((await days("datadailydd/page", `&areaId=${site.park}`)).length >= 3);
    assert.ok((await days("datadailydd/page", `&areaId=${site.building1}`)).length >= 3);
    assert.equal((await days("datadailydd/page", `&areaId=${site.building2}`)).length, 0);
    assert.equal((await get(server, admin, `waterdataread/page?areaId=${site.building2}`)).total, 0);
    assert.equal((await get(server, admin, `dataread/page?areaId=${site.building1}`)).total, 6);
  });

  test("an area's readings and usage are found by joining its rooms, not by a look for every row", async () => {
    // A sub-select run again for each row of the reading log or the daily usage took seconds on
    // the demo site's 60 days: every plan of these pages must join the rooms instead.
    const recorder = recordInPlace(server.db);
    try {
      await recorder.during(async () => {
        for (const page of ["datadailydd", "waterdatadaily", "dataread", "waterdataread"])
          await get(server, admin, `${page}/page?areaId=${site.building1}`);
      });
    } finally {
      recorder.stop();
    }
    const filtered = [...recorder.statements].filter(
      ([sql]) => /pms_(water_)?data_(daily|read)/.test(sql) && sql.includes("pms_room r"),
    );
    assert.ok(filtered.length >= 4, `${filtered.length} statements of the pages filtered by area`);
    for (const [sql, params] of filtered) {
      // The rooms' labels are looked up per row shown (ten); the area's rooms must not be.
      assert.deepEqual(roomScansPerRow(await planOf(server.db, sql, params)), [], sql);
    }
  });

  test("the trend sums usage per day, zero-filled, by area or meter", async () => {
    const trend = async (query: string) =>
      (await get(server, admin, `datadailydd/trend?from=2025-03-01&to=2025-03-04${query}`)) as {
        day: string;
        usage: string;
        meters: number;
      }[];
    assert.deepEqual(await trend(""), [
      { day: "2025-03-01", usage: "6.00", meters: 1 },
      { day: "2025-03-02", usage: "2.00", meters: 1 },
      { day: "2025-03-03", usage: "0.10", meters: 1 },
      { day: "2025-03-04", usage: "0.00", meters: 0 },
    ]);
    assert.deepEqual(
      (await trend(`&areaId=${site.building2}`)).map((d) => d.usage),
      ["0.00", "0.00", "0.00", "0.00"],
    );
    assert.equal((await trend(`&meterId=${site.meter}`))[0]?.usage, "6.00");
    // The table's own search beside the chart: one room, meter numbers containing a text (literally).
    assert.equal((await trend(`&roomId=${site.room101}`))[0]?.usage, "6.00");
    assert.equal((await trend(`&roomId=${site.room102}`))[0]?.usage, "0.00");
    assert.equal((await trend("&productCode=00101"))[0]?.usage, "6.00");
    assert.equal((await trend("&productCode=00102"))[0]?.usage, "0.00");
    assert.equal((await trend("&productCode=%25"))[0]?.usage, "0.00");
    const water = await get(server, admin, "waterdatadaily/trend?from=2025-03-01&to=2025-03-02");
    assert.deepEqual(
      water.map((d: { usage: string }) => d.usage),
      ["2.50", "0.50"],
    );
    const badDay = await server.call("GET", "/api/blade-pms/datadailydd/trend?from=2025-3-1", admin);
    assert.equal(badDay.statusCode, 400);
    assert.match(badDay.json().msg, /^from: /);
    // A day the calendar does not have is refused as well, not passed to the database.
    const noSuchDay = await server.call("GET", "/api/blade-pms/datadailydd/trend?to=2025-02-30", admin);
    assert.equal(noSuchDay.statusCode, 400, noSuchDay.body);
    assert.match(noSuchDay.json().msg, /^to: /);
    const days = await get(server, admin, "datadailydd/trend?days=7&to=2025-03-04");
    assert.deepEqual(
      days.map((d: { day: string }) => d.day),
      ["2025-02-26", "2025-02-27", "2025-02-28", "2025-03-01", "2025-03-02", "2025-03-03", "2025-03-04"],
    );
    assert.equal(
      (await server.call("GET", "/api/blade-pms/datadailydd/trend?days=0", admin)).statusCode,
      400,
    );
    const tooLong = await server.call(
      "GET",
      "/api/blade-pms/datadailydd/trend?from=2024-01-01&to=2025-03-01",
      admin,
    );
    assert.equal(tooLong.statusCode, 400);
    const lastMonth = await get(server, admin, "datadailydd/trend");
    assert.equal(lastMonth.length, 30, "the last 30 days by default");
  });

  test("daily usage is read-only to the console", async () => {
    // The spec lists datadailydd/remove: it is refused, saying how a day's usage is corrected.
    const remove = await server.call("POST", "/api/blade-pms/datadailydd/remove?ids=1", admin, {});
    assert.equal(remove.statusCode, 400);
    assert.match(remove.json().msg, /^日用量由抄读记录算出,不能删除/);
    // Water daily usage is a list only (spec §7: page, pageNew).
    for (const path of ["waterdatadaily/submit", "waterdatadaily/remove?ids=1"]) {
      const res = await server.call("POST", `/api/blade-pms/${path}`, admin, {});
      assert.equal(res.statusCode, 404, path);
    }
  });

  test("the retention sweep moves old months of reads to history, where the history screens find them", async () => {
    const before = (await get(server, admin, "dataread/page")).total as number;
    await server.db.query(
      `insert into pms_data_read (id, tenant_id, meter_id, room_id, product_code, read_time, total_value, balance)
       values (1, '000000', $1, $2, '100000000101', now() - interval '75 days', 1.5, 9),
              (2, '000000', $1, $2, '100000000101', now() - interval '20 days', 1, 9)`,
      [site.meter, site.room101],
    );
    await server.db.query(
      "update sys_param set param_value = '30' where param_key = 'reading.retentionDays'",
    );
    // 30 is below the 31-day floor: the 20-day-old row stays; the 75-day-old one moves with its
    // month (wholly past the floor), and so do the electric and the three water reads of March 2025.
    const moved = await sweepReadings(server.db);
    assert.equal(moved, before + 1 + 3);
    const left = await get(server, admin, "dataread/page");
    assert.deepEqual(
      left.records.map((r: { id: string }) => r.id),
      ["2"],
    );
    assert.ok((await days("datadailydd/page")).length >= 3, "daily usage is not swept");

    // Every moved row is in history once, unchanged, with the live log's filters.
    const history = await get(server, admin, `datareadhistory/page?meterId=${site.meter}&size=50`);
    assert.equal(history.total, before + 1, "nothing lost, nothing doubled");
    const march = await get(
      server,
      admin,
      `datareadhistory/page?meterId=${site.meter}&readTime_ge=2025-03-02 00:00:00&readTime_lt=2025-03-03 00:00:00&size=50`,
    );
    assert.deepEqual(
      march.records.map((r: { totalValue: string }) => r.totalValue),
      ["108.00", "106.20", "106.05"],
      "2 March's reads (tenant's local day), newest first",
    );
    const old = (await get(server, admin, "datareadhistory/detail?id=1")) as Record<string, string>;
    assert.deepEqual([old.totalValue, old.balance, old.roomName], ["1.50", "9.00", "1号楼 101"]);
    assert.equal((await get(server, admin, `datareadhistory/page?areaId=${site.building2}`)).total, 0);
    const water = await get(server, admin, `waterdatareadhistory/page?meterId=${site.water}`);
    assert.equal(water.total, 3);
    assert.equal(water.records[0].totalValue, "13.00");
    const sheet = await server.call(
      "GET",
      `/api/blade-pms/datareadhistory/export?meterId=${site.meter}`,
      admin,
    );
    assert.equal(sheet.statusCode, 200, sheet.body);
    assert.match(String(sheet.headers["content-type"]), /spreadsheetml/);

    // A second sweep finds nothing more to move.
    assert.equal(await sweepReadings(server.db), 0);

    // Another tenant sees none of it, and not by id either.
    const other = await provisionTenant(server, admin, "别家物业");
    assert.equal((await get(server, other.token, "datareadhistory/page")).total, 0);
    const foreign = await server.call("GET", "/api/blade-pms/datareadhistory/detail?id=1", other.token);
    assert.equal(foreign.statusCode, 404, foreign.body);
  });

  test("the home page overview: device status, usage per period, the day's rank", async () => {
    const status = await get(server, admin, "homepage/deviceStatusData");
    assert.deepEqual(status, {
      // Both meters answered the reads above: online, supply on, accounts not opened yet, no alarms.
      electric: { total: 1, online: 1, offline: 0, supplyOff: 0, opened: 0, arrears: 0, alarming: 0 },
      water: { total: 1, online: 1, offline: 0, supplyOff: 0, opened: 0, arrears: 0, alarming: 0 },
      // No DTU has registered with a gateway in this test.
      collector: { total: 1, online: 0, offline: 1 },
    });

    // Two reads in the last hour: today's usage is their difference.
    for (const [minutesAgo, total] of [
      [60, "200.00"],
      [1, "201.25"],
    ] as const) {
      await sink.record({
        meterId: site.meter,
        address: "100000000101",
        at: new Date(Date.now() - minutesAgo * 60_000),
        energy: { total, tariffs: [] },
        missing: [],
      });
    }
    const week = (await get(server, admin, "homepage/getChart?dateType=1&energyType=1")) as {
      usage: string;
    }[];
    assert.equal(week.length, 7);
    assert.equal(week.at(-1)?.usage, "1.25", "today is the last bar");
    const year = (await get(server, admin, "homepage/getChart?dateType=3")) as {
      day: string;
      usage: string;
    }[];
    assert.equal(year.length, 12);
    assert.match(year[0]!.day, /^\d{4}-\d{2}-01$/);
    assert.equal(year.at(-1)?.usage, "1.25");
    const wrong = await server.call("GET", "/api/blade-pms/homepage/getChart?dateType=4", admin);
    assert.equal(wrong.statusCode, 400);
    assert.match(wrong.json().msg, /^dateType: /);

    const rank = await get(server, admin, "homepage/getDdRank?day=2025-03-01");
    assert.deepEqual(rank, [
      // The platform administrator's home sums every tenant: each meter says whose it is.
      {
        meterId: site.meter,
        productCode: "100000000101",
        roomName: "101",
        areaName: "1号楼",
        usage: "6.00",
        tenantName: "管理组",
      },
    ]);
    const waterRank = await get(server, admin, "homepage/getDdRank?day=2025-03-01&energyType=2");
    assert.equal(waterRank[0].usage, "2.50");
    const badDay = await server.call("GET", "/api/blade-pms/homepage/getDdRank?day=yesterday", admin);
    assert.equal(badDay.statusCode, 400);
  });

  test("the overview and the trend need a readings or registry screen", async () => {
    const role = await addRole(server.db, "000000", "no-metering");
    await addUser(server.db, {
      tenantId: "000000",
      account: "no-metering",
      password: "pw-nm",
      roleIds: [role],
    });
    const bare = (await server.login("no-metering", "pw-nm")).access_token;
    for (const path of [
      "homepage/deviceStatusData",
      "homepage/getChart",
      "homepage/getDdRank",
      "datadailydd/trend",
    ]) {
      assert.equal((await server.call("GET", `/api/blade-pms/${path}`, bare)).statusCode, 403, path);
    }
  });
});
