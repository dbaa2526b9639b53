import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { GlobalSearchResult } from "@meterline/contracts";
import { nextId } from "../src/db/ids.ts";
import { addRole, addUser, provisionTenant } from "./fixtures.ts";
import { startTestServer, type TestServer } from "./helpers.ts";
import { buildSite, created } from "./registry-fixtures.ts";

/** The global search through HTTP, on PGlite or (TEST_DATABASE_URL) PostgreSQL, as the console calls it. */
describe("global search", () => {
  let server: TestServer;
  let own: Awaited<ReturnType<typeof provisionTenant>>;
  let site: Awaited<ReturnType<typeof buildSite>>;
  let room305: string;
  let otherSite: Awaited<ReturnType<typeof buildSite>>;
  let admin: string;

  const search = (token: string, query: Record<string, string>) =>
    server.call("GET", `/api/blade-pms/search?${new URLSearchParams(query)}`, token);
  const found = async (token: string, keyword: string, limit?: number): Promise<GlobalSearchResult> => {
    const res = await search(token, limit ? { keyword, limit: String(limit) } : { keyword });
    assert.equal(res.statusCode, 200, res.body);
    return res.json().data;
  };

  /** A user of the own tenant whose role holds only the screens named. */
  async function userWith(codes: string[]): Promise<string> {
    const role = await addRole(server.db, own.tenantId, `r${nextId()}`);
    await server.db.query(
      `insert into sys_role_menu (id, menu_id, role_id)
       select (select max(id) from sys_role_menu) + row_number() over () + 100000, m.id, $2
         from sys_menu m where m.code = any($1) and m.is_deleted = 0`,
      [codes, role],
    );
    const account = `u${nextId()}`;
    await addUser(server.db, { tenantId: own.tenantId, account, password: "pw-test", roleIds: [role] });
    return (await server.login(account, "pw-test", own.tenantId)).access_token;
  }

  before(async () => {
    server = await startTestServer();
    admin = (await server.login()).access_token;
    own = await provisionTenant(server, admin, "甲物业");
    const other = await provisionTenant(server, admin, "乙物业");
    site = await buildSite(server, own.token);
    // Room 305 in both buildings: "2号楼 305" must tell them apart.
    room305 = await created(server, own.token, "room/save", { areaId: site.building2, roomName: "305" });
    await created(server, own.token, "room/save", { areaId: site.building1, roomName: "305" });
    await created(server, own.token, "owner/submit", {
      ownerName: "李四",
      phone: "13912345678",
      idCard: "11010519491231002X",
    });
    // The other tenant has the same buildings, rooms, owner name and phone: none may be found.
    otherSite = await buildSite(server, other.token, "leak");
    await created(server, other.token, "room/save", { areaId: otherSite.building2, roomName: "305" });
  });
  after(() => server.close());

  test("finds a room by its building and number, answered with its whole path", async () => {
    const result = await found(own.token, "2号楼 305");
    assert.deepEqual(
      result.rooms.map((r) => [r.id, r.path]),
      [[room305, "阳光园区 / 2号楼 / 305"]],
    );
    // Words in any order and case, spread over the path.
    assert.deepEqual(
      (await found(own.token, "305   阳光园区 2号")).rooms.map((r) => r.id),
      [room305],
    );
    // One word alone finds both rooms 305; a whole building finds its rooms.
    assert.equal((await found(own.token, "305")).rooms.length, 2);
    assert.deepEqual(
      (await found(own.token, "2号楼")).rooms.map((r) => r.roomName),
      ["201", "305"],
    );
    assert.deepEqual((await found(own.token, "2号楼 101")).rooms, []);
  });

  test("finds a room by building and room as a desk says them, before anything else", async () => {
    for (const keyword of ["2栋305", "2#305", "2-305", "2号楼305", "2 305", "二号楼 305", "２号楼３０５"]) {
      const { rooms } = await found(own.token, keyword);
      assert.equal(rooms[0]?.id, room305, keyword);
      assert.equal(rooms[0]?.path, "阳光园区 / 2号楼 / 305", keyword);
      assert.ok(!rooms.some((r) => r.roomName === "305" && r.id !== room305), keyword);
    }
    // A building that is not there finds no room by that reading.
    assert.deepEqual((await found(own.token, "3栋305")).rooms, []);
  });

  test("finds owners by phone, part of it, name or id-card number", async () => {
    const byPhone = await found(own.token, "13800000001");
    assert.deepEqual(
      byPhone.owners.map((o) => [o.id, o.ownerName, o.phone]),
      [[site.owner, "张三", "13800000001"]],
    );
    assert.deepEqual(
      (await found(own.token, "2345678")).owners.map((o) => o.ownerName),
      ["李四"],
    );
    const byIdCard = await found(own.token, "002x");
    assert.deepEqual(
      byIdCard.owners.map((o) => [o.ownerName, o.idCardTail]),
      [["李四", "002X"]],
    );
    assert.deepEqual(
      (await found(own.token, "张三")).owners.map((o) => o.id),
      [site.owner],
    );
  });

  test("finds electric and water meters by the last digits of their number, and collectors", async () => {
    const result = await found(own.token, "0101");
    assert.deepEqual(
      result.meters
        .map((m) => [m.id, m.energyType, m.productCode])
        .sort((a, b) => Number(a[1]) - Number(b[1])),
      [
        [site.meter, 1, "100000000101"],
        [site.water, 2, "10000000000101"],
      ],
    );
    // Numbers ending in the digits come before those holding them elsewhere.
    const tail = await created(server, own.token, "meter/save", { productCode: "555501010000" });
    const ordered = await found(own.token, "0101");
    assert.equal(ordered.meters.at(-1)?.id, tail);
    assert.equal(ordered.meters.length, 3);
    const collectors = await found(own.token, "1号楼 dtu");
    assert.deepEqual(
      collectors.collectors.map((c) => c.id),
      [site.collector],
    );
  });

  test("never answers another tenant's rows", async () => {
    const everything = [
      await found(own.token, "13800000001"),
      await found(own.token, "2号楼 305"),
      await found(own.token, "0101"),
      await found(own.token, "leak"),
      await found(own.token, "dtu"),
    ];
    const text = JSON.stringify(everything);
    for (const id of Object.values(otherSite)) assert.ok(!text.includes(id), `other tenant's ${id} answered`);
    assert.ok(!text.includes("900000000101"));
  });

  test("the platform administrator searches its own tenant, or the one it names", async () => {
    assert.deepEqual((await found(admin, "13800000001")).owners, []);
    const res = await search(admin, { keyword: "13800000001", tenantId: own.tenantId });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(
      (res.json().data as GlobalSearchResult).owners.map((o) => o.id),
      [site.owner],
    );
    // A tenant's own user cannot name another tenant.
    const other = await search(own.token, { keyword: "13800000001", tenantId: "000000" });
    assert.deepEqual(
      (other.json().data as GlobalSearchResult).owners.map((o) => o.id),
      [site.owner],
    );
  });

  test("answers only the kinds the caller's role may read, and refuses a role that reads none", async () => {
    const meterReader = await userWith(["meter"]);
    const result = await found(meterReader, "100000000101");
    assert.deepEqual(
      result.meters.map((m) => m.id),
      [site.meter],
      "the water meter's screen is not granted",
    );
    assert.deepEqual([result.rooms, result.owners, result.collectors], [[], [], []]);
    const ownerViewer = await userWith(["owner_view"]);
    assert.deepEqual(
      (await found(ownerViewer, "13800000001")).owners.map((o) => o.id),
      [site.owner],
    );
    const nobody = await userWith([]);
    assert.equal((await search(nobody, { keyword: "101" })).statusCode, 403);
  });

  test("bounds the rows of each kind and takes typed wildcards literally", async () => {
    assert.equal((await found(own.token, "0", 1)).rooms.length, 1);
    assert.equal((await found(own.token, "0", 20)).rooms.length, 5);
    const wildcard = await found(own.token, "%");
    assert.deepEqual(
      [wildcard.rooms, wildcard.owners, wildcard.meters, wildcard.collectors],
      [[], [], [], []],
    );
    assert.deepEqual((await found(own.token, "_0_")).rooms, []);
  });

  test("answers bad input with a 400 naming the parameter", async () => {
    const cases: [Record<string, string>, string][] = [
      [{}, "keyword"],
      [{ keyword: "   " }, "keyword"],
      [{ keyword: "1".repeat(65) }, "keyword"],
      [{ keyword: "a b c d e f g" }, "keyword"],
      [{ keyword: "305", limit: "0" }, "limit"],
      [{ keyword: "305", limit: "21" }, "limit"],
      [{ keyword: "305", limit: "5x" }, "limit"],
    ];
    for (const [query, name] of cases) {
      const res = await search(own.token, query);
      assert.equal(res.statusCode, 400, `${JSON.stringify(query)}: ${res.body}`);
      assert.match(res.json().msg, new RegExp(`: ${name}$`));
    }
  });
});
