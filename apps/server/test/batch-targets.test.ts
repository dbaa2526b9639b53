import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { provisionTenant } from "./fixtures.ts";
import { buildSite, created, get, treeIds, useRegistrySuite } from "./registry-fixtures.ts";

/**
 * Batches aimed at an area of the tree: the meters below it are read by the list's own predicates
 * (tenant, data scope), so the count the operator confirms is what a list of them would show.
 */
describe("batch targets: the meters of an area, and the area tree of one tenant", () => {
  const suite = useRegistrySuite();

  test("an area names the meters of its rooms and below, electric and water apart", async () => {
    const { server, admin, site } = suite;
    const park = await get(server, admin, `meter/matching-ids?areaId=${site.park}`);
    assert.deepEqual([park.total, park.ids], [1, [site.meter]]);
    assert.deepEqual(park.names, ["100000000101"]);
    const building = await get(server, admin, `water/matching-ids?areaId=${site.building1}`);
    assert.deepEqual(building.ids, [site.water]);
    // A building without linked meters targets none, and the list agrees with the batch.
    assert.equal((await get(server, admin, `meter/matching-ids?areaId=${site.building2}`)).total, 0);
    assert.equal((await get(server, admin, `meter/page?areaId=${site.park}`)).total, 1);

    const bad = await server.call("GET", "/api/blade-pms/meter/matching-ids?areaId=abc", admin);
    assert.equal(bad.statusCode, 400);
    assert.match(bad.json().msg, /areaId/);
  });

  test("another tenant's area targets nothing; a data scope narrows the count", async () => {
    const { server, admin, site } = suite;
    const other = await provisionTenant(server, admin, "区域批量租户");
    const theirs = await buildSite(server, other.token, "B");
    // Their admin aiming at our park (or naming our tenant) reaches none of our meters.
    const across = await get(server, other.token, `meter/matching-ids?areaId=${site.park}&tenantId=000000`);
    assert.deepEqual([across.total, across.ids], [0, []]);

    // A second meter in their park, written by someone else.
    const foreignMeter = await created(server, other.token, "meter/save", {
      productCode: "900000000102",
      collectorId: theirs.collector,
      channel: 2,
    });
    await created(server, other.token, "roommeter/submit", {
      roomId: theirs.room102,
      energyType: 1,
      meterId: foreignMeter,
    });
    const before = await get(server, other.token, `meter/matching-ids?areaId=${theirs.park}`);
    assert.equal(before.total, 2);
    await server.db.query("update pms_meter set create_user = 1 where id = $1", [foreignMeter]);

    // Their role may see only the meters its users wrote (scope type 2, the creator).
    const [menu] = await server.db.query<{ id: string }>("select id from sys_menu where code = 'meter'");
    const rule = await server.call("POST", "/api/blade-system/data-scope/submit", admin, {
      menuId: menu!.id,
      resourceCode: "meter",
      scopeName: "本人表计",
      scopeColumn: "createUser",
      scopeType: 2,
    });
    assert.equal(rule.statusCode, 200, rule.body);
    await server.db.query(
      "insert into sys_role_scope (id, scope_category, scope_id, role_id) values ($1, 1, $2, $3)",
      [String(Date.now()), rule.json().data.id, other.roleId],
    );
    const scoped = await get(server, other.token, `meter/matching-ids?areaId=${theirs.park}`);
    assert.deepEqual([scoped.total, scoped.ids], [1, [theirs.meter]]);
    assert.equal((await get(server, other.token, `meter/page?areaId=${theirs.park}`)).total, 1);

    // The platform administrator, who crosses tenants, names their tenant and sees both.
    const platform = await get(
      server,
      admin,
      `meter/matching-ids?areaId=${theirs.park}&tenantId=${other.tenantId}`,
    );
    assert.equal(platform.total, 2);

    // The confirmed ids go through the command lifecycle: queued once, skipped while unsettled.
    const sent = await server.call("POST", "/api/blade-pms/message/switchBatch", other.token, {
      meterIds: scoped.ids,
      switchType: 2,
    });
    assert.equal(sent.json().data.queued, 1, sent.body);
    const again = await server.call("POST", "/api/blade-pms/message/switchBatch", other.token, {
      meterIds: scoped.ids,
      switchType: 2,
    });
    assert.deepEqual([again.json().data.queued, again.json().data.skipped.length], [0, 1]);

    // A hand-made request naming the meter outside their scope reads it as absent: named, left
    // out, nothing queued.
    const outside = await server.call("POST", "/api/blade-pms/message/switchBatch", other.token, {
      meterIds: [foreignMeter],
      switchType: 2,
    });
    assert.equal(outside.statusCode, 200, outside.body);
    assert.deepEqual(
      outside.json().data.skipped.map((s: { meterId: string; reason: string }) => [s.meterId, s.reason]),
      [[foreignMeter, "表计不存在"]],
    );
    const [queued] = await server.db.query<{ n: string }>(
      "select count(*)::text as n from pms_meter_command where meter_id = $1",
      [foreignMeter],
    );
    assert.equal(queued!.n, "0");
  });

  test("the area tree follows the tenant the platform administrator names, and only its", async () => {
    const { server, admin, site } = suite;
    const other = await provisionTenant(server, admin, "区域树租户");
    const theirs = await buildSite(server, other.token, "C");
    const everyone = treeIds(await get(server, admin, "area/tree"));
    assert.ok(everyone.includes(site.park) && everyone.includes(theirs.park));
    const narrowed = treeIds(await get(server, admin, `area/tree?tenantId=${other.tenantId}`));
    assert.deepEqual(narrowed.sort(), [theirs.park, theirs.building1, theirs.building2].sort());
    // A tenant's user naming another tenant still sees its own areas alone.
    const own = treeIds(await get(server, other.token, "area/tree?tenantId=000000"));
    assert.deepEqual(own.sort(), narrowed);
    const bad = await server.call("GET", "/api/blade-pms/area/tree?tenantId=x'--", admin);
    assert.equal(bad.statusCode, 400);
  });

  test("removing every matching row: ids in the body, one call, all or none", async () => {
    const { server, admin, site } = suite;
    const wing = await created(server, admin, "area/save", { parentId: site.park, areaName: "3号楼" });
    for (const name of ["301", "302", "303"])
      await created(server, admin, "room/save", { areaId: wing, roomName: name });
    const matching = await get(server, admin, `room/matching-ids?areaId=${wing}`);
    assert.equal(matching.total, 3);

    // Another tenant naming them removes nothing, not even its own rows sent along.
    const other = await provisionTenant(server, admin, "删除租户");
    const theirs = await buildSite(server, other.token, "D");
    const across = await server.call("POST", "/api/blade-pms/room/remove", other.token, {
      ids: [...matching.ids, theirs.room201].join(","),
    });
    assert.equal(across.statusCode, 404);
    assert.equal((await get(server, other.token, "room/page")).total, 3);
    assert.equal((await get(server, admin, `room/matching-ids?areaId=${wing}`)).total, 3);

    const removed = await server.call("POST", "/api/blade-pms/room/remove", admin, {
      ids: matching.ids.join(","),
    });
    assert.equal(removed.statusCode, 200, removed.body);
    assert.equal((await get(server, admin, `room/matching-ids?areaId=${wing}`)).total, 0);
  });
});
