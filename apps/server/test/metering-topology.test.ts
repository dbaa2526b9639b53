import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { provisionTenant } from "./fixtures.ts";
import type { TestServer } from "./helpers.ts";
import { startTestServer } from "./helpers.ts";
import { created, get, treeIds } from "./registry-fixtures.ts";
import { buildTopology } from "./topology-fixtures.ts";

describe("metering topology: nodes, master meters and the meters counted under them", () => {
  let server: TestServer;
  let tenant: Awaited<ReturnType<typeof provisionTenant>>;
  let topology: Awaited<ReturnType<typeof buildTopology>>;
  const post = (path: string, body: Record<string, unknown>, token = tenant.token) =>
    server.call("POST", `/api/blade-pms/${path}`, token, body);
  const refused = async (path: string, body: Record<string, unknown>, message: RegExp) => {
    const res = await post(path, body);
    assert.equal(res.statusCode, 400, res.body);
    assert.match(res.json().msg, message);
  };

  before(async () => {
    server = await startTestServer();
    const admin = (await server.login()).access_token;
    tenant = await provisionTenant(server, admin, "拓扑园区");
    topology = await buildTopology(server, tenant.token);
  });
  after(() => server.close());

  test("the tree reads back with each node's master meter, and the listed meters with their roles", async () => {
    const tree = await get(server, tenant.token, "meteringnode/tree");
    assert.deepEqual(treeIds(tree), [topology.supply, topology.building]);
    const detail = await get(server, tenant.token, `meteringnode/detail?id=${topology.building}`);
    assert.equal(detail.parentName, "1号变压器");
    assert.equal(detail.masterMeterName, "100000000901");
    assert.equal(detail.areaName, "1号楼");
    const page = await get(
      server,
      tenant.token,
      `meteringnodemeter/page?nodeId=${topology.building}&size=10`,
    );
    assert.deepEqual(
      page.records.map((r: { meterName: string; meterRole: number }) => [r.meterName, r.meterRole]).sort(),
      [
        ["100000000101", 1],
        ["100000000102", 1],
        ["100000000990", 2],
      ],
    );
  });

  test("a meter counted twice, across energy types, or a cycle is refused naming the field", async () => {
    const { site, master, buildingMaster, room102, supply, building } = topology;
    await refused(
      "meteringnode/submit",
      { nodeTitle: "2号楼", parentId: supply, energyType: 1, masterMeterId: room102 },
      /^masterMeterId: 表 \[100000000102\] 已是节点 \[1号楼\] 的下级表,不能再作总表$/,
    );
    await refused(
      "meteringnode/submit",
      { nodeTitle: "2号楼", parentId: supply, energyType: 1, masterMeterId: buildingMaster },
      /^masterMeterId: 表 \[100000000901\] 作为节点 \[1号楼\] 的总表已存在/,
    );
    await refused(
      "meteringnodemeter/submit",
      { nodeId: building, energyType: 1, meterId: master, meterRole: 2 },
      /^meterId: 表 \[100000000900\] 是节点 \[1号变压器\] 的总表,不能再作下级表$/,
    );
    const other = await created(server, tenant.token, "meteringnode/submit", {
      nodeTitle: "2号楼",
      parentId: supply,
      energyType: 1,
      nodeKind: 2,
    });
    await refused(
      "meteringnodemeter/submit",
      { nodeId: other, energyType: 1, meterId: site.meter, meterRole: 1 },
      /^meterId: 表 \[100000000101\] 在节点 \[1号楼\] 下已存在,一块表只能属于一个节点$/,
    );
    await refused(
      "meteringnode/submit",
      { nodeTitle: "水泵房", parentId: supply, energyType: 2, nodeKind: 4 },
      /^energyType: 上级节点 \[1号变压器\] 计量电,下级节点须为同一能源类型$/,
    );
    await refused(
      "meteringnodemeter/submit",
      { nodeId: building, energyType: 2, meterId: site.water, meterRole: 1 },
      /^energyType: 节点 \[1号楼\] 计量电,下级表须为同一能源类型$/,
    );
    await refused("meteringnode/submit", { id: supply, energyType: 2 }, /^energyType: 下级节点 \[1号楼\]/);
    await refused(
      "meteringnode/submit",
      { id: supply, parentId: building },
      /^parentId: 不能移动到自己的下级节点$/,
    );
    await refused("meteringnode/submit", { id: supply, parentId: supply }, /^parentId: 父节点不可选择自身/);
    // A node keeps its own master on an edit that leaves it alone.
    assert.equal((await post("meteringnode/submit", { id: building, remark: "东侧竖井" })).statusCode, 200);
    // Removing a node with children or listed meters is refused.
    const removeSupply = await post(`meteringnode/remove?ids=${supply}`, {});
    assert.equal(removeSupply.statusCode, 400, removeSupply.body);
    const removeBuilding = await post(`meteringnode/remove?ids=${building}`, {});
    assert.equal(removeBuilding.statusCode, 400, removeBuilding.body);
    assert.match(removeBuilding.json().msg, /节点下级表/);
  });

  test("another tenant can neither read a node nor hang anything under it", async () => {
    const admin = (await server.login()).access_token;
    const theirs = await provisionTenant(server, admin, "隔壁园区");
    const tree = await get(server, theirs.token, "meteringnode/tree");
    assert.deepEqual(tree, []);
    const detail = await server.call(
      "GET",
      `/api/blade-pms/meteringnode/detail?id=${topology.building}`,
      theirs.token,
    );
    assert.equal(detail.statusCode, 404, detail.body);
    const under = await post(
      "meteringnode/submit",
      { nodeTitle: "借用", parentId: topology.building, energyType: 1, nodeKind: 3 },
      theirs.token,
    );
    assert.equal(under.statusCode, 400, under.body);
    assert.match(under.json().msg, /^parentId: 上级节点不存在/);
    const meter = await created(server, theirs.token, "meter/save", { productCode: "200000000001" });
    const link = await post(
      "meteringnodemeter/submit",
      { nodeId: topology.building, energyType: 1, meterId: meter, meterRole: 1 },
      theirs.token,
    );
    assert.equal(link.statusCode, 400, link.body);
    assert.match(link.json().msg, /^nodeId: /);
    // Nor can they name our master meter for a node of theirs.
    const borrowed = await post(
      "meteringnode/submit",
      { nodeTitle: "借表", energyType: 1, nodeKind: 2, masterMeterId: topology.master },
      theirs.token,
    );
    assert.equal(borrowed.statusCode, 400, borrowed.body);
    assert.match(borrowed.json().msg, /^masterMeterId: /);
    assert.doesNotMatch(borrowed.json().msg, /1号变压器/);
  });
});
