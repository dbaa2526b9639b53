import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { nextId } from "../src/db/ids.ts";
import { addUser, provisionTenant } from "./fixtures.ts";
import { startTestServer, type TestServer } from "./helpers.ts";
import { created, get } from "./registry-fixtures.ts";
import { buildTopology } from "./topology-fixtures.ts";

/** A finished month in the tenant's zone (Asia/Shanghai): two months before the current one. */
function pastMonth(back: number): string {
  const now = new Date(Date.now() + 8 * 3600_000);
  const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, 1));
  return d.toISOString().slice(0, 7);
}
const nextMonth = (month: string) => {
  const [y, m] = month.split("-").map(Number);
  return new Date(Date.UTC(y!, m!, 1)).toISOString().slice(0, 7);
};
const previousDay = (day: string) =>
  new Date(Date.parse(`${day}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);

interface Preview {
  commonUsage: string;
  loss: string;
  shared: string;
  rule: string;
  rooms: {
    roomName: string;
    floorArea: string | null;
    usage: string;
    share: string;
    amountFen: string;
    amount: string;
  }[];
  totalFen: string;
  total: string;
}

describe("shared-cost apportionment (公摊) of a node's month", () => {
  let server: TestServer;
  let tenant: Awaited<ReturnType<typeof provisionTenant>>;
  let other: Awaited<ReturnType<typeof provisionTenant>>;
  let topology: Awaited<ReturnType<typeof buildTopology>>;
  const month = pastMonth(2);

  const call = (method: "GET" | "POST", path: string, body?: Record<string, unknown>, token = tenant.token) =>
    server.call(method, `/api/blade-pms/apportionment/${path}`, token, body);
  const preview = async (query = `nodeId=${topology.building}&month=${month}`) =>
    (await get(server, tenant.token, `apportionment/preview?${query}`)) as Preview;
  const refusal = async (res: Awaited<ReturnType<typeof call>>, status: number) => {
    assert.equal(res.statusCode, status, res.body);
    return res.json().msg as string;
  };
  const accounts = async () =>
    server.db.query<{ meter_id: string; balance: string; ledger: string; apportioned: string }>(
      `select a.meter_id::text as meter_id, a.balance::text as balance,
              (select coalesce(sum(l.amount), 0) from pms_ledger l where l.account_id = a.id)::text as ledger,
              (select coalesce(sum(l.amount), 0) from pms_ledger l where l.account_id = a.id and l.entry_type = 10)::text
                as apportioned
         from pms_account a where a.tenant_id = $1 and a.status = 1 order by a.meter_id`,
      [tenant.tenantId],
    );
  const setNode = (apportionRule: number, apportionLoss: number) =>
    created(server, tenant.token, "meteringnode/submit", {
      id: topology.building,
      parentId: topology.supply,
      nodeTitle: "1号楼",
      energyType: 1,
      nodeKind: 2,
      areaId: topology.site.building1,
      masterMeterId: topology.buildingMaster,
      apportionRule,
      apportionLoss,
    });

  /**
   * Reads an hour either side of the month's first and last local midnights, symmetric so that
   * interpolation lands on the midnight value: room 101 uses 100 kWh, room 102 300, the corridor
   * 33.33; the building's master counts 440 (6.67 lost).
   */
  async function storeReads() {
    const { site, room102, corridor, buildingMaster } = topology;
    const monthUse: [string, number, number][] = [
      [site.meter, 1000, 100],
      [room102, 2000, 300],
      [corridor, 500, 33.33],
      [buildingMaster, 5000, 440],
    ];
    for (const [meterId, start, used] of monthUse) {
      for (const [midnight, value] of [
        [`${month}-01`, start],
        [`${nextMonth(month)}-01`, start + used],
      ] as const) {
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
      }
    }
  }

  before(async () => {
    server = await startTestServer();
    const admin = (await server.login()).access_token;
    tenant = await provisionTenant(server, admin, "公摊园区");
    other = await provisionTenant(server, admin, "别家物业");
    topology = await buildTopology(server, tenant.token);
    await storeReads();
    const scheme = await created(server, tenant.token, "chargingscheme/submit", {
      schemeName: "居民电价",
      energyType: 1,
      priceMode: 1,
      price: "0.5883",
    });
    const { site } = topology;
    await created(server, tenant.token, "meter/submit", {
      id: site.meter,
      productCode: "100000000101",
      collectorId: site.collector,
      channel: 1,
      controlStatus: 1,
      chargingSchemeId: scheme,
    });
    await created(server, tenant.token, "meter/submit", {
      id: topology.room102,
      productCode: "100000000102",
      controlStatus: 1,
      chargingSchemeId: scheme,
    });
    await created(server, tenant.token, "ownerroom/submit", { ownerId: site.owner, roomId: site.room102 });
    for (const meterId of [site.meter, topology.room102]) {
      const res = await server.call("POST", "/api/blade-pms/message/openAccount", tenant.token, {
        meterId,
        deposit: "100",
      });
      assert.equal(res.statusCode, 200, res.body);
    }
  });
  after(() => server.close());

  test("bad input and refusals name the field", async () => {
    const q = (query: string) => call("GET", `preview?${query}`);
    assert.match(await refusal(await q(`month=${month}`), 400), /^nodeId:/);
    assert.match(await refusal(await q(`nodeId=${topology.building}&month=2026-13`), 400), /^month:/);
    assert.match(
      await refusal(await q(`nodeId=${topology.building}&month=${pastMonth(0)}`), 400),
      /^month: 月份尚未结束/,
    );
    // By area (the default rule) while a room has no floor area.
    assert.match(
      await refusal(await q(`nodeId=${topology.building}&month=${month}`), 400),
      /^floorArea: .*101/,
    );
    for (const [room, floorArea] of [
      [topology.site.room101, "60.00"],
      [topology.site.room102, "90.00"],
    ] as const) {
      const res = await server.call("POST", "/api/blade-pms/room/update", tenant.token, {
        id: room,
        areaId: topology.site.building1,
        roomName: room === topology.site.room101 ? "101" : "102",
        floorArea,
      });
      assert.equal(res.statusCode, 200, res.body);
    }
    assert.match(
      await refusal(await q(`nodeId=${topology.supply}&month=${month}`), 400),
      /^meterRole: 节点下没有公区表/,
    );
    assert.match(
      await refusal(await q(`nodeId=${topology.building}&month=${pastMonth(3)}`), 400),
      /^reads: 月初或月末缺少读数 \(.*100000000990/,
    );
    assert.match(await refusal(await call("POST", "book", { nodeId: topology.building }), 400), /^month:/);
    assert.match(await refusal(await call("POST", "reverse", { runId: "1" }), 400), /^reason:/);
  });

  test("by area: the common-area usage shared to the fen, priced by each room's scheme", async () => {
    const p = await preview();
    assert.equal(p.rule, "area");
    // The picker lists the nodes with a common-area meter: the building, not the transformer.
    const nodes = await get(server, tenant.token, "apportionment/nodes");
    assert.deepEqual(
      nodes.map((n: { id: string; apportionRule: number }) => [n.id, n.apportionRule]),
      [[topology.building, 1]],
    );
    assert.deepEqual([p.commonUsage, p.loss, p.shared], ["33.33", "0.00", "33.33"]);
    // 3333 × 60/150 = 1333.2 and × 90/150 = 1999.8: the leftover hundredth goes to the larger remainder.
    assert.deepEqual(
      p.rooms.map((r) => [r.roomName, r.floorArea, r.usage, r.share, r.amountFen]),
      [
        ["101", "60.00", "100.00", "13.33", "784"],
        ["102", "90.00", "300.00", "20.00", "1177"],
      ],
    );
    const shares = p.rooms.reduce((sum, r) => sum + Math.round(Number(r.share) * 100), 0);
    assert.equal(shares, 3333, "the shares add up to the common-area usage");
    assert.equal(p.totalFen, "1961");
    assert.equal(p.total, "19.61");
  });

  test("another tenant can neither preview, book nor reverse the node's month", async () => {
    const token = other.token;
    assert.match(
      await refusal(
        await call("GET", `preview?nodeId=${topology.building}&month=${month}`, undefined, token),
        404,
      ),
      /^nodeId:/,
    );
    assert.match(
      await refusal(await call("POST", "book", { nodeId: topology.building, month }, token), 404),
      /^nodeId:/,
    );
    assert.equal((await get(server, token, "apportionment/runs")).length, 0);
  });

  test("booking is once per node and month; a reversal restores every balance exactly", async () => {
    const before = await accounts();
    const first = await call("POST", "book", { nodeId: topology.building, month });
    assert.equal(first.statusCode, 200, first.body);
    const run = first.json().data.run;
    assert.equal(first.json().data.created, true);
    assert.equal(run.state, 2);
    assert.equal(run.totalFen, "1961");
    const again = await call("POST", "book", { nodeId: topology.building, month });
    assert.equal(again.json().data.created, false);
    assert.equal(again.json().data.run.id, run.id);

    const booked = await accounts();
    assert.deepEqual(
      booked.map((a) => [
        a.apportioned,
        BigInt(a.balance) - BigInt(before.find((b) => b.meter_id === a.meter_id)!.balance),
      ]),
      [
        ["-784", -784n],
        ["-1177", -1177n],
      ],
    );
    for (const a of booked) assert.equal(a.ledger, a.balance, "the balance is the sum of its ledger");

    const otherReverse = await call("POST", "reverse", { runId: run.id, reason: "错账" }, other.token);
    assert.match(await refusal(otherReverse, 404), /^runId:/);
    const reversed = await call("POST", "reverse", { runId: run.id, reason: "面积录错" });
    assert.equal(reversed.statusCode, 200, reversed.body);
    assert.equal(reversed.json().data.state, 4);
    assert.equal(reversed.json().data.reverseReason, "面积录错");
    assert.match(
      await refusal(await call("POST", "reverse", { runId: run.id, reason: "again" }), 400),
      /^runId: 该分摊已冲正/,
    );
    const restored = await accounts();
    assert.deepEqual(
      restored.map((a) => [a.balance, a.apportioned]),
      before.map((b) => [b.balance, "0"]),
    );
    for (const a of restored) assert.equal(a.ledger, a.balance);
  });

  test("by usage with the loss: the month rebooked after its reversal, and the statement's 公摊 line", async () => {
    await setNode(2, 1);
    const p = await preview();
    assert.deepEqual([p.rule, p.commonUsage, p.loss, p.shared], ["usage", "33.33", "6.67", "40.00"]);
    assert.deepEqual(
      p.rooms.map((r) => [r.share, r.amountFen]),
      [
        ["10.00", "588"],
        ["30.00", "1765"],
      ],
    );
    const res = await call("POST", "book", { nodeId: topology.building, month });
    assert.equal(res.json().data.created, true, res.body);
    assert.equal(res.json().data.run.totalFen, "2353");
    const runs = await get(server, tenant.token, `apportionment/runs?nodeId=${topology.building}`);
    assert.deepEqual(
      runs.map((r: { state: number; totalFen: string }) => [r.state, r.totalFen]),
      [
        [2, "2353"],
        [4, "1961"],
      ],
    );
    // The ledger entries are written now: this month's statement carries the net 公摊 of the site.
    const statement = await get(
      server,
      tenant.token,
      `statement/month?month=${pastMonth(0)}&scope=site&size=500`,
    );
    assert.equal(statement.apportion, "23.53");
    assert.equal(statement.balanced, true);
    for (const a of await accounts()) assert.equal(a.ledger, a.balance);
  });
  test("above the tenant's approval threshold a run waits for a second person, then books once", async () => {
    const [live] = await get(server, tenant.token, `apportionment/runs?nodeId=${topology.building}`);
    const undo = await call("POST", "reverse", { runId: live.id, reason: "改为审批后入账" });
    assert.equal(undo.statusCode, 200, undo.body);
    const before = await accounts();
    await server.db.query(
      `insert into sys_param (id, tenant_id, platform_wide, param_name, param_key, param_value)
       values ($1, $2, 0, $3, $3, '10.00')`,
      [nextId(), tenant.tenantId, "money.approval.threshold"],
    );
    // No one but the requester holds the approver role: refused, nothing kept.
    assert.match(
      await refusal(await call("POST", "book", { nodeId: topology.building, month }), 400),
      /^amount: /,
    );
    await addUser(server.db, {
      tenantId: tenant.tenantId,
      account: "approver",
      password: "Secret#2026",
      roleIds: [tenant.roleId],
    });
    const approver = (await server.login("approver", "Secret#2026", tenant.tenantId)).access_token;
    const res = await call("POST", "book", { nodeId: topology.building, month });
    assert.equal(res.statusCode, 200, res.body);
    const run = res.json().data.run;
    assert.equal(run.state, 1, "waiting for approval");
    assert.deepEqual(await accounts(), before, "nothing booked while it waits");
    assert.equal(
      (await call("POST", "book", { nodeId: topology.building, month })).json().data.run.id,
      run.id,
    );

    const flow = "/api/blade-flow/work";
    const claimable = await server.call("GET", `${flow}/claim-list`, approver);
    const [instance] = await server.db.query<{ approval_instance_id: string }>(
      "select approval_instance_id::text as approval_instance_id from pms_apportionment_run where id = $1",
      [run.id],
    );
    const task = (claimable.json().data.records as { processInstanceId: string; taskId: string }[]).find(
      (r) => r.processInstanceId === instance!.approval_instance_id,
    );
    assert.ok(task, claimable.body);
    // The approver's handle page reads what is asked: the node's month, its total, who asked.
    const asked = await server.call(
      "GET",
      `/api/blade-pms/money-approval/detail?processInstanceId=${instance!.approval_instance_id}`,
      approver,
    );
    assert.equal(asked.statusCode, 200, asked.body);
    const request = asked.json().data;
    assert.deepEqual(
      [request.kind, request.amount, request.roomName, request.state],
      ["apportionment", run.total, "1号楼", 3],
    );
    assert.equal(request.reason, `公摊 ${month} 1号楼`);
    const claimed = await server.call("POST", `${flow}/claim-task?taskId=${task.taskId}`, approver);
    assert.equal(claimed.statusCode, 200, claimed.body);
    const done = await server.call("POST", `${flow}/complete-task`, approver, {
      taskId: task.taskId,
      flag: "ok",
      comment: "同意",
    });
    assert.equal(done.statusCode, 200, done.body);
    const after = await accounts();
    assert.deepEqual(
      after.map((a, i) => BigInt(a.balance) - BigInt(before[i]!.balance)),
      [-588n, -1765n],
    );
    for (const a of after) assert.equal(a.ledger, a.balance);
    const [booked] = await get(server, tenant.token, `apportionment/runs?nodeId=${topology.building}`);
    assert.deepEqual([booked.id, booked.state], [run.id, 2]);
  });
});
