import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { created, get, useRegistrySuite } from "./registry-fixtures.ts";

/** Rooms are named with their building wherever they are shown, joined in SQL with the rows. */
describe("room labels carry their building", () => {
  const suite = useRegistrySuite();

  test("owner-room links, owners, room meters and the room picker say 1号楼 101", async () => {
    const { server, admin, site } = suite;
    const links = await get(server, admin, `ownerroom/page?ownerId=${site.owner}`);
    assert.deepEqual(
      links.records.map((r: { roomName: string }) => r.roomName),
      ["1号楼 101"],
    );
    const owners = await get(server, admin, `owner/page?ownerName=张三`);
    assert.equal(owners.records[0].roomNames, "1号楼 101");
    const meters = await get(server, admin, `roommeter/page?areaId=${site.building1}`);
    assert.deepEqual(
      meters.records.map((r: { roomName: string }) => r.roomName),
      ["1号楼 101", "1号楼 101"],
    );
    const titles: string[] = [];
    const walk = (nodes: { title: string; children?: unknown[] }[]) => {
      for (const n of nodes) {
        titles.push(n.title);
        walk((n.children ?? []) as { title: string }[]);
      }
    };
    walk(await get(server, admin, "room/tree"));
    assert.ok(titles.includes("1号楼 102") && titles.includes("2号楼 201"), titles.join("|"));
  });

  test("a room right under the top area keeps that area's name, a deeper one its whole path", async () => {
    const { server, admin, site } = suite;
    const unit = await created(server, admin, "area/save", { parentId: site.building2, areaName: "1单元" });
    const deep = await created(server, admin, "room/save", { areaId: unit, roomName: "305" });
    const top = await created(server, admin, "room/save", { areaId: site.park, roomName: "门卫" });
    const owner = await created(server, admin, "owner/submit", { ownerName: "李四", ownerCode: "L4" });
    await created(server, admin, "ownerroom/submit", { ownerId: owner, roomId: deep });
    const owner2 = await created(server, admin, "owner/submit", { ownerName: "王五", ownerCode: "W5" });
    await created(server, admin, "ownerroom/submit", { ownerId: owner2, roomId: top });
    const label = async (ownerId: string) =>
      (await get(server, admin, `ownerroom/page?ownerId=${ownerId}`)).records[0].roomName;
    assert.equal(await label(owner), "2号楼 1单元 305");
    assert.equal(await label(owner2), "阳光园区 门卫");
  });
});
