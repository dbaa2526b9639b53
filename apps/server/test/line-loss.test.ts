import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { localDay } from "../src/modules/metering/usage-periods.ts";
import { provisionTenant } from "./fixtures.ts";
import { startTestServer, type TestServer } from "./helpers.ts";
import { created, get } from "./registry-fixtures.ts";
import { buildTopology } from "./topology-fixtures.ts";

const DAY_MS = 24 * 3600_000;
/** The tenant's calendar day `n` days before today (the test servers count days in Asia/Shanghai). */
const dayBefore = (n: number) => localDay(new Date(Date.now() - n * DAY_MS), "Asia/Shanghai");
const previousDay = (day: string) =>
  new Date(Date.parse(`${day}T00:00:00Z`) - DAY_MS).toISOString().slice(0, 10);

interface NodeView {
  id: string;
  nodeName: string;
  input: string | null;
  delivered: string | null;
  loss: string | null;
  percent: number | null;
  state: string;
  missingMeters: string[];
  unmeteredNodes: string[];
  band: { median: number; low: number; high: number; days: number } | null;
  children: NodeView[];
}

const flat = (nodes: NodeView[]): NodeView[] => nodes.flatMap((n) => [n, ...flat(n.children)]);

describe("line loss per metering node", () => {
  let server: TestServer;
  let tenant: Awaited<ReturnType<typeof provisionTenant>>;
  let topology: Awaited<ReturnType<typeof buildTopology>>;
  /**
   * The day judged: the day before yesterday, so that every read stored lies in the past whenever
   * the test runs (the day after it ends with reads at 01:00 today at the latest).
   */
  const judged = dayBefore(2);
  const nodesOf = async (query: string, token = tenant.token) =>
    (await get(server, token, `line-loss/nodes?${query}`)).nodes as NodeView[];

  /**
   * Reads an hour either side of each local midnight from 11 days ago to yesterday's, symmetric
   * around the midnight value so that interpolation lands on it exactly. Every day the rooms use 10
   * and 20 kWh and the corridor 5; the building's master counts 37 (2 lost, 5.41 %), except on the
   * judged day when it counts 45 (10 lost, 22.22 %); the transformer counts one more than the building.
   */
  async function storeReads() {
    const { master, buildingMaster, room102, corridor, site } = topology;
    const perDay = new Map([
      [site.meter, 10],
      [room102, 20],
      [corridor, 5],
      [buildingMaster, 37],
      [master, 38],
    ]);
    const start = new Map([
      [site.meter, 1000],
      [room102, 2000],
      [corridor, 500],
      [buildingMaster, 5000],
      [master, 9000],
    ]);
    for (const [meterId, rate] of perDay) {
      let value = start.get(meterId)!;
      for (let k = 11; k >= 1; k--) {
        const midnight = dayBefore(k);
        for (const [readTime, offset] of [
          [`${previousDay(midnight)} 23:00:00`, -0.5],
          [`${midnight} 01:00:00`, 0.5],
        ] as const) {
          const res = await server.call("POST", "/api/blade-pms/dataread/submit", tenant.token, {
            meterId,
            readTime,
            totalValue: (value + offset).toFixed(2),
          });
          assert.equal(res.statusCode, 200, res.body);
        }
        // The day that starts at this midnight; the judged day (k = 2) is the unusual one.
        const extra = k === 2 && (meterId === buildingMaster || meterId === master) ? 8 : 0;
        value += rate + extra;
      }
    }
  }

  before(async () => {
    server = await startTestServer();
    const admin = (await server.login()).access_token;
    tenant = await provisionTenant(server, admin, "线损园区");
    topology = await buildTopology(server, tenant.token);
    await storeReads();
  });
  after(() => server.close());

  test("a day: each node's input, delivered, loss and %, judged against its own band", async () => {
    const [supply] = await nodesOf(`energyType=1&day=${judged}`);
    assert.equal(supply!.nodeName, "1号变压器");
    assert.deepEqual(
      [supply!.input, supply!.delivered, supply!.loss, supply!.percent, supply!.state],
      ["46.00", "45.00", "1.00", 2.17, "ok"],
    );
    assert.equal(supply!.band!.median, 2.63);
    assert.equal(supply!.band!.days, 9);
    const building = supply!.children[0]!;
    assert.equal(building.nodeName, "1号楼");
    assert.deepEqual(
      [building.input, building.delivered, building.loss, building.percent, building.state],
      ["45.00", "35.00", "10.00", 22.22, "above-band"],
    );
    assert.deepEqual(building.band, { median: 5.41, low: 3.91, high: 6.91, days: 9 });
    // The default day is yesterday, whose end has no read after it yet: missing, not guessed.
    assert.deepEqual(
      flat(await nodesOf("energyType=1")).map((n) => [n.state, n.loss]),
      [
        ["missing", null],
        ["missing", null],
      ],
    );
  });

  test("a day before the reads began names the meters without a value; a node without master says so", async () => {
    const nodes = flat(await nodesOf(`energyType=1&day=${dayBefore(13)}`));
    assert.deepEqual(
      nodes.map((n) => [n.state, n.input, [...n.missingMeters].sort()]),
      [
        ["missing", null, ["100000000900", "100000000901"]],
        ["missing", null, ["100000000101", "100000000102", "100000000901", "100000000990"]],
      ],
    );
    const pump = await created(server, tenant.token, "meteringnode/submit", {
      parentId: topology.supply,
      nodeTitle: "水泵房",
      energyType: 1,
      nodeKind: 4,
    });
    const withPump = flat(await nodesOf(`energyType=1&day=${judged}`));
    const supply = withPump.find((n) => n.nodeName === "1号变压器")!;
    assert.equal(supply.state, "missing");
    assert.deepEqual(supply.unmeteredNodes, ["水泵房"]);
    assert.equal(withPump.find((n) => n.nodeName === "水泵房")!.state, "no-master");
    // The building below is measured all the same.
    assert.equal(withPump.find((n) => n.nodeName === "1号楼")!.loss, "10.00");
    assert.equal(
      (await server.call("POST", `/api/blade-pms/meteringnode/remove?ids=${pump}`, tenant.token)).statusCode,
      200,
    );
  });

  test("a month without reads at its bounds is missing; water has its own (empty) tree", async () => {
    const month = dayBefore(70).slice(0, 7);
    const nodes = flat(await nodesOf(`energyType=1&month=${month}`));
    assert.deepEqual(
      nodes.map((n) => [n.state, n.band]),
      [
        ["missing", null],
        ["missing", null],
      ],
    );
    assert.deepEqual(await nodesOf("energyType=2"), []);
  });

  test("a node's daily series: every day with its band from the days before it", async () => {
    const history = await get(
      server,
      tenant.token,
      `line-loss/history?nodeId=${topology.building}&days=12&day=${judged}`,
    );
    assert.equal(history.nodeName, "1号楼");
    assert.equal(history.days.length, 12);
    const days = history.days as { day: string; percent: number | null; state: string; band: unknown }[];
    assert.equal(days.at(-1)!.day, judged);
    assert.deepEqual(
      days.map((d) => [d.percent, d.state]),
      [
        [null, "missing"],
        [null, "missing"],
        ...Array.from({ length: 9 }, () => [5.41, "ok"]),
        [22.22, "above-band"],
      ],
    );
    // Too few days behind the first measured days: no band yet, so no alarm either.
    assert.equal(days[2]!.band, null);
    assert.notEqual(days[9]!.band, null);
  });

  test("bad parameters are refused naming them; another tenant sees none of it", async () => {
    for (const [query, message] of [
      ["energyType=3", /^energyType: /],
      ["day=2025-02-30", /^day: /],
      ["month=2025-13", /^month: /],
    ] as const) {
      const res = await server.call("GET", `/api/blade-pms/line-loss/nodes?${query}`, tenant.token);
      assert.equal(res.statusCode, 400, res.body);
      assert.match(res.json().msg, message);
    }
    const admin = (await server.login()).access_token;
    const theirs = await provisionTenant(server, admin, "隔壁园区");
    assert.deepEqual(await nodesOf("energyType=1", theirs.token), []);
    const history = await server.call(
      "GET",
      `/api/blade-pms/line-loss/history?nodeId=${topology.building}`,
      theirs.token,
    );
    assert.equal(history.statusCode, 404, history.body);
  });
});
