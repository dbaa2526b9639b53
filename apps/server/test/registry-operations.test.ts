import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { FieldCipher } from "../src/crud/field-cipher.ts";
import { provisionTenant } from "./fixtures.ts";
import { created, get, type RegistrySuite, useRegistrySuite } from "./registry-fixtures.ts";

describe("registry: owner groups, schemes, payment settings, topology", () => {
  const suite = useRegistrySuite();
  const post: RegistrySuite["post"] = (...args) => suite.post(...args);

  test("owners join and leave groups; a group's cut queues a command per meter", async () => {
    const group = await created(suite.server, suite.admin, "ownerGroup/save", { groupName: "一号楼住户" });
    const other = await created(suite.server, suite.admin, "ownerGroup/submit", { groupName: "商铺" });
    const loner = await created(suite.server, suite.admin, "owner/submit", { ownerName: "孤客" });
    const free = await get(suite.server, suite.admin, "ownerGroup/unbindOwnerGroup");
    assert.ok(
      free.some((o: { id: string }) => o.id === suite.site.owner) &&
        free.some((o: { id: string }) => o.id === loner),
    );

    const bound = await post("ownerGroup/bindOwner", { pid: group, childIdList: [suite.site.owner, loner] });
    assert.deepEqual(bound.json().data, { bound: 2 });
    const members = await get(suite.server, suite.admin, `owner/page?ownerGroupId=${group}&size=10`);
    assert.deepEqual(
      members.records.map((o: { id: string }) => o.id).sort(),
      [suite.site.owner, loner].sort(),
    );
    const mine = members.records.find((o: { id: string }) => o.id === suite.site.owner);
    assert.equal(mine.ownerGroupName, "一号楼住户");
    assert.equal(mine.roomNames, "1号楼 101");
    assert.ok(
      !(await get(suite.server, suite.admin, "ownerGroup/unbindOwnerGroup")).some(
        (o: { id: string }) => o.id === loner,
      ),
    );
    const elsewhere = await post("ownerGroup/bindOwner", { pid: other, childIdList: loner });
    assert.match(elsewhere.json().msg, /^childIdList: 业主 \[孤客\] 已在分组 \[一号楼住户\] 中/);
    assert.match((await post(`ownerGroup/remove?ids=${group}`)).json().msg, /还有 2 位业主/);

    const cut = await post(`ownerGroup/closeMeter?id=${group}`);
    assert.equal(cut.statusCode, 200, cut.body);
    assert.equal(cut.json().data.queued, 2);
    assert.equal(cut.json().msg, "已下发 2 条断电命令");
    const commands = await suite.server.db.query<{
      meter_id: string;
      command_type: string;
      payload: string;
      state: string;
    }>(
      "select meter_id::text as meter_id, command_type, payload, state from pms_meter_command where batch_id = $1 order by energy_type",
      [cut.json().data.batchId],
    );
    assert.deepEqual(
      commands.map((c) => [c.meter_id, c.command_type, JSON.parse(c.payload), c.state]),
      [
        [suite.site.meter, "switch", { switchType: 2 }, "queued"],
        [suite.site.water, "valve", { open: false }, "queued"],
      ],
    );
    // A second cut while those are open sends nothing twice and says so.
    const again = await post(`ownerGroup/closeMeter?id=${group}`);
    assert.deepEqual([again.json().data.queued, again.json().data.skipped.length], [0, 2]);
    assert.equal(again.json().msg, "已下发 0 条断电命令，2 块表未下发");
    assert.match((await post(`ownerGroup/closeMeter?id=${other}`)).json().msg, /没有表计/);

    await post(`ownerGroup/unbindOwner?relationId=${mine.relationId}`);
    assert.equal((await get(suite.server, suite.admin, `owner/page?ownerGroupId=${group}`)).total, 1);
    const log = await get(suite.server, suite.admin, `owner/getOwnerLog?ownerId=${suite.site.owner}`);
    assert.deepEqual(
      log.records.slice(0, 2).map((r: { action: string }) => r.action),
      ["leaveGroup", "joinGroup"],
    );
    const list = await get(suite.server, suite.admin, "ownerGroup/list");
    assert.deepEqual(
      list.map((g: { groupName: string }) => g.groupName).sort(),
      ["一号楼住户", "商铺"].sort(),
    );
  });

  test("owner-group calls stay inside the tenant and behind their buttons", async () => {
    const group = await created(suite.server, suite.admin, "ownerGroup/save", { groupName: "本租户" });
    const other = await provisionTenant(suite.server, suite.admin, "邻居");
    assert.equal((await post(`ownerGroup/closeMeter?id=${group}`, undefined, other.token)).statusCode, 404);
    const foreignOwner = await post(
      "ownerGroup/bindOwner",
      { pid: group, childIdList: [suite.site.owner] },
      other.token,
    );
    assert.equal(foreignOwner.statusCode, 404);
    const theirGroup = await created(suite.server, other.token, "ownerGroup/save", { groupName: "他们的" });
    const stealing = await post(
      "ownerGroup/bindOwner",
      { pid: theirGroup, childIdList: [suite.site.owner] },
      other.token,
    );
    assert.equal(stealing.statusCode, 404);
    assert.ok(
      !(await get(suite.server, other.token, "ownerGroup/unbindOwnerGroup")).some(
        (o: { id: string }) => o.id === suite.site.owner,
      ),
    );
  });

  test("charging schemes are checked by price mode and kept in canonical form", async () => {
    const bad = async (body: Record<string, unknown>, message: RegExp) => {
      const res = await post("chargingscheme/submit", {
        schemeName: `s${Math.random()}`,
        energyType: 1,
        ...body,
      });
      assert.equal(res.statusCode, 400, res.body);
      assert.match(res.json().msg, message);
    };
    await bad({ priceMode: 1 }, /^price: /);
    await bad({ priceMode: 2, ladder: "[]" }, /^ladderCycle: /);
    await bad(
      { priceMode: 2, ladderCycle: 2, ladder: '[{"limit":"100","price":"1"},{"limit":"50","price":"2"}]' },
      /^ladder: /,
    );
    await bad(
      { priceMode: 3, touPeriods: '[{"start":"00:00","end":"12:00","band":"peak"}]', peakPrice: "1" },
      /^touPeriods: .*未覆盖全天/,
    );
    await bad(
      { priceMode: 3, touPeriods: '[{"start":"00:00","end":"24:00","band":"peak"}]' },
      /^peakPrice: /,
    );
    await bad({ priceMode: 1, price: "0.12345" }, /^price: /);

    const tou = await created(suite.server, suite.admin, "chargingscheme/submit", {
      schemeName: "分时",
      energyType: 1,
      priceMode: 3,
      peakPrice: "1.1",
      lowPrice: "0.3",
      touPeriods: JSON.stringify([
        { start: "22:00", end: "08:00", band: "low" },
        { start: "08:00", end: "22:00", band: "peak" },
      ]),
    });
    const stored = await get(suite.server, suite.admin, `chargingscheme/detail?id=${tou}`);
    assert.deepEqual(
      JSON.parse(stored.touPeriods).map((p: { start: string }) => p.start),
      ["08:00", "22:00"],
    );
    assert.equal(stored.priceModeName, "分时价格");
    // A partial update is checked against the whole stored row.
    const partial = await post("chargingscheme/submit", { id: tou, peakPrice: "" });
    assert.match(partial.json().msg, /^peakPrice: /);
    // A scheme in use cannot be removed.
    await post("meter/submit", { id: suite.site.meter, chargingSchemeId: tou });
    assert.match((await post(`chargingscheme/remove?ids=${tou}`)).json().msg, /收费方案仍被 1 条电表使用/);
  });

  test("alarm schemes: falling amounts, protection windows, known channels", async () => {
    const body = { schemeName: "a", energyType: 1, firstAlarm: "50", secondAlarm: "20" };
    assert.match(
      (await post("alarmscheme/submit", { ...body, secondAlarm: "60" })).json().msg,
      /^firstAlarm: /,
    );
    assert.match(
      (await post("alarmscheme/submit", { ...body, protectTimes: "[{}]" })).json().msg,
      /^protectTimes: /,
    );
    assert.match(
      (await post("alarmscheme/submit", { ...body, protectDates: '["2026-13-01"]' })).json().msg,
      /^protectDates: /,
    );
    assert.match(
      (await post("alarmscheme/submit", { ...body, notifyChannels: "sms,pigeon" })).json().msg,
      /^notifyChannels: .*pigeon/,
    );
    const id = await created(suite.server, suite.admin, "alarmscheme/submit", {
      ...body,
      protectDates: '["weekend","2026-10-01"]',
      notifyChannels: "sms, console,sms",
    });
    const row = await get(suite.server, suite.admin, `alarmscheme/detail?id=${id}`);
    assert.deepEqual(JSON.parse(row.protectDates), ["2026-10-01", "weekend"]);
    assert.equal(row.notifyChannels, "sms,console");
  });

  test("WeChat keys are stored encrypted, answered masked, and kept when the mask comes back", async () => {
    const id = await created(suite.server, suite.admin, "wxconfig/submit", {
      appId: "wx1234567890",
      mchId: "1900000109",
      apiKey: "ABCDEFGHIJKLMNOPQRSTUVWXYZ012345",
      privateKey: "-----BEGIN PRIVATE KEY-----secret-----END PRIVATE KEY-----",
    });
    const row = await get(suite.server, suite.admin, `wxconfig/detail?id=${id}`);
    assert.equal(row.apiKey, "****2345");
    const listed = await suite.server.call("GET", "/api/blade-pms/wxconfig/list", suite.admin);
    assert.ok(!listed.body.includes("ABCDEFGH") && !listed.body.includes("secret"));
    const [stored] = await suite.server.db.query<{ api_key: string }>(
      "select api_key from pms_wx_config where id = $1",
      [id],
    );
    assert.ok(!stored!.api_key.includes("ABCDEFGH"));
    await post("wxconfig/submit", { ...row, notifyUrl: "https://example.com/pay" });
    const [kept] = await suite.server.db.query<{ api_key: string }>(
      "select api_key from pms_wx_config where id = $1",
      [id],
    );
    assert.equal(kept!.api_key, stored!.api_key);
    // The server (and only the suite.server) can read it back with its key.
    assert.equal(
      new FieldCipher(suite.server.dataKey).decrypt(kept!.api_key),
      "ABCDEFGHIJKLMNOPQRSTUVWXYZ012345",
    );
    assert.equal(new FieldCipher("another secret of enough length!").decrypt(kept!.api_key), undefined);
    const exported = await suite.server.call("GET", "/api/blade-pms/wxconfig/export", suite.admin);
    assert.ok(!exported.rawPayload.includes(Buffer.from("ABCDEFGH")));
  });

  test("the topology is a tree of area, collector and meter; the room meter page joins what operators read", async () => {
    const tree = await get(suite.server, suite.admin, `area/topologyDiagram?areaId=${suite.site.building1}`);
    assert.equal(tree.roots.length, 1);
    const [building] = tree.roots;
    assert.deepEqual(
      [building.id, building.category, building.meters, building.offline],
      [suite.site.building1, "area", 2, 2],
    );
    assert.deepEqual(
      building.children.map((c: { id: string; category: string; name: string }) => [
        c.id,
        c.category,
        c.name,
      ]),
      [[`${suite.site.building1}-${suite.site.collector}`, "collector", "1号楼 DTU"]],
    );
    assert.deepEqual(
      building.children[0].children.map(
        (m: { id: string; category: string; room: string; online: number }) => [
          m.id,
          m.category,
          m.room,
          m.online,
        ],
      ),
      [
        [suite.site.meter, "meter", "101", 0],
        [suite.site.water, "water", "101", 0],
      ],
    );
    assert.deepEqual([tree.meters, tree.offline, tree.truncated], [2, 2, false]);
    const whole = await get(suite.server, suite.admin, "area/topologyDiagram");
    const park = whole.roots.find((r: { id: string }) => r.id === suite.site.park);
    assert.deepEqual(
      park.children.map((c: { id: string; meters: number }) => [c.id, c.meters]),
      [
        [suite.site.building1, 2],
        [suite.site.building2, 0],
      ],
    );

    const page = await get(
      suite.server,
      suite.admin,
      `roommeter/roomMeterPage?areaId=${suite.site.park}&size=10`,
    );
    assert.equal(page.total, 2);
    assert.deepEqual(
      page.records.map(
        (r: { energyType: number; productCode: string; ownerName: string; areaName: string }) => [
          r.energyType,
          r.productCode,
          r.ownerName,
          r.areaName,
        ],
      ),
      [
        [1, "100000000101", "张三", "1号楼"],
        [2, "10000000000101", "张三", "1号楼"],
      ],
    );
    assert.equal(
      (await get(suite.server, suite.admin, "roommeter/roomMeterPage?energyType=2&productCode=0101")).total,
      1,
    );
    assert.equal(
      (await suite.server.call("GET", "/api/blade-pms/roommeter/roomMeterPage?energyType=9", suite.admin))
        .statusCode,
      400,
    );
  });
  test("a collector wired to two buildings appears under each with that building's meters only", async () => {
    const meter = await created(suite.server, suite.admin, "meter/save", {
      productCode: "300000000201",
      collectorId: suite.site.collector,
      channel: 2,
    });
    await created(suite.server, suite.admin, "roommeter/submit", {
      roomId: suite.site.room201,
      energyType: 1,
      meterId: meter,
    });
    const tree = await get(suite.server, suite.admin, `area/topologyDiagram?areaId=${suite.site.park}`);
    const [park] = tree.roots;
    const under = (building: string) =>
      park.children
        .find((b: { id: string }) => b.id === building)
        .children.map((c: { name: string; children: { id: string }[] }) => [
          c.name,
          c.children.map((m) => m.id),
        ]);
    assert.deepEqual(under(suite.site.building2), [["1号楼 DTU", [meter]]]);
    assert.deepEqual(under(suite.site.building1), [["1号楼 DTU", [suite.site.meter, suite.site.water]]]);
    assert.equal(park.meters, 3);
    const building2 = await get(
      suite.server,
      suite.admin,
      `area/topologyDiagram?areaId=${suite.site.building2}`,
    );
    assert.deepEqual(
      building2.roots[0].children.map((c: { children: { id: string }[] }) => c.children.map((m) => m.id)),
      [[meter]],
      "filtered to one building, the shared DTU holds that building's meter only",
    );
  });
});
