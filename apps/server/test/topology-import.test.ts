import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import ExcelJS from "exceljs";
import { provisionTenant } from "./fixtures.ts";
import { multipartFile, startTestServer, type TestServer } from "./helpers.ts";
import { created, get } from "./registry-fixtures.ts";

type Sheet = readonly (readonly string[])[];

/** A workbook of named sheets, each given as rows of cells (the header first). */
async function workbook(sheets: Record<string, Sheet>): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  for (const [name, rows] of Object.entries(sheets)) {
    const sheet = book.addWorksheet(name);
    for (const row of rows) sheet.addRow([...row]);
  }
  return Buffer.from(await book.xlsx.writeBuffer());
}

const ROOM_HEADER = ["区域路径", "房间名称", "电表表号", "水表表号"];
const NODE_HEADER = ["节点名称", "上级节点", "能源类型", "节点类型", "总表表号"];
const LINK_HEADER = ["计量节点", "表号", "表计角色"];

interface Answer {
  total: number;
  imported: number;
  unchanged: number;
  rejected: number;
  creates: Record<string, number>;
  rejectedFile: string;
}

describe("registry import: the metering topology sheets", () => {
  let server: TestServer;
  let tenant: { tenantId: string; token: string };

  const upload = async (verb: "import" | "import-preview", content: Buffer, token = tenant.token) => {
    const body = multipartFile("site.xlsx", content);
    const res = await server.inject({
      method: "POST",
      url: `/api/blade-pms/room/${verb}`,
      headers: { ...body.headers, "blade-auth": `bearer ${token}` },
      payload: body.payload,
    });
    assert.equal(res.statusCode, 200, res.body);
    return res.json().data;
  };
  /** The rejected file's sheets as rows keyed by header. */
  const rejectedSheets = async (link: string) => {
    const download = await server.inject({ method: "GET", url: link });
    assert.equal(download.statusCode, 200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(download.rawPayload as unknown as ArrayBuffer);
    const sheets: Record<string, Record<string, string>[]> = {};
    for (const sheet of book.worksheets) {
      const header = Array.from(sheet.getRow(1).values as unknown[], (v) => String(v ?? ""));
      const rows: Record<string, string>[] = [];
      sheet.eachRow((row, n) => {
        if (n === 1) return;
        const values = row.values as unknown[];
        rows.push(Object.fromEntries(header.map((h, at) => [h, String(values[at] ?? "")])));
      });
      sheets[sheet.name] = rows;
    }
    return sheets;
  };

  before(async () => {
    server = await startTestServer();
    const admin = (await server.login()).access_token;
    tenant = await provisionTenant(server, admin, "拓扑导入园区");
    // The supply point's master was registered by hand before the import.
    await created(server, tenant.token, "meter/save", { productCode: "300000000900" });
  });
  after(() => server.close());

  test("rooms, meters and the node tree with master, tenant and common-area meters import together", async () => {
    const file = await workbook({
      房间档案: [
        ROOM_HEADER,
        ["拓扑园区/1号楼", "101", "300000000101", "40000000000101"],
        ["拓扑园区/1号楼", "102", "300000000102", ""],
        ["拓扑园区/1号楼", "公区", "300000000990", ""],
        ["拓扑园区/1号楼", "配电间", "300000000901", ""],
      ],
      // The child before its parent: rows are placed in whatever order they come.
      计量节点: [
        NODE_HEADER,
        ["1号楼", "1号变压器", "", "楼栋", "300000000901"],
        ["1号变压器", "", "电", "供电点/变压器", "300000000900"],
        ["1号楼供水", "", "水", "", ""],
      ],
      节点下级表: [
        LINK_HEADER,
        ["1号楼", "300000000101", "分户表"],
        ["1号变压器/1号楼", "300000000102", ""],
        ["1号楼", "300000000990", "公区表"],
        ["1号楼供水", "40000000000101", "分户表"],
      ],
    });
    const preview = await upload("import-preview", file);
    assert.deepEqual([preview.total, preview.valid, preview.rejected], [11, 11, 0], JSON.stringify(preview));
    assert.deepEqual([preview.creates.nodes, preview.creates.nodeMeters], [3, 4]);
    assert.deepEqual(await get(server, tenant.token, "meteringnode/tree"), [], "a preview writes nothing");

    const answer: Answer = await upload("import", file);
    assert.deepEqual([answer.imported, answer.rejected, answer.rejectedFile], [11, 0, ""]);
    const tree = await get(server, tenant.token, "meteringnode/tree");
    const supply = tree.find((n: { title: string }) => n.title === "1号变压器");
    assert.ok(supply, JSON.stringify(tree));
    assert.deepEqual(
      supply.children.map((c: { title: string }) => c.title),
      ["1号楼"],
    );
    const building = await get(server, tenant.token, `meteringnode/detail?id=${supply.children[0].id}`);
    assert.equal(building.masterMeterName, "300000000901");
    assert.equal(building.energyType, 1);
    assert.equal(building.nodeKind, 2);
    assert.equal(building.ancestors, `0,${supply.id}`);
    const links = await get(server, tenant.token, `meteringnodemeter/page?nodeId=${building.id}&size=10`);
    assert.deepEqual(
      links.records.map((r: { meterName: string; meterRole: number }) => [r.meterName, r.meterRole]).sort(),
      [
        ["300000000101", 1],
        ["300000000102", 1],
        ["300000000990", 2],
      ],
    );
    const water = tree.find((n: { title: string }) => n.title === "1号楼供水");
    const waterDetail = await get(server, tenant.token, `meteringnode/detail?id=${water.id}`);
    assert.equal(waterDetail.energyType, 2);

    // The same file again: everything exists already, nothing is created.
    const again: Answer = await upload("import", file);
    assert.deepEqual([again.imported, again.unchanged, again.rejected], [11, 11, 0]);
    assert.deepEqual([again.creates.nodes, again.creates.nodeMeters], [0, 0]);
  });

  test("the 计量节点 and 节点下级表 exports import back as they are: everything exists, nothing changes", async () => {
    for (const resource of ["meteringnode", "meteringnodemeter"]) {
      const exported = await server.inject({
        method: "GET",
        url: `/api/blade-pms/${resource}/export`,
        headers: { "blade-auth": `bearer ${tenant.token}` },
      });
      assert.equal(exported.statusCode, 200, exported.body);
      const answer: Answer = await upload("import", exported.rawPayload);
      const rows = resource === "meteringnode" ? 3 : 4;
      assert.deepEqual(
        [answer.total, answer.imported, answer.unchanged, answer.rejected],
        [rows, rows, rows, 0],
        `${resource}: ${JSON.stringify(answer)}`,
      );
    }
  });

  test("nodes naming each other as parent are refused as a cycle, with the reason in the rejected sheet", async () => {
    const file = await workbook({
      计量节点: [
        NODE_HEADER,
        ["A区", "B区", "电", "", ""],
        ["B区", "A区", "电", "", ""],
        ["A区1层", "A区", "电", "楼层/竖井", ""],
        ["自环", "自环", "电", "", ""],
        ["C区", "", "电", "", ""],
      ],
    });
    const answer: Answer = await upload("import", file);
    assert.deepEqual([answer.total, answer.imported, answer.rejected], [5, 1, 4]);
    const sheets = await rejectedSheets(answer.rejectedFile);
    assert.deepEqual(Object.keys(sheets), ["计量节点"]);
    const reasons = new Map((sheets.计量节点 ?? []).map((r) => [r.原行号, r.失败原因]));
    assert.equal(reasons.get("2"), "上级节点: 节点之间循环引用: A区 → B区 → A区");
    assert.equal(reasons.get("3"), "上级节点: 节点之间循环引用: B区 → A区 → B区");
    assert.equal(reasons.get("4"), "上级节点: [A区] 所在的行因循环引用未导入");
    assert.equal(reasons.get("5"), "上级节点: 不能是节点自身");
    assert.equal(sheets.计量节点?.[0]?.节点名称, "A区", "the row as uploaded");
    const tree = await get(server, tenant.token, "meteringnode/tree");
    assert.ok(tree.some((n: { title: string }) => n.title === "C区"));
    assert.ok(!tree.some((n: { title: string }) => n.title === "A区"));
  });

  test("a meter under two nodes, a master as sub-meter and a meter of the other energy are refused", async () => {
    const file = await workbook({
      计量节点: [
        NODE_HEADER,
        ["2号楼", "1号变压器", "", "", ""],
        ["3号楼", "1号变压器", "", "", "300000000101"],
        ["2号楼水", "1号变压器", "水", "", ""],
      ],
      节点下级表: [
        LINK_HEADER,
        ["2号楼", "300000000101", ""],
        ["2号楼", "300000000900", ""],
        ["2号楼", "40000000000101", ""],
        ["2号楼", "300000000555", "公区表"],
        ["2号楼", "300000000102", "路灯"],
        ["9号楼", "300000000102", ""],
      ],
    });
    const answer: Answer = await upload("import", file);
    assert.deepEqual([answer.total, answer.imported, answer.rejected], [9, 1, 8]);
    const sheets = await rejectedSheets(answer.rejectedFile);
    const nodes = new Map((sheets.计量节点 ?? []).map((r) => [r.原行号, r.失败原因]));
    assert.equal(
      nodes.get("3"),
      "总表表号: 表 [300000000101] 已是节点 [1号变压器/1号楼] 的下级表,不能再作总表",
    );
    assert.equal(nodes.get("4"), "能源类型: 上级节点 [1号变压器] 计量电,下级节点须为同一能源类型");
    const links = new Map((sheets.节点下级表 ?? []).map((r) => [r.原行号, r.失败原因]));
    assert.equal(
      links.get("2"),
      "表号: 表 [300000000101] 在节点 [1号变压器/1号楼] 下已存在,一块表只能属于一个节点",
    );
    assert.equal(links.get("3"), "表号: 表 [300000000900] 是节点 [1号变压器] 的总表,不能再作下级表");
    assert.equal(
      links.get("4"),
      "表号: [40000000000101] 是水表, 节点 [1号变压器/2号楼]计量电,须为同一能源类型",
    );
    assert.equal(links.get("5"), "表号: [300000000555] 不存在");
    // Every problem of a row at once.
    assert.equal(
      links.get("6"),
      "表计角色: [路灯] 不存在, 可选 分户表、公区表; 表号: 表 [300000000102] 在节点 [1号变压器/1号楼] 下已存在,一块表只能属于一个节点",
    );
    assert.equal(links.get("7"), "计量节点: [9号楼] 不存在");
  });

  test("the template carries the topology sheets; an exported node sheet with English headers imports", async () => {
    const res = await server.inject({
      method: "GET",
      url: "/api/blade-pms/room/import-template",
      headers: { "blade-auth": `bearer ${tenant.token}` },
    });
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const headers = (name: string) => (book.getWorksheet(name)!.getRow(1).values as unknown[]).slice(1);
    assert.equal(book.worksheets[0]!.name, "房间档案");
    assert.deepEqual(headers("计量节点"), NODE_HEADER);
    assert.deepEqual(headers("节点下级表"), [...LINK_HEADER, "能源类型"]);

    const english = await workbook({
      Nodes: [
        ["Node name", "Parent node", "Energy type", "Node type", "Master meter"],
        ["East riser", "1号变压器/1号楼", "Electricity", "Floor / riser", ""],
      ],
      Meters: [
        ["Metering node", "Meter", "Meter role"],
        ["East riser", "300000000555", "Common-area meter"],
      ],
    });
    const preview = await upload("import-preview", english);
    assert.deepEqual([preview.total, preview.valid], [2, 1]);
    assert.deepEqual(preview.problems, [
      { row: 2, sheet: "节点下级表", reason: "表号: [300000000555] 不存在" },
    ]);
  });

  test("the topology view answers each node's master and sub-meters with their rooms, per energy type", async () => {
    interface ViewMeter {
      meterId: string;
      productCode: string;
      meterRole?: number;
      room?: string;
    }
    interface ViewNode {
      id: string;
      parentId: string;
      nodeTitle: string;
      master: ViewMeter | null;
      meters: ViewMeter[];
    }
    const view = async (query: string, token = tenant.token) => {
      const res = await server.call("GET", `/api/blade-pms/topology/nodes${query}`, token);
      return res;
    };
    const electric = (await view("?energyType=1")).json().data.nodes as ViewNode[];
    const byTitle = new Map(electric.map((n) => [n.nodeTitle, n]));
    const supply = byTitle.get("1号变压器")!;
    const building = byTitle.get("1号楼")!;
    assert.equal(building.parentId, supply.id);
    assert.deepEqual(supply.master, {
      meterId: supply.master!.meterId,
      productCode: "300000000900",
    });
    assert.equal(building.master?.room, "1号楼 配电间");
    assert.deepEqual(building.meters.map((m) => [m.productCode, m.meterRole, m.room]).sort(), [
      ["300000000101", 1, "1号楼 101"],
      ["300000000102", 1, "1号楼 102"],
      ["300000000990", 2, "1号楼 公区"],
    ]);
    assert.ok(!byTitle.has("1号楼供水"), "water nodes answer for energyType 2 only");
    const water = (await view("?energyType=2")).json().data.nodes as ViewNode[];
    assert.deepEqual(
      water.map((n) => [n.nodeTitle, n.meters.map((m) => m.productCode)]),
      [["1号楼供水", ["40000000000101"]]],
    );
    const bad = await view("?energyType=3");
    assert.equal(bad.statusCode, 400);
    assert.match(bad.json().msg, /^energyType: /);
    const admin = (await server.login()).access_token;
    const other = await provisionTenant(server, admin, "隔壁视图园区");
    assert.deepEqual((await view("?energyType=1", other.token)).json().data.nodes, []);
  });

  test("another tenant's import cannot hang meters under the first tenant's nodes", async () => {
    const admin = (await server.login()).access_token;
    const other = await provisionTenant(server, admin, "隔壁拓扑园区");
    const file = await workbook({ 节点下级表: [LINK_HEADER, ["1号变压器/1号楼", "300000000101", ""]] });
    const preview = await upload("import-preview", file, other.token);
    assert.deepEqual(preview.problems, [
      { row: 2, sheet: "节点下级表", reason: "计量节点: [1号变压器/1号楼] 不存在" },
    ]);
  });
});
