import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { nextId } from "../src/db/ids.ts";
import { insertElectricReads } from "../src/modules/metering/reading-log.db.ts";
import { localDay } from "../src/modules/metering/usage-periods.ts";
import { sweepDailyIfDue } from "../src/modules/suspects/suspects.service.ts";
import { provisionTenant } from "./fixtures.ts";
import { startTestServer, type TestServer } from "./helpers.ts";
import { created, get } from "./registry-fixtures.ts";
import { buildTopology } from "./topology-fixtures.ts";

const DAY_MS = 24 * 3600_000;
const ZONE = "Asia/Shanghai";
/** The tenant's calendar day `n` days before today (the test servers count days in Asia/Shanghai). */
const dayBefore = (n: number) => localDay(new Date(Date.now() - n * DAY_MS), ZONE);
/** A local Shanghai time as an instant (the zone keeps +08:00 all year). */
const shanghai = (day: string, time: string) => Date.parse(`${day}T${time}+08:00`);

interface Suspect {
  id: string;
  subjectType: string;
  subjectId: string;
  kind: string;
  score: number;
  rank: number;
  state: string;
  reason: string | null;
  meterCode: string | null;
  roomName: string | null;
  nodeName: string | null;
  figures: { name: string; value: number; unit: string }[];
}

describe("suspects: detectors swept over a tenant, ranked, judged", () => {
  let server: TestServer;
  let tenant: Awaited<ReturnType<typeof provisionTenant>>;
  let topology: Awaited<ReturnType<typeof buildTopology>>;
  let bypassMeter: string;
  let eventMeter: string;
  let waterNode: string;

  const post = async (path: string, body: Record<string, unknown>, token = tenant.token) =>
    server.call("POST", `/api/blade-pms/${path}`, token, body);
  const read = async (path: string, body: Record<string, unknown>) => {
    const res = await post(path, body);
    assert.equal(res.statusCode, 200, res.body);
  };
  const list = async (query = "", token = tenant.token) =>
    (await get(server, token, `suspects/page?size=50&${query}`)).records as Suspect[];

  /**
   * 36 local midnights to today's: the building's rooms use 10 and 20 kWh a day and the corridor 5;
   * for the last 7 days the first room counts 4 while its node's master keeps counting 37 (its loss
   * rises from 2 to 8 a day: the energy still used, no longer metered).
   */
  async function storeDailyReads() {
    const { site, room102, corridor, buildingMaster } = topology;
    const values = new Map([
      [site.meter, 1000],
      [room102, 2000],
      [corridor, 500],
      [buildingMaster, 5000],
    ]);
    for (let k = 35; k >= 0; k--) {
      for (const [meterId, value] of values) {
        await read("dataread/submit", {
          meterId,
          readTime: `${dayBefore(k)} 00:00:00`,
          totalValue: value.toFixed(2),
        });
      }
      const recent = k <= 7;
      values.set(site.meter, values.get(site.meter)! + (recent ? 4 : 10));
      values.set(room102, values.get(room102)! + 20);
      values.set(corridor, values.get(corridor)! + 5);
      values.set(buildingMaster, values.get(buildingMaster)! + 37);
    }
  }

  /**
   * Yesterday morning the relay of a meter reads open three polls in a row while it counts 2.5 kWh,
   * written as the gateway writes its polls (the relay state comes only from the meter).
   */
  async function storeBypass() {
    bypassMeter = await created(server, tenant.token, "meter/save", { productCode: "100000000555" });
    await insertElectricReads(
      server.db,
      (
        [
          ["09:00:00", "300.00", 0],
          ["10:00:00", "300.50", 1],
          ["11:00:00", "301.50", 1],
          ["12:00:00", "303.00", 1],
        ] as const
      ).map(([time, total, switchStatus]) => ({
        id: nextId(),
        tenantId: tenant.tenantId,
        meterId: bypassMeter,
        roomId: null,
        productCode: "100000000555",
        readTime: new Date(shanghai(dayBefore(1), time)),
        registers: [total, null, null, null, null],
        balance: null,
        switchStatus,
        missing: "",
      })),
    );
  }

  /** The alarm module raised a cover opening on another meter a week ago (its event count rose). */
  async function storeCoverOpening() {
    eventMeter = await created(server, tenant.token, "meter/save", { productCode: "100000000666" });
    const at = new Date(Date.now() - 7 * DAY_MS).toISOString();
    await server.db.query(
      `insert into pms_check_record (id, tenant_id, energy_type, meter_id, product_code, rule_code, check_rule_name,
         content, create_time, last_check_time)
       values ($1, $2, 1, $3, '100000000666', 'cover_open', '开盖', '开表盖次数增加', $4, $4)`,
      [nextId(), tenant.tenantId, eventMeter, at],
    );
  }

  /**
   * The room's water meter turns 0.05 m³ every hour of the last three quiet nights that are over,
   * and the building's water master 0.15: 0.1 m³ an hour leaks between them.
   */
  async function storeNightFlow() {
    const waterMaster = await created(server, tenant.token, "water/submit", {
      productCode: "10000000000900",
    });
    waterNode = await created(server, tenant.token, "meteringnode/submit", {
      nodeTitle: "1号楼水表井",
      energyType: 2,
      nodeKind: 2,
      masterMeterId: waterMaster,
    });
    await created(server, tenant.token, "meteringnodemeter/submit", {
      nodeId: waterNode,
      energyType: 2,
      meterId: topology.site.water,
      meterRole: 1,
    });
    const nights = [0, 1, 2, 3]
      .map(dayBefore)
      .filter((day) => shanghai(day, "05:00:00") <= Date.now())
      .slice(0, 3)
      .reverse();
    let value = 100;
    for (const day of nights) {
      for (let hour = 0; hour <= 5; hour++) {
        await read("waterdataread/submit", {
          meterId: topology.site.water,
          readTime: `${day} 0${hour}:00:00`,
          totalValue: value.toFixed(2),
        });
        await read("waterdataread/submit", {
          meterId: waterMaster,
          readTime: `${day} 0${hour}:00:00`,
          totalValue: (value * 3).toFixed(2),
        });
        value += 0.05;
      }
      value += 1;
    }
  }

  before(async () => {
    server = await startTestServer();
    const admin = (await server.login()).access_token;
    tenant = await provisionTenant(server, admin, "稽查园区");
    topology = await buildTopology(server, tenant.token);
    await storeDailyReads();
    await storeBypass();
    await storeCoverOpening();
    await storeNightFlow();
    const swept = await post("suspects/sweep", {});
    assert.equal(swept.statusCode, 200, swept.body);
  });
  after(() => server.close());

  test("the bypass, the night flow and the drop are listed ranked with their evidence; normal meters are not", async () => {
    const suspects = await list();
    const byKind = new Map(suspects.map((s) => [s.kind, s]));
    assert.deepEqual([...byKind.keys()].sort(), [
      "meter-event",
      "night-flow",
      "node-leak",
      "relay-bypass",
      "sustained-drop",
    ]);
    const ranks = suspects.map((s) => s.rank);
    assert.deepEqual(
      ranks,
      [...ranks].sort((a, b) => b - a),
    );
    const bypass = byKind.get("relay-bypass")!;
    assert.equal(bypass.subjectId, bypassMeter);
    assert.equal(bypass.meterCode, "100000000555");
    assert.deepEqual(bypass.figures[0], { name: "energy while tripped", value: 2.5, unit: "kWh" });
    const opened = byKind.get("meter-event")!;
    assert.equal(opened.subjectId, eventMeter);
    assert.deepEqual(
      opened.figures.map((f) => [f.name, f.value]),
      [
        ["cover openings", 1],
        ["reverse energy alarms", 0],
      ],
    );
    const leak = byKind.get("night-flow")!;
    assert.equal(leak.subjectId, topology.site.water);
    assert.equal(leak.figures.find((f) => f.name === "nights in a row")!.value, 3);
    assert.equal(leak.figures.find((f) => f.name === "least night flow")!.value, 0.05);
    const nodeLeak = byKind.get("node-leak")!;
    assert.deepEqual(
      [nodeLeak.subjectType, nodeLeak.subjectId, nodeLeak.nodeName],
      ["node", waterNode, "1号楼水表井"],
    );
    assert.equal(nodeLeak.figures.find((f) => f.name === "least night flow")!.value, 0.1);
    const drop = byKind.get("sustained-drop")!;
    assert.equal(drop.subjectId, topology.site.meter);
    assert.equal(drop.nodeName, "1号楼");
    assert.ok(drop.roomName, "the room is named");
    assert.deepEqual(
      drop.figures.map((f) => [f.name, f.value]),
      [
        ["usage per day before", 10],
        ["usage per day now", 4],
        ["peers now against before", 1],
        ["node loss rise per day", 6],
      ],
    );
    for (const normal of [topology.room102, topology.corridor, topology.buildingMaster])
      assert.ok(!suspects.some((s) => s.subjectId === normal), `meter ${normal} is not suspected`);
    // The filters: electricity only, water only.
    assert.deepEqual((await list("energyType=2")).map((s) => s.kind).sort(), ["night-flow", "node-leak"]);
    assert.equal((await list("energyType=1")).length, 3);
    // By node: what is counted under a node and under the nodes below it, and the node itself.
    const kindsUnder = async (node: string) => (await list(`nodeId=${node}`)).map((s) => s.kind).sort();
    assert.deepEqual(await kindsUnder(topology.building), ["sustained-drop"]);
    assert.deepEqual(
      await kindsUnder(topology.supply),
      ["sustained-drop"],
      "the building is below the supply",
    );
    assert.deepEqual(await kindsUnder(waterNode), ["night-flow", "node-leak"]);
    const bad = await server.call("GET", "/api/blade-pms/suspects/page?nodeId=x", tenant.token);
    assert.equal(bad.statusCode, 400);
    assert.match(bad.body, /nodeId/);
  });

  test("a suspect's detail carries its evidence and the meter's usage per day for a chart", async () => {
    const drop = (await list("kind=sustained-drop"))[0]!;
    const detail = await get(server, tenant.token, `suspects/detail?id=${drop.id}`);
    assert.equal(detail.kind, "sustained-drop");
    const series = detail.series as { day: string; value: string | null }[];
    assert.equal(series.length, 45);
    assert.equal(series.at(-1)!.day, dayBefore(1));
    assert.deepEqual(
      series.slice(-8).map((d) => d.value),
      ["10.00", "4.00", "4.00", "4.00", "4.00", "4.00", "4.00", "4.00"],
    );
    assert.equal(series[0]!.value, null);
  });

  test("states move with reasons; a sweep again keeps them; a verdict moves the ranking", async () => {
    const [bypass, leak] = [(await list("kind=relay-bypass"))[0]!, (await list("kind=night-flow"))[0]!];
    const refused = await post("suspects/state", { id: leak.id, state: "dismissed" });
    assert.equal(refused.statusCode, 400, refused.body);
    assert.match(refused.json().msg, /^reason: /);
    assert.equal((await post("suspects/state", { id: leak.id, state: "visiting" })).statusCode, 200);
    const backwards = await post("suspects/state", { id: leak.id, state: "new" });
    assert.equal(backwards.statusCode, 400, backwards.body);
    const rankBefore = bypass.rank;
    const dismissed = await post("suspects/state", {
      id: bypass.id,
      state: "dismissed",
      reason: "继电器读数错误,现场合闸",
    });
    assert.equal(dismissed.statusCode, 200, dismissed.body);
    assert.equal(dismissed.json().data.reason, "继电器读数错误,现场合闸");
    // One dismissed bypass: its kind counts half as much as a kind never judged.
    const after = (await list("kind=relay-bypass"))[0]!;
    assert.ok(after.rank < rankBefore, `rank ${after.rank} after ${rankBefore}`);
    assert.equal((await post("suspects/sweep", {})).statusCode, 200);
    const states = new Map((await list()).map((s) => [s.kind, [s.state, s.reason]]));
    assert.deepEqual(states.get("relay-bypass"), ["dismissed", "继电器读数错误,现场合闸"]);
    assert.deepEqual(states.get("night-flow"), ["visiting", null]);
    assert.deepEqual(
      (await list("state=dismissed")).map((s) => s.id),
      [bypass.id],
    );
    // A dismissed suspect may be reopened.
    assert.equal((await post("suspects/state", { id: bypass.id, state: "visiting" })).statusCode, 200);
    const confirmed = await post("suspects/state", {
      id: bypass.id,
      state: "confirmed",
      reason: "现场发现短接",
    });
    assert.equal(confirmed.json().data.state, "confirmed");
  });

  test("another tenant sees none of it and cannot judge it", async () => {
    const admin = (await server.login()).access_token;
    const theirs = await provisionTenant(server, admin, "隔壁园区");
    const mine = (await list())[0]!;
    assert.deepEqual(await list("", theirs.token), []);
    const detail = await server.call("GET", `/api/blade-pms/suspects/detail?id=${mine.id}`, theirs.token);
    assert.equal(detail.statusCode, 404, detail.body);
    const judged = await post(
      "suspects/state",
      { id: mine.id, state: "dismissed", reason: "x" },
      theirs.token,
    );
    assert.equal(judged.statusCode, 404, judged.body);
    assert.equal((await post("suspects/sweep", {}, theirs.token)).statusCode, 200);
    assert.deepEqual(await list("", theirs.token), []);
    assert.equal((await list())[0]!.state, mine.state);
  });

  test("the daily sweep runs each tenant once a local day, after the quiet hours", async () => {
    const today = dayBefore(0);
    assert.deepEqual(await sweepDailyIfDue(server.db, new Date(shanghai(today, "03:00:00")), ZONE), []);
    const morning = new Date(shanghai(today, "07:00:00"));
    assert.ok((await sweepDailyIfDue(server.db, morning, ZONE)).includes(tenant.tenantId));
    assert.deepEqual(await sweepDailyIfDue(server.db, morning, ZONE), []);
    assert.equal((await list("kind=sustained-drop")).length, 1);
  });
});
