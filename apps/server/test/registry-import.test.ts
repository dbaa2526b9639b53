import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import ExcelJS from "exceljs";
import { FieldCipher } from "../src/crud/field-cipher.ts";
import type { Db, Queryable } from "../src/db/client.ts";
import { nextId } from "../src/db/ids.ts";
import { serviceUser } from "../src/modules/auth/current-user.ts";
import { readImportSheet } from "../src/modules/pms-import/import-sheet.ts";
import { runImport } from "../src/modules/pms-import/registry-import.ts";
import { addRole, addUser, provisionTenant } from "./fixtures.ts";
import { multipartFile, startTestServer, type TestServer } from "./helpers.ts";

const HEADERS = [
  "区域路径",
  "房间名称",
  "房间编码",
  "房间类型",
  "面积",
  "业主姓名",
  "业主编号",
  "手机号码",
  "身份证号",
  "电表表号",
  "水表表号",
  "采集器注册码",
  "通道号",
  "收费方案",
  "告警方案",
] as const;
type Row = Record<(typeof HEADERS)[number], string>;

const ROWS = 5000;
const COLLECTOR = "DTU-IMPORT-A1";
/** An electric meter registered before the import and installed nowhere: the file links it. */
const UNBOUND_METER = "990000000001";
const UNBOUND_ROW = 77;

/** Row `i` of the generated file: 10 buildings × 5 units × 100 rooms, each with an owner and two meters. */
function goodRow(i: number): Row {
  const building = Math.floor(i / 500) + 1;
  const unit = Math.floor((i % 500) / 100) + 1;
  const room = `${Math.floor((i % 100) / 5) + 1}${String((i % 5) + 1).padStart(2, "0")}`;
  return {
    区域路径: `阳光园区/${building}号楼/${unit}单元`,
    房间名称: room,
    房间编码: `R${i}`,
    房间类型: i % 7 === 0 ? "宿舍" : i % 11 === 0 ? "3" : "",
    面积: i % 3 === 0 ? "89.5" : "",
    业主姓名: `业主${i}`,
    业主编号: `YZ${i}`,
    手机号码: `138${String(i).padStart(8, "0")}`,
    身份证号: i % 13 === 0 ? `1101011990${String(i).padStart(7, "0")}X` : "",
    电表表号: i === UNBOUND_ROW ? UNBOUND_METER : `1${String(i).padStart(11, "0")}`,
    水表表号: `2${String(i).padStart(13, "0")}`,
    采集器注册码: i % 2 === 0 ? COLLECTOR : "",
    通道号: i % 2 === 0 ? String((i % 4) + 1) : "",
    收费方案: i % 5 === 0 ? "居民电价,居民水价" : "",
    告警方案: "",
  };
}

/** The kinds of bad row sprinkled through the file, each with the reason it must come back with. */
const BAD_KINDS: { offset: number; patch: (i: number) => Partial<Row>; reason: (i: number) => RegExp }[] = [
  { offset: 10, patch: () => ({ 手机号码: "12345" }), reason: () => /^手机号码: 格式不正确$/ },
  { offset: 20, patch: () => ({ 电表表号: "12345" }), reason: () => /^电表表号: 格式不正确$/ },
  {
    offset: 30,
    patch: (i) => ({ 电表表号: goodRow(i - 1).电表表号 }),
    reason: (i) => new RegExp(`^电表表号: \\[${goodRow(i - 1).电表表号}\\] 与第 ${i + 1} 行重复$`),
  },
  {
    offset: 40,
    patch: () => ({ 区域路径: "阳光园区/1号楼", 房间名称: "已售", 业主编号: "" }),
    reason: () => /^业主姓名: 房间已有业主 \[王五\], 不能再关联其他业主$/,
  },
  { offset: 50, patch: () => ({ 采集器注册码: "NOPE" }), reason: () => /^采集器注册码: \[NOPE\] 不存在$/ },
  { offset: 60, patch: () => ({ 房间名称: "" }), reason: () => /^房间名称: 不能为空$/ },
  {
    offset: 70,
    patch: () => ({ 业主编号: "YZ1" }),
    reason: () => /^业主编号: \[YZ1\] 已属于业主 \[业主1\], 与业主姓名 \[业主\d+\] 不符$/,
  },
];

/** The 5,000-row file: each bad kind at offsets 0–4 thousand rows apart; all other rows good. */
function fileRows() {
  const rows: Row[] = [];
  const bad = new Map<number, RegExp>();
  for (let i = 0; i < ROWS; i++) {
    const kind = BAD_KINDS.find((k) => i % 1000 === k.offset);
    const row = { ...goodRow(i), ...kind?.patch(i) };
    if (kind) {
      bad.set(i + 2, kind.reason(i)); // sheet row: header is row 1
    }
    rows.push(row);
  }
  return { rows, bad };
}

async function workbook(rows: Row[]): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet("房间档案");
  sheet.addRow(HEADERS);
  for (const row of rows) sheet.addRow(HEADERS.map((h) => row[h]));
  return Buffer.from(await book.xlsx.writeBuffer());
}

const count = async (db: Queryable, table: string, tenantId: string) =>
  Number(
    (
      await db.query<{ n: string }>(
        `select count(*) as n from ${table} where tenant_id = $1 and is_deleted = 0`,
        [tenantId],
      )
    )[0]!.n,
  );
const TABLES = [
  "pms_area",
  "pms_room",
  "pms_owner",
  "pms_owner_room",
  "pms_meter",
  "pms_water",
  "pms_room_meter",
];
const counts = async (db: Queryable, tenantId: string) =>
  Object.fromEntries(await Promise.all(TABLES.map(async (t) => [t, await count(db, t, tenantId)] as const)));

describe("registry import from Excel", () => {
  let server: TestServer;
  let tenantA: { tenantId: string; token: string };
  let file: Buffer;
  let expectedBad: Map<number, RegExp>;
  let good: number;

  const post = (url: string, token: string, content: Buffer, filename = "rooms.xlsx") => {
    const body = multipartFile(filename, content);
    return server.inject({
      method: "POST",
      url,
      headers: { ...body.headers, "blade-auth": `bearer ${token}` },
      payload: body.payload,
    });
  };
  const submit = async (token: string, path: string, body: Record<string, unknown>) => {
    const res = await server.call("POST", `/api/blade-pms/${path}`, token, body);
    assert.equal(res.statusCode, 200, `${path}: ${res.body}`);
    return res.json().data.id as string;
  };

  before(async () => {
    server = await startTestServer();
    const admin = (await server.login()).access_token;
    tenantA = await provisionTenant(server, admin, "阳光物业");
    const t = tenantA.token;
    // What the tenant registered by hand before importing.
    await submit(t, "collector/submit", { collectorName: "1号楼 DTU", collectorCode: COLLECTOR });
    await submit(t, "chargingscheme/submit", {
      schemeName: "居民电价",
      energyType: 1,
      priceMode: 1,
      price: "0.5883",
    });
    await submit(t, "chargingscheme/submit", {
      schemeName: "居民水价",
      energyType: 2,
      priceMode: 1,
      price: "3.2",
    });
    await submit(t, "meter/submit", { productCode: UNBOUND_METER });
    const park = await submit(t, "area/save", { areaName: "阳光园区", areaType: 1 });
    const building = await submit(t, "area/save", { parentId: park, areaName: "1号楼", areaType: 2 });
    const sold = await submit(t, "room/save", { areaId: building, roomName: "已售" });
    const owner = await submit(t, "owner/submit", { ownerName: "王五", ownerCode: "WW" });
    await submit(t, "ownerroom/submit", { ownerId: owner, roomId: sold });
    const generated = fileRows();
    expectedBad = generated.bad;
    good = ROWS - expectedBad.size;
    file = await workbook(generated.rows);
  });
  after(() => server.close());

  test("the template downloads with the columns in order", async () => {
    const res = await server.inject({
      method: "GET",
      url: "/api/blade-pms/room/import-template",
      headers: { "blade-auth": `bearer ${tenantA.token}` },
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.match(String(res.headers["content-type"]), /spreadsheetml/);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const headers = (book.worksheets[0]!.getRow(1).values as unknown[]).slice(1);
    assert.deepEqual(headers, [
      ...HEADERS,
      "电表控制方式",
      "电表初始读数",
      "水表初始读数",
      "电表规约",
      "Modbus型号",
      "Modbus从站地址",
    ]);
    // The template's own example row is a valid row.
    const preview = await post("/api/blade-pms/room/import-preview", tenantA.token, res.rawPayload);
    assert.deepEqual([preview.json().data.total, preview.json().data.valid], [1, 1], preview.body);
  });

  test("the preview answers what the import will do and writes nothing", async () => {
    const before = await counts(server.db, tenantA.tenantId);
    const res = await post("/api/blade-pms/room/import-preview", tenantA.token, file);
    assert.equal(res.statusCode, 200, res.body);
    const data = res.json().data;
    assert.deepEqual([data.total, data.valid, data.rejected], [ROWS, good, expectedBad.size]);
    assert.deepEqual(data.creates, {
      areas: 9 + 10 * 5, // 2–10号楼 and every unit; 阳光园区 and 1号楼 existed
      rooms: good,
      owners: good,
      meters: good - 1, // the unbound meter is linked, not created
      waters: good,
      links: 3 * good,
    });
    assert.equal(data.problems.length, expectedBad.size);
    for (const problem of data.problems as { row: number; reason: string }[]) {
      assert.match(problem.reason, expectedBad.get(problem.row)!, `row ${problem.row}`);
    }
    assert.deepEqual(await counts(server.db, tenantA.tenantId), before);
  });

  test("good rows land with their links, bad rows come back in a sheet with reasons", async () => {
    const before = await counts(server.db, tenantA.tenantId);
    const res = await post("/api/blade-pms/room/import", tenantA.token, file);
    assert.equal(res.statusCode, 200, res.body);
    const data = res.json().data;
    assert.deepEqual(
      [data.total, data.imported, data.unchanged, data.rejected],
      [ROWS, good, 0, expectedBad.size],
    );
    assert.equal(data.creates.rooms, good);

    const now = await counts(server.db, tenantA.tenantId);
    assert.deepEqual(now, {
      pms_area: before.pms_area! + 59,
      pms_room: before.pms_room! + good,
      pms_owner: before.pms_owner! + good,
      pms_owner_room: before.pms_owner_room! + good,
      pms_meter: before.pms_meter! + good - 1,
      pms_water: before.pms_water! + good,
      pms_room_meter: before.pms_room_meter! + 2 * good,
    });

    // The row of index 1254: its area path, owner and both meters, linked.
    const [room] = await server.db.query<{
      id: string;
      area_id: string;
      room_type: number;
      floor_area: string;
    }>(
      `select r.id::text, r.area_id::text, r.room_type, r.floor_area::text from pms_room r
        where r.tenant_id = $1 and r.room_code = 'R1254'`,
      [tenantA.tenantId],
    );
    assert.ok(room);
    assert.deepEqual([room.room_type, room.floor_area], [3, "89.50"]); // type given as key 3; area 89.5
    const path = await server.db.query<{
      id: string;
      area_name: string;
      area_type: number;
      parent_id: string;
    }>(
      `with recursive up as (
         select id, area_name, area_type, parent_id, 0 as depth from pms_area where id = $1
         union all
         select a.id, a.area_name, a.area_type, a.parent_id, up.depth + 1 from pms_area a join up on a.id = up.parent_id
       ) select id::text, area_name, area_type, parent_id::text from up order by depth desc`,
      [room.area_id],
    );
    assert.deepEqual(
      path.map((a) => [a.area_name, a.area_type]),
      [
        ["阳光园区", 1],
        ["3号楼", 2],
        ["3单元", 3],
      ],
    );
    assert.equal(path[0]!.parent_id, "0");
    // Ancestors are the path above each area, as the tree rules keep them: under existing parents too.
    const [unit] = await server.db.query<{ ancestors: string }>(
      "select ancestors from pms_area where id = $1",
      [room.area_id],
    );
    assert.equal(unit!.ancestors, `0,${path[0]!.id},${path[1]!.id}`);
    const wrong = await server.db.query(
      `select c.area_name from pms_area c left join pms_area p on p.id = c.parent_id
        where c.tenant_id = $1 and c.is_deleted = 0
          and c.ancestors is distinct from (case when c.parent_id = 0 then '0' else p.ancestors || ',' || p.id end)`,
      [tenantA.tenantId],
    );
    assert.deepEqual(wrong, []);
    const [owner] = await server.db.query<{ owner_code: string; phone: string; balance: string }>(
      `select o.owner_code, o.phone, o.balance::text from pms_owner_room l join pms_owner o on o.id = l.owner_id
        where l.room_id = $1 and l.is_deleted = 0`,
      [room.id],
    );
    assert.deepEqual(owner, { owner_code: "YZ1254", phone: "13800001254", balance: "0.00" });
    const meters = await server.db.query<{
      energy_type: number;
      code: string;
      collector: string;
      channel: number;
    }>(
      `select l.energy_type, coalesce(m.product_code, w.product_code) as code, c.collector_code as collector,
              coalesce(m.channel, w.channel) as channel
         from pms_room_meter l
         left join pms_meter m on l.energy_type = 1 and m.id = l.meter_id
         left join pms_water w on l.energy_type = 2 and w.id = l.meter_id
         left join pms_collector c on c.id = coalesce(m.collector_id, w.collector_id)
        where l.room_id = $1 and l.is_deleted = 0 order by l.energy_type`,
      [room.id],
    );
    assert.deepEqual(
      meters.map((m) => [m.energy_type, m.code, m.collector, m.channel]),
      [
        [1, "100000001254", COLLECTOR, 3],
        [2, "20000000001254", COLLECTOR, 3],
      ],
    );
    // Every fifth row names both schemes: each lands on the meter of its energy type only.
    const schemes = await server.db.query<{ scheme: string }>(
      `select s.scheme_name as scheme from pms_meter m join pms_charging_scheme s on s.id = m.charging_scheme_id
        where m.product_code = '100000001230'
       union all
       select s.scheme_name from pms_water w join pms_charging_scheme s on s.id = w.charging_scheme_id
        where w.product_code = '20000000001230'`,
    );
    assert.deepEqual(
      schemes.map((s) => s.scheme),
      ["居民电价", "居民水价"],
    );
    const [linked] = await server.db.query<{ room_code: string }>(
      `select r.room_code from pms_meter m join pms_room_meter l on l.meter_id = m.id and l.energy_type = 1
         join pms_room r on r.id = l.room_id where m.tenant_id = $1 and m.product_code = $2`,
      [tenantA.tenantId, UNBOUND_METER],
    );
    assert.equal(linked?.room_code, `R${UNBOUND_ROW}`);
    const [log] = await server.db.query<{ n: string }>(
      "select count(*) as n from pms_owner_log where tenant_id = $1 and action = 'import'",
      [tenantA.tenantId],
    );
    assert.equal(Number(log!.n), good);

    // Nothing of a bad row was written: not its room, owner or meters.
    const leftovers = await server.db.query(
      `select 1 from pms_owner where tenant_id = $1 and owner_code = any($2)
       union all select 1 from pms_water where tenant_id = $1 and product_code = any($3)`,
      [
        tenantA.tenantId,
        [...expectedBad.keys()].map((row) => `YZ${row - 2}`),
        [...expectedBad.keys()].map((row) => goodRow(row - 2).水表表号),
      ],
    );
    assert.equal(leftovers.length, 0);

    // The rejected rows, as the operator downloads them.
    const download = await server.inject({ method: "GET", url: data.rejectedFile });
    assert.equal(download.statusCode, 200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(download.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0]!;
    const headers = (sheet.getRow(1).values as unknown[]).map(String);
    const reasonAt = headers.indexOf("失败原因");
    const rowAt = headers.indexOf("原行号");
    const phoneAt = headers.indexOf("手机号码");
    assert.ok(reasonAt > 0 && rowAt > 0 && phoneAt > 0);
    assert.equal(sheet.actualRowCount - 1, expectedBad.size);
    const seen = new Set<number>();
    sheet.eachRow((row, n) => {
      if (n === 1) return;
      const sourceRow = Number(row.getCell(rowAt).value);
      assert.match(String(row.getCell(reasonAt).value), expectedBad.get(sourceRow)!, `row ${sourceRow}`);
      if (sourceRow === 12) assert.equal(row.getCell(phoneAt).value, "12345"); // the values as uploaded
      seen.add(sourceRow);
    });
    assert.deepEqual([...seen].sort(), [...expectedBad.keys()].sort());
  });

  test("importing the same file again reuses what exists and creates nothing", async () => {
    const before = await counts(server.db, tenantA.tenantId);
    const res = await post("/api/blade-pms/room/import", tenantA.token, file);
    assert.equal(res.statusCode, 200, res.body);
    const data = res.json().data;
    assert.deepEqual([data.imported, data.unchanged, data.rejected], [good, good, expectedBad.size]);
    assert.deepEqual(data.creates, { areas: 0, rooms: 0, owners: 0, meters: 0, waters: 0, links: 0 });
    assert.deepEqual(await counts(server.db, tenantA.tenantId), before);
  });

  test("an unexpected database error mid-write leaves nothing behind", async () => {
    const before = await counts(server.db, tenantA.tenantId);
    const rows = await readImportSheet(
      await workbook([
        {
          ...goodRow(0),
          区域路径: "新园区/1号楼",
          电表表号: "300000000001",
          业主编号: "N1",
          水表表号: "",
          收费方案: "",
        },
      ]),
    );
    const [user] = await server.db.query<{ id: string }>(
      "select id::text from sys_user where tenant_id = $1",
      [tenantA.tenantId],
    );
    const caller = serviceUser(tenantA.tenantId, "admin", { userId: user!.id });
    // The room meter links are written last: fail there, after areas, rooms, owners and meters went in.
    const failing: Db = {
      ...server.db,
      transaction: (fn) =>
        server.db.transaction((tx) =>
          fn({
            query: (sql, params) =>
              sql.startsWith('insert into "pms_room_meter"')
                ? Promise.reject(new Error("disk full"))
                : tx.query(sql, params),
          }),
        ),
    };
    await assert.rejects(
      runImport(failing, caller, rows, "Asia/Shanghai", new FieldCipher(server.dataKey)),
      /disk full/,
    );
    assert.deepEqual(await counts(server.db, tenantA.tenantId), before);
    // The same rows on a healthy database: the failure above really was in the middle of writing.
    const result = await runImport(server.db, caller, rows, "Asia/Shanghai", new FieldCipher(server.dataKey));
    assert.deepEqual([result.imported, result.creates.areas, result.creates.links], [1, 2, 2]);
  });

  test("the import needs room_import, which a tenant's operator may hold", async () => {
    const denied = await addRole(server.db, tenantA.tenantId, "clerk");
    await addUser(server.db, {
      tenantId: tenantA.tenantId,
      account: "clerk",
      password: "pw-clerk",
      roleIds: [denied],
    });
    const clerk = (await server.login("clerk", "pw-clerk", tenantA.tenantId)).access_token;
    const small = await workbook([goodRow(0)]);
    for (const url of ["/api/blade-pms/room/import-preview", "/api/blade-pms/room/import"]) {
      assert.equal((await post(url, clerk, small)).statusCode, 403, url);
    }
    const template = await server.call("GET", "/api/blade-pms/room/import-template", clerk);
    assert.equal(template.statusCode, 403);

    const granted = await addRole(server.db, tenantA.tenantId, "operator");
    await server.db.query(
      "insert into sys_role_menu (id, menu_id, role_id) select $1, id, $2 from sys_menu where code = 'room_import'",
      [nextId(), granted],
    );
    await addUser(server.db, {
      tenantId: tenantA.tenantId,
      account: "op",
      password: "pw-op",
      roleIds: [granted],
    });
    const operator = (await server.login("op", "pw-op", tenantA.tenantId)).access_token;
    const res = await post("/api/blade-pms/room/import-preview", operator, small);
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().data.valid, 1);
  });

  test("another tenant's import neither sees nor touches the first tenant's rows", async () => {
    const admin = (await server.login()).access_token;
    const tenantB = await provisionTenant(server, admin, "月亮湾公寓");
    const beforeA = await counts(server.db, tenantA.tenantId);
    // The same paths, room names, owner codes and meter addresses as tenant A's rows, and A's collector.
    const rows = [goodRow(1), goodRow(3), { ...goodRow(5), 收费方案: "" }, goodRow(2)];
    const res = await post("/api/blade-pms/room/import", tenantB.token, await workbook(rows));
    assert.equal(res.statusCode, 200, res.body);
    const data = res.json().data;
    assert.deepEqual([data.imported, data.rejected], [3, 1]);
    assert.deepEqual(data.creates, { areas: 3, rooms: 3, owners: 3, meters: 3, waters: 3, links: 9 });
    const download = await server.inject({ method: "GET", url: data.rejectedFile });
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(download.rawPayload as unknown as ArrayBuffer);
    const reasonColumn = (book.worksheets[0]!.getRow(1).values as unknown[]).indexOf("失败原因");
    assert.match(
      String(book.worksheets[0]!.getRow(2).getCell(reasonColumn).value),
      /^采集器注册码: \[DTU-IMPORT-A1\] 不存在$/,
    );
    assert.deepEqual(await counts(server.db, tenantA.tenantId), beforeA);
    assert.equal(await count(server.db, "pms_room", tenantB.tenantId), 3);
    const [areaOwners] = await server.db.query<{ n: string }>(
      `select count(distinct a.tenant_id) as n from pms_room r join pms_area a on a.id = r.area_id
        where r.tenant_id = $1`,
      [tenantB.tenantId],
    );
    assert.equal(Number(areaOwners!.n), 1); // B's rooms hang in B's own areas
  });

  test("a file that is not an .xlsx is refused naming file", async () => {
    const csv = await post(
      "/api/blade-pms/room/import",
      tenantA.token,
      Buffer.from("区域路径,房间名称\n"),
      "rooms.csv",
    );
    assert.equal(csv.statusCode, 400);
    assert.match(csv.json().msg, /^file: /);
    const fake = await post(
      "/api/blade-pms/room/import-preview",
      tenantA.token,
      Buffer.from("not a zip"),
      "rooms.xlsx",
    );
    assert.equal(fake.statusCode, 400);
    assert.match(fake.json().msg, /^file: 无法读取/);
    const json = await server.call("POST", "/api/blade-pms/room/import", tenantA.token, { file: "x" });
    assert.equal(json.statusCode, 400);
    assert.match(json.json().msg, /^file: /);
    const book = new ExcelJS.Workbook();
    book.addWorksheet("x").addRow(["姓名", "电话"]);
    const other = await post(
      "/api/blade-pms/room/import",
      tenantA.token,
      Buffer.from(await book.xlsx.writeBuffer()),
    );
    assert.equal(other.statusCode, 400);
    assert.match(other.json().msg, /^file: 缺少列 区域路径、房间名称$/);
  });

  test("oversized uploads are refused before they are read", async () => {
    const large = await post("/api/blade-pms/room/import", tenantA.token, Buffer.alloc(11 * 1024 * 1024));
    assert.equal(large.statusCode, 400);
    assert.match(large.json().msg, /^file: 文件不能超过 10MB$/);
    // An archive whose directory claims a huge sheet (a compression bomb) is not inflated.
    const bomb = await workbook([goodRow(0)]);
    const entry = bomb.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    bomb.writeUInt32LE(0x7fff_ffff, entry + 24);
    const inflated = await post("/api/blade-pms/room/import", tenantA.token, bomb);
    assert.equal(inflated.statusCode, 400);
    assert.match(inflated.json().msg, /^file: 解压后的内容超过上限 64MB$/);
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet("房间档案");
    sheet.addRow(["区域路径", "房间名称"]);
    for (let i = 0; i <= 10_000; i++) sheet.addRow(["园区", `${i}`]);
    const many = await post(
      "/api/blade-pms/room/import-preview",
      tenantA.token,
      Buffer.from(await book.xlsx.writeBuffer()),
    );
    assert.equal(many.statusCode, 400);
    assert.match(many.json().msg, /^file: 文件行数超过上限 10000$/);
  });
});
