import assert from "node:assert/strict";
import { describe, test } from "node:test";
import ExcelJS from "exceljs";
import { provisionTenant } from "./fixtures.ts";
import {
  buildSite,
  created,
  get,
  type RegistrySuite,
  treeIds,
  useRegistrySuite,
} from "./registry-fixtures.ts";

describe("registry: areas, rooms, owners, meters and their links", () => {
  const suite = useRegistrySuite();
  const post: RegistrySuite["post"] = (...args) => suite.post(...args);

  test("areas: save creates only, update changes only, trees and lazy levels", async () => {
    assert.match((await post("area/save", { id: suite.site.park, areaName: "x" })).json().msg, /^id: /);
    assert.equal((await post("area/update", { areaName: "x" })).json().msg, "缺少必要的请求参数: id");
    assert.equal(
      (await post("area/update", { id: suite.site.building2, areaName: "2号楼(东)" })).statusCode,
      200,
    );
    const tree = await get(suite.server, suite.admin, "area/tree");
    assert.deepEqual(treeIds(tree), [suite.site.park, suite.site.building1, suite.site.building2]);
    const level = await get(suite.server, suite.admin, `area/lazy-tree?parentId=${suite.site.park}`);
    assert.deepEqual(
      level.map((n: { title: string; hasChildren: boolean }) => [n.title, n.hasChildren]),
      [
        ["1号楼", false],
        ["2号楼(东)", false],
      ],
    );
    const detail = await get(suite.server, suite.admin, `area/detail?id=${suite.site.building1}`);
    assert.equal(detail.parentName, "阳光园区");
    assert.equal((await post("area/submit", { areaName: "nope" })).statusCode, 404);
  });

  test("removing what is still linked is refused with the reason", async () => {
    const refused = async (path: string, message: RegExp) => {
      const res = await post(path);
      assert.equal(res.statusCode, 400, res.body);
      assert.match(res.json().msg, message);
    };
    await refused(`area/remove?ids=${suite.site.park}`, /请先删除子节点/);
    await refused(`area/remove?ids=${suite.site.building1}`, /区域仍被 2 条房间使用,不能删除/);
    await refused(`room/remove?ids=${suite.site.room101}`, /房间仍被 1 条业主房间使用/);
    await refused(`meter/remove?ids=${suite.site.meter}`, /电表仍被 1 条房间表计使用/);
    await refused(`water/remove?ids=${suite.site.water}`, /水表仍被 1 条房间表计使用/);
    await refused(`collector/delete?ids=${suite.site.collector}`, /采集器仍被 1 条电表使用/);
    await refused(`owner/remove?ids=${suite.site.owner}`, /业主仍被 1 条业主房间使用/);
    // The collector's remove path is `delete` (spec §7), so `remove` does not exist for it.
    assert.equal((await post(`collector/remove?ids=${suite.site.collector}`)).statusCode, 404);
    // An empty room goes.
    const spare = await created(suite.server, suite.admin, "room/save", {
      areaId: suite.site.building2,
      roomName: "299",
    });
    assert.equal((await post(`room/remove?ids=${spare}`)).statusCode, 200);
  });

  test("rooms by area include every area below; detail finds a room's meter link by roomId", async () => {
    const all = await get(suite.server, suite.admin, `room/page?areaId=${suite.site.park}&size=50`);
    assert.deepEqual(all.records.map((r: { roomName: string }) => r.roomName).sort(), ["101", "102", "201"]);
    assert.equal(all.records.find((r: { roomName: string }) => r.roomName === "101").areaName, "1号楼");
    const one = await get(suite.server, suite.admin, `room/page?areaId=${suite.site.building2}`);
    assert.deepEqual(
      one.records.map((r: { roomName: string }) => r.roomName),
      ["201"],
    );
    const link = await get(
      suite.server,
      suite.admin,
      `roommeter/detail?roomId=${suite.site.room101}&energyType=2`,
    );
    assert.equal(link.meterId, suite.site.water);
    assert.equal(link.meterName, "10000000000101");
    assert.equal(
      (await suite.server.call("GET", "/api/blade-pms/roommeter/detail", suite.admin)).statusCode,
      400,
    );
  });

  test("collectors by area, and the pickers of collectors and schemes", async () => {
    assert.equal((await get(suite.server, suite.admin, `collector/page?areaId=${suite.site.park}`)).total, 1);
    assert.equal(
      (await get(suite.server, suite.admin, `collector/page?areaId=${suite.site.building2}`)).total,
      0,
    );
    const collectors = await get(suite.server, suite.admin, "collector/select");
    assert.deepEqual(
      collectors.map((c: { id: string }) => c.id),
      [suite.site.collector],
    );
    const scheme = await created(suite.server, suite.admin, "chargingscheme/submit", {
      schemeName: "平价",
      energyType: 1,
      priceMode: 1,
      price: "0.6",
    });
    const alarm = await created(suite.server, suite.admin, "alarmscheme/submit", {
      schemeName: "提醒",
      energyType: 1,
      firstAlarm: "30",
      secondAlarm: "10",
    });
    assert.ok(
      (await get(suite.server, suite.admin, "chargingscheme/select")).some(
        (s: { id: string }) => s.id === scheme,
      ),
    );
    assert.ok(
      (await get(suite.server, suite.admin, "alarmscheme/select")).some(
        (s: { id: string }) => s.id === alarm,
      ),
    );
    const meter = await created(suite.server, suite.admin, "meter/save", {
      productCode: "100000000555",
      chargingSchemeId: scheme,
      alarmSchemeId: alarm,
    });
    const row = await get(suite.server, suite.admin, `meter/detail?id=${meter}`);
    assert.deepEqual([row.chargingSchemeName, row.alarmSchemeName], ["平价", "提醒"]);
    assert.equal((await post(`meter/remove?ids=${meter}`)).statusCode, 200);
  });

  test("room meters by area, also in the export; free water meters by collector", async () => {
    const { server, admin, site } = suite;
    assert.equal((await get(server, admin, `roommeter/page?areaId=${site.building1}`)).total, 2);
    assert.equal((await get(server, admin, `roommeter/page?areaId=${site.building2}`)).total, 0);
    const exported = await server.call(
      "GET",
      `/api/blade-pms/roommeter/export?areaId=${site.building2}`,
      admin,
    );
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(exported.rawPayload as unknown as ArrayBuffer);
    assert.equal(book.worksheets[0]!.rowCount, 1, "only the header: building 2 has no meters");
    const spare = await created(server, admin, "water/submit", {
      productCode: "10000000009999",
      collectorId: site.collector,
    });
    const free = treeIds(await get(server, admin, "water/unbindTree"));
    assert.ok(free.includes(spare) && !free.includes(site.water));
    assert.equal((await suite.post(`water/remove?ids=${spare}`)).statusCode, 200);
  });

  test("links check the meter of the energy type, one room per meter, one owner per room", async () => {
    const wrongKind = await post("roommeter/submit", {
      roomId: suite.site.room102,
      energyType: 1,
      meterId: suite.site.water,
    });
    assert.equal(wrongKind.json().msg, "meterId: 所选电表不存在");
    const twice = await post("roommeter/submit", {
      roomId: suite.site.room102,
      energyType: 1,
      meterId: suite.site.meter,
    });
    assert.match(twice.json().msg, /^meterId: .*已存在/);
    const owner2 = await created(suite.server, suite.admin, "owner/submit", { ownerName: "李四" });
    const taken = await post("ownerroom/submit", { ownerId: owner2, roomId: suite.site.room101 });
    assert.match(taken.json().msg, /^roomId: .*已存在/);
    assert.match((await post("meter/save", { productCode: "12345" })).json().msg, /^productCode: /);
    const duplicate = await post("meter/save", { productCode: "100000000101" });
    assert.match(duplicate.json().msg, /^productCode: .*已存在/);
  });

  test("picker trees list only what is still free", async () => {
    const withoutElectric = treeIds(await get(suite.server, suite.admin, "room/unbindTree?energyType=1"));
    assert.ok(!withoutElectric.includes(suite.site.room101) && withoutElectric.includes(suite.site.room201));
    assert.ok(
      !withoutElectric.includes(suite.site.building1) || withoutElectric.includes(suite.site.room102),
    );
    assert.equal(
      (await suite.server.call("GET", "/api/blade-pms/room/unbindTree?energyType=3", suite.admin)).statusCode,
      400,
    );
    const withoutOwner = treeIds(await get(suite.server, suite.admin, "room/unbindOwnerTree"));
    assert.deepEqual(
      withoutOwner
        .filter((id) => [suite.site.room101, suite.site.room102, suite.site.room201].includes(id))
        .sort(),
      [suite.site.room102, suite.site.room201].sort(),
    );
    const ownerTree = await get(suite.server, suite.admin, "owner/tree");
    assert.ok(treeIds(ownerTree).includes(suite.site.owner));
    const free = await created(suite.server, suite.admin, "owner/submit", { ownerName: "王五" });
    const roomless = treeIds(await get(suite.server, suite.admin, "owner/unbindRoomTree"));
    assert.ok(roomless.includes(free) && !roomless.includes(suite.site.owner));

    const spare = await created(suite.server, suite.admin, "meter/save", {
      productCode: "100000000999",
      collectorId: suite.site.collector,
    });
    const unbound = await get(suite.server, suite.admin, "meter/unbindTree");
    assert.deepEqual(treeIds(unbound), [suite.site.collector, spare]);
    // Room 101 has an owner, so its unopened meter can be opened; an opened one can be closed.
    assert.ok(
      treeIds(await get(suite.server, suite.admin, "meter/treeOpenAccount")).includes(suite.site.meter),
    );
    assert.ok(!treeIds(await get(suite.server, suite.admin, "meter/treeOpenAccount")).includes(spare));
    const both = treeIds(await get(suite.server, suite.admin, "meter/treeOpenAccountNew"));
    assert.ok(both.includes(suite.site.meter) && both.includes(suite.site.water));
    await suite.server.db.query("update pms_meter set account_status = 1 where id = $1", [suite.site.meter]);
    assert.ok(
      treeIds(await get(suite.server, suite.admin, "meter/treeCloseAccount")).includes(suite.site.meter),
    );
    assert.ok(
      !treeIds(await get(suite.server, suite.admin, "meter/treeOpenAccount")).includes(suite.site.meter),
    );
    const removeOpen = await post(`meter/remove?ids=${suite.site.meter}`);
    assert.match(removeOpen.json().msg, /已开户,请先销户/, removeOpen.body);
    await suite.server.db.query("update pms_meter set account_status = 0 where id = $1", [suite.site.meter]);
    const meterTree = await get(suite.server, suite.admin, "meter/tree");
    const ids = treeIds(meterTree);
    assert.ok(
      ids.includes(suite.site.room101) && ids.includes(suite.site.meter) && ids.includes("uninstalled"),
    );
  });

  test("every change of an owner, its rooms and its money fields lands in its log", async () => {
    const owner = await created(suite.server, suite.admin, "owner/submit", {
      ownerName: "赵六",
      phone: "13900000009",
    });
    assert.equal(
      (await post("owner/submit", { id: owner, ownerName: "赵六", phone: "13900000010" })).statusCode,
      200,
    );
    const link = await created(suite.server, suite.admin, "ownerroom/submit", {
      ownerId: owner,
      roomId: suite.site.room201,
    });
    assert.equal((await post(`ownerroom/remove?ids=${link}`)).statusCode, 200);
    const log = await get(suite.server, suite.admin, `owner/getOwnerLog?ownerId=${owner}&current=1&size=10`);
    assert.deepEqual(
      log.records.map((r: { action: string }) => r.action),
      ["unbindRoom", "bindRoom", "update", "create"],
    );
    assert.deepEqual(JSON.parse(log.records[2].content), {
      phone: { from: "13900000009", to: "13900000010" },
    });
    assert.equal(log.records[0].ownerName, "赵六");
    assert.ok(log.records.every((r: { createUserName: string }) => r.createUserName !== ""));
    const paged = await get(suite.server, suite.admin, `owner/getOwnerLog?ownerId=${owner}&current=2&size=3`);
    assert.equal(paged.total, 4);
    assert.equal(paged.records.length, 1);
    // Money on the owner blocks removal; the refused removal writes no log entry.
    await suite.server.db.query("update pms_owner set balance = 12.5 where id = $1", [owner]);
    assert.match((await post(`owner/remove?ids=${owner}`)).json().msg, /余额为 12.50/);
    assert.equal((await get(suite.server, suite.admin, `owner/getOwnerLog?ownerId=${owner}`)).total, 4);
  });

  test("another tenant sees none of it and cannot link to it", async () => {
    const other = await provisionTenant(suite.server, suite.admin, "隔壁园区");
    const theirs = await buildSite(suite.server, other.token, "B");
    for (const path of ["room/tree", "owner/tree", "meter/tree", "area/tree"]) {
      const ids = treeIds(await get(suite.server, other.token, path));
      assert.ok(
        !ids.includes(suite.site.room101) &&
          !ids.includes(suite.site.meter) &&
          !ids.includes(suite.site.park),
        path,
      );
    }
    const across = await post(
      "roommeter/submit",
      { roomId: theirs.room102, energyType: 1, meterId: suite.site.meter },
      other.token,
    );
    assert.equal(across.json().msg, "meterId: 所选电表不存在");
    const ownerAcross = await post(
      "ownerroom/submit",
      { ownerId: suite.site.owner, roomId: theirs.room102 },
      other.token,
    );
    assert.equal(ownerAcross.json().msg, "ownerId: 所选业主不存在");
    assert.equal(
      (await suite.server.call("GET", `/api/blade-pms/room/detail?id=${suite.site.room101}`, other.token))
        .statusCode,
      404,
    );
    // The platform administrator names the tenant to look at.
    const adminView = treeIds(await get(suite.server, suite.admin, `room/tree?tenantId=${other.tenantId}`));
    assert.ok(adminView.includes(theirs.room101) && !adminView.includes(suite.site.room101));
    // A collector's registration id names one DTU across all tenants.
    const stolen = await post(
      "collector/submit",
      {
        collectorName: "x",
        collectorCode: (await get(suite.server, suite.admin, `collector/detail?id=${suite.site.collector}`))
          .collectorCode,
      },
      other.token,
    );
    assert.match(stolen.json().msg, /^collectorCode: .*已存在/);
  });
});
