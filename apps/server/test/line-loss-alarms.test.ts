import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { evaluateAll, raiseNodeDayAlarms } from "../src/modules/alarm/alarm.service.ts";
import { localDay } from "../src/modules/metering/usage-periods.ts";
import { sweepDailyIfDue } from "../src/modules/suspects/suspects.service.ts";
import { provisionTenant } from "./fixtures.ts";
import { startTestServer, type TestServer } from "./helpers.ts";
import { get } from "./registry-fixtures.ts";
import { buildTopology } from "./topology-fixtures.ts";

const DAY_MS = 24 * 3600_000;
const ZONE = "Asia/Shanghai";
/** The tenant's calendar day `n` days before today (the test servers count days in Asia/Shanghai). */
const dayBefore = (n: number) => localDay(new Date(Date.now() - n * DAY_MS), ZONE);

interface AlarmRecord {
  id: string;
  energyType: number;
  meterId: string;
  productCode: string;
  ruleCode: string;
  checkRuleName: string;
  alarmStatus: number;
  content: string;
}

describe("line-loss alarms: a node's day outside its band raises one record in 告警记录", () => {
  let server: TestServer;
  let tenant: Awaited<ReturnType<typeof provisionTenant>>;
  let topology: Awaited<ReturnType<typeof buildTopology>>;
  const post = (path: string, body: Record<string, unknown> = {}, token = tenant.token) =>
    server.call("POST", `/api/blade-pms/${path}`, token, body);
  const records = async (query: string, token = tenant.token) =>
    (await get(server, token, `checkRecord/page?size=50&${query}`)).records as AlarmRecord[];
  const lossRecords = async (token = tenant.token) => [
    ...(await records("ruleCode=loss_above_band", token)),
    ...(await records("ruleCode=loss_negative", token)),
  ];

  /**
   * A read at each local midnight from 12 days ago to today's. Every day the building's rooms use
   * 10 and 20 kWh and its corridor 5; its master counts 37 (2 lost, 5.41 %), except the day before
   * yesterday when it counts 45 (10 lost, 22.22 %: above the band) and yesterday when it counts 33
   * (its sub-meters counted 2 more than it did: negative). The transformer's master counts one more
   * than the building's every day, so the transformer's own loss stays in its band.
   */
  async function storeReads() {
    const { master, buildingMaster, room102, corridor, site } = topology;
    const values = new Map([
      [site.meter, 1000],
      [room102, 2000],
      [corridor, 500],
      [buildingMaster, 5000],
      [master, 9000],
    ]);
    const buildingDay = (k: number) => (k === 2 ? 45 : k === 1 ? 33 : 37);
    for (let k = 12; k >= 0; k--) {
      for (const [meterId, value] of values) {
        const res = await post("dataread/submit", {
          meterId,
          readTime: `${dayBefore(k)} 00:00:00`,
          totalValue: value.toFixed(2),
        });
        assert.equal(res.statusCode, 200, res.body);
      }
      // The day that starts at this midnight (k days ago).
      values.set(site.meter, values.get(site.meter)! + 10);
      values.set(room102, values.get(room102)! + 20);
      values.set(corridor, values.get(corridor)! + 5);
      values.set(buildingMaster, values.get(buildingMaster)! + buildingDay(k));
      values.set(master, values.get(master)! + buildingDay(k) + 1);
    }
  }

  before(async () => {
    server = await startTestServer();
    const admin = (await server.login()).access_token;
    tenant = await provisionTenant(server, admin, "线损告警园区");
    topology = await buildTopology(server, tenant.token);
    await storeReads();
    const swept = await post("suspects/sweep");
    assert.equal(swept.statusCode, 200, swept.body);
    assert.equal(swept.json().data.lossAlarms, 2);
  });
  after(() => server.close());

  test("the day above the band: one record on the node's master, naming the node, day, loss and band", async () => {
    const above = await records("ruleCode=loss_above_band");
    assert.equal(above.length, 1);
    const [record] = above;
    assert.equal(record!.meterId, topology.buildingMaster);
    assert.equal(record!.productCode, "100000000901");
    assert.equal(record!.energyType, 1);
    assert.equal(record!.alarmStatus, 1);
    assert.equal(record!.checkRuleName, "线损超出正常范围");
    assert.equal(
      record!.content,
      `计量节点「1号楼」(总表 100000000901) ${dayBefore(2)} 线损 22.22%(10.00 kWh),超出正常范围 3.91%–6.91%(中位 5.41%)`,
    );
    // The same record as the 线损分析 page judges the day.
    const [supply] = (await get(server, tenant.token, `line-loss/nodes?energyType=1&day=${dayBefore(2)}`))
      .nodes as { children: { state: string; percent: number }[] }[];
    assert.deepEqual([supply!.children[0]!.state, supply!.children[0]!.percent], ["above-band", 22.22]);
    // Its detail carries the history of its one raise.
    const detail = await get(server, tenant.token, `checkRecord/detail?id=${record!.id}`);
    assert.equal(detail.history.length, 1);
    assert.equal(detail.history[0].toStatus, 1);
  });

  test("a negative day raises a fault record; the normal days and the transformer raise none", async () => {
    const negative = await records("ruleCode=loss_negative");
    assert.equal(negative.length, 1);
    assert.equal(negative[0]!.meterId, topology.buildingMaster);
    assert.equal(negative[0]!.checkRuleName, "负线损(挂接或表计故障)");
    assert.match(
      negative[0]!.content,
      new RegExp(`^计量节点「1号楼」.* ${dayBefore(1)} 线损 -6\\.06%\\(-2\\.00 kWh\\)`),
    );
    assert.match(negative[0]!.content, /挂接关系或表计故障/);
    assert.ok(
      !(await lossRecords()).some((r) => r.meterId === topology.master),
      "the transformer's loss stayed in its band",
    );
  });

  test("sweeping again, the daily sweep and the meter rules' pass neither add nor restore any", async () => {
    const before = (await lossRecords()).map((r) => r.id).sort();
    const again = await post("suspects/sweep");
    assert.equal(again.json().data.lossAlarms, 0);
    const morning = new Date(Date.parse(`${dayBefore(0)}T07:00:00+08:00`));
    assert.deepEqual(await sweepDailyIfDue(server.db, morning, ZONE), [tenant.tenantId]);
    await evaluateAll(server.db, new Date(), ZONE);
    const now = await lossRecords();
    assert.deepEqual(now.map((r) => r.id).sort(), before);
    assert.ok(
      now.every((r) => r.alarmStatus === 1),
      "a past day's alarm stays until an operator closes it",
    );
    // Closed by an operator, the day is not raised again either.
    const closed = await post(`checkRecord/close?ids=${before[0]}`);
    assert.equal(closed.statusCode, 200, closed.body);
    assert.equal((await post("suspects/sweep")).json().data.lossAlarms, 0);
    assert.equal((await lossRecords()).length, 2);
  });

  test("a rule ignored permanently on the master meter raises no later day; the other rule still does", async () => {
    const [negative] = await records("ruleCode=loss_negative");
    const ignored = await post("checkIgnore/save", {
      recordId: negative!.id,
      ignoreType: 3,
      reason: "总表更换中,挂接待核对",
    });
    assert.equal(ignored.statusCode, 200, ignored.body);
    const later = {
      energyType: 1 as const,
      meterId: topology.buildingMaster,
      productCode: "100000000901",
      nodeId: topology.building,
      day: dayBefore(0),
      content: "计量节点「1号楼」",
    };
    const raised = await raiseNodeDayAlarms(
      server.db,
      tenant.tenantId,
      [
        { ...later, code: "loss_negative" },
        { ...later, code: "loss_above_band" },
      ],
      new Date(),
    );
    assert.equal(raised, 1);
    assert.equal((await records("ruleCode=loss_negative")).length, 1);
    assert.equal((await records("ruleCode=loss_above_band")).length, 2);
  });

  test("another tenant sees none of them", async () => {
    const admin = (await server.login()).access_token;
    const theirs = await provisionTenant(server, admin, "隔壁园区");
    assert.deepEqual(await lossRecords(theirs.token), []);
  });
});
