import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { COUNTER_SEARCH_PATH, type CounterHit, type CounterMatch, type Page } from "@meterline/contracts";
import { nextId } from "../src/db/ids.ts";
import { DEMO_TENANT_ID, seedDemoSite } from "../src/demo/demo-site.ts";
import { addRole, addUser, provisionTenant } from "./fixtures.ts";
import { ADMIN_PASSWORD, startTestServer, type TestServer } from "./helpers.ts";
import { buildSite, created } from "./registry-fixtures.ts";

const RANKS: CounterMatch[] = ["room", "owner", "meter", "partial", "all"];

/** A demo room as the database holds it, to compare the search's answer with. */
interface RoomFacts {
  id: string;
  ownerName: string;
  phone: string;
  meters: { energyType: number; productCode: string; balance: string }[];
}

/**
 * The counter's search through HTTP on the demo site (阳光公寓: 4 buildings of 50 rooms 101…510,
 * 180 owners, 140 electric and 60 water meters) with a second tenant holding look-alikes, on PGlite
 * or (TEST_DATABASE_URL) PostgreSQL.
 */
describe("the counter finds a room as people say it", () => {
  let server: TestServer;
  let demo: string;
  let platform: string;
  let other: Awaited<ReturnType<typeof provisionTenant>>;
  let otherIds: string[];

  const ask = (query: Record<string, string>, token = demo) =>
    server.call("GET", `${COUNTER_SEARCH_PATH}?${new URLSearchParams(query)}`, token);
  const find = async (keyword: string, token = demo, extra: Record<string, string> = {}) => {
    const res = await ask({ keyword, ...extra }, token);
    assert.equal(res.statusCode, 200, `${keyword}: ${res.body}`);
    return res.json().data as Page<CounterHit>;
  };
  /** Rooms before owners before meters before looser matches, whatever the keyword. */
  const assertRanked = (hits: CounterHit[]) => {
    const ranks = hits.map((h) => RANKS.indexOf(h.matched));
    assert.deepEqual(
      ranks,
      [...ranks].sort((a, b) => a - b),
      hits.map((h) => h.matched).join(","),
    );
  };
  const roomFacts = async (building: string, room: string): Promise<RoomFacts> => {
    const [row] = await server.db.query<RoomFacts>(
      `select r.id::text as id, o.owner_name as "ownerName", o.phone,
              (select json_agg(json_build_object('energyType', rm.energy_type,
                  'productCode', coalesce(m.product_code, w.product_code), 'balance', a.balance::text)
                  order by rm.energy_type)
                 from pms_room_meter rm
                 left join pms_meter m on rm.energy_type = 1 and m.id = rm.meter_id
                 left join pms_water w on rm.energy_type = 2 and w.id = rm.meter_id
                 left join pms_account a on a.meter_id = rm.meter_id and a.energy_type = rm.energy_type and a.status = 1
                where rm.room_id = r.id and rm.is_deleted = 0) as meters
         from pms_room r join pms_area b on b.id = r.area_id
         left join pms_owner_room l on l.room_id = r.id and l.is_deleted = 0
         left join pms_owner o on o.id = l.owner_id
        where r.tenant_id = $1 and b.area_name = $2 and r.room_name = $3`,
      [DEMO_TENANT_ID, building, room],
    );
    assert.ok(row, `${building} ${room}`);
    return row;
  };
  /** Fen to yuan text, as the answers carry money. */
  const yuan = (fen: string) => (Number(fen) / 100).toFixed(2);

  before(async () => {
    server = await startTestServer();
    assert.equal(await seedDemoSite(server.db, { adminPassword: ADMIN_PASSWORD }), true);
    demo = (await server.login("admin", ADMIN_PASSWORD, DEMO_TENANT_ID)).access_token;
    platform = (await server.login()).access_token;
    // The other tenant says it the same way: 2号楼 305, an owner whose phone ends like a demo
    // owner's, a meter whose number ends like a demo meter's. None of it may ever be answered.
    other = await provisionTenant(server, platform, "隔壁公寓");
    const site = await buildSite(server, other.token, "leak");
    const room305 = await created(server, other.token, "room/save", {
      areaId: site.building2,
      roomName: "305",
    });
    const twin = await roomFacts("2号楼", "305");
    const owner = await created(server, other.token, "owner/submit", {
      ownerName: twin.ownerName,
      phone: `1370000${twin.phone.slice(-4)}`,
    });
    await created(server, other.token, "ownerroom/submit", { ownerId: owner, roomId: room305 });
    const meter = await created(server, other.token, "meter/save", {
      productCode: `909${twin.meters[0]!.productCode.slice(-9)}`,
      collectorId: site.collector,
      channel: 2,
    });
    await created(server, other.token, "roommeter/submit", {
      roomId: room305,
      energyType: 1,
      meterId: meter,
    });
    otherIds = [...Object.values(site), room305, owner, meter];
  });
  after(() => server.close());

  test("each way a desk says building 2, room 305 finds that room first, with its owner and meter", async () => {
    const facts = await roomFacts("2号楼", "305");
    for (const keyword of [
      "2号楼 305",
      "2号楼305",
      "2栋305",
      "2-305",
      "2#305",
      "2 305",
      "２号楼３０５",
      "二号楼 305",
    ]) {
      const { records } = await find(keyword);
      const [first] = records;
      assert.ok(first, keyword);
      assert.deepEqual(
        [first.matched, first.room?.id, first.room?.label, first.owner?.ownerName, first.owner?.phone],
        ["room", facts.id, "2号楼 305", facts.ownerName, facts.phone],
        keyword,
      );
      assert.deepEqual(
        first.meters.map((m) => [m.energyType, m.productCode, m.account?.balance]),
        facts.meters.map((m) => [m.energyType, m.productCode, yuan(m.balance)]),
        keyword,
      );
      assertRanked(records);
      // No other building's 305 is taken for it.
      assert.ok(!records.some((h) => h.room?.roomName === "305" && h.room.id !== facts.id), keyword);
    }
    // "2号楼30": the rooms of building 2 whose number starts so, 301 to 309, none of another building.
    const started = await find("2号楼30", demo, { size: "20" });
    assert.deepEqual(
      started.records.map((h) => h.room?.label),
      ["301", "302", "303", "304", "305", "306", "307", "308", "309"].map((n) => `2号楼 ${n}`),
    );
    assert.ok(started.records.every((h) => h.matched === "partial"));
  });

  test('"305" alone is every building\'s room 305, each named with its building and owner', async () => {
    const { records, total } = await find("305");
    assert.equal(total, 4);
    assert.deepEqual(
      records.map((h) => [h.matched, h.room?.label]),
      ["1号楼", "2号楼", "3号楼", "4号楼"].map((b) => ["room", `${b} 305`]),
    );
    for (const hit of records) {
      const facts = await roomFacts(hit.room!.label.split(" ")[0]!, "305");
      assert.equal(hit.owner?.ownerName, facts.ownerName);
      assert.equal(hit.owner?.phone, facts.phone);
    }
  });

  test("an owner by the last four digits of the phone or the whole phone: each of their rooms", async () => {
    const facts = await roomFacts("3号楼", "207");
    for (const keyword of [
      facts.phone.slice(-4),
      facts.phone,
      `${facts.phone.slice(0, 3)} ${facts.phone.slice(3, 7)} ${facts.phone.slice(7)}`,
    ]) {
      const { records } = await find(keyword);
      const hit = records.find((h) => h.owner?.phone === facts.phone);
      assert.ok(hit, keyword);
      assert.equal(hit.matched, "owner");
      assert.equal(hit.room?.label, "3号楼 207");
      assertRanked(records);
    }
    const whole = await find(facts.phone);
    assert.deepEqual(
      whole.records.map((h) => h.room?.id),
      [facts.id],
    );
  });

  test("a meter by its last six digits: its room, each meter on its own line with its own balance and supply", async () => {
    // A room with an electric and a water meter, the electric one cut off (as the meter reports it).
    const facts = await roomFacts("1号楼", "104");
    const [electric, water] = facts.meters;
    assert.deepEqual([electric?.energyType, water?.energyType], [1, 2]);
    await server.db.query(
      "update pms_meter set switch_status = 1 where tenant_id = $1 and product_code = $2",
      [DEMO_TENANT_ID, electric!.productCode],
    );
    for (const keyword of [electric!.productCode.slice(-6), electric!.productCode]) {
      const { records } = await find(keyword);
      const hit = records.find((h) => h.room?.id === facts.id);
      assert.ok(hit, keyword);
      assert.equal(hit.matched, "meter");
      assert.equal(hit.room?.label, "1号楼 104");
      assert.deepEqual(
        hit.meters.map((m) => [m.energyType, m.productCode, m.account?.balance, m.switchStatus]),
        [
          [1, electric!.productCode, yuan(electric!.balance), 1],
          [2, water!.productCode, yuan(water!.balance), 0],
        ],
        keyword,
      );
      assertRanked(records);
    }
  });

  test("rooms first, then owners, then meters, whichever matched the same digits", async () => {
    const [building1] = await server.db.query<{ id: string }>(
      "select id::text as id from pms_area where tenant_id = $1 and area_name = '1号楼'",
      [DEMO_TENANT_ID],
    );
    const room = await created(server, demo, "room/save", { areaId: building1!.id, roomName: "8876" });
    const owner = await created(server, demo, "owner/submit", {
      ownerName: "尾号业主",
      phone: "13700008876",
    });
    const vacant = await roomFacts("4号楼", "405");
    assert.equal(vacant.ownerName, null, "4号楼 405 is vacant");
    const [collector] = await server.db.query<{ id: string }>(
      "select id::text as id from pms_collector where tenant_id = $1 limit 1",
      [DEMO_TENANT_ID],
    );
    const meter = await created(server, demo, "meter/save", {
      productCode: "777700008876",
      collectorId: collector!.id,
      channel: 9,
    });
    await created(server, demo, "roommeter/submit", { roomId: vacant.id, energyType: 1, meterId: meter });

    const { records } = await find("8876");
    assert.deepEqual(
      records.map((h) => [h.matched, h.room?.label ?? null, h.owner?.id ?? null]),
      [
        ["room", "1号楼 8876", null],
        ["owner", null, owner],
        ["meter", "4号楼 405", null],
      ],
    );
    assert.equal(records[0]!.room?.id, room);
    // The vacant room says so: no owner, its meter without an account.
    assert.deepEqual(
      records[2]!.meters.map((m) => [m.productCode, m.account]),
      [["777700008876", null]],
    );
  });

  test("a level narrows to rooms with a meter at it; no keyword lists every owner by name", async () => {
    const arrears = await find("", demo, { alarmLevel: "3" });
    assert.equal(arrears.total, 1);
    const [hit] = arrears.records;
    assert.ok(
      hit?.meters.some((m) => m.account?.alarmLevel === 3),
      JSON.stringify(hit),
    );
    const low = await find("", demo, { alarmLevel: "1", size: "50" });
    assert.ok(low.total >= 2);
    assert.ok(low.records.every((h) => h.meters.some((m) => m.account?.alarmLevel === 1)));
    const lowIn2 = await find("2号楼", demo, { alarmLevel: "2", size: "50" });
    assert.ok(lowIn2.records.every((h) => h.room?.label.startsWith("2号楼 ")));
    assert.ok(lowIn2.records.every((h) => h.meters.some((m) => m.account?.alarmLevel === 2)));

    const everyone = await find("", demo, { size: "50" });
    const [owners] = await server.db.query<{ n: string }>(
      "select count(*)::text as n from pms_owner where tenant_id = $1 and is_deleted = 0",
      [DEMO_TENANT_ID],
    );
    assert.equal(everyone.total, Number(owners!.n));
    // Each demo owner has one room: the first page is the first fifty owners in the database's order of names.
    const byName = await server.db.query<{ owner_name: string }>(
      "select owner_name from pms_owner where tenant_id = $1 and is_deleted = 0 order by owner_name, id limit 50",
      [DEMO_TENANT_ID],
    );
    assert.deepEqual(
      everyone.records.map((h) => h.owner!.ownerName),
      byName.map((row) => row.owner_name),
    );
    assert.ok(everyone.records.every((h) => h.matched === "all"));
  });

  test("another tenant's rooms, owners and meters never appear, whichever way asked", async () => {
    const twin = await roomFacts("2号楼", "305");
    const answers = [];
    for (const keyword of [
      "2号楼 305",
      "305",
      twin.phone.slice(-4),
      twin.ownerName,
      twin.meters[0]!.productCode.slice(-6),
      "",
      "leak",
      "张三",
    ])
      answers.push(await find(keyword, demo, { size: "50" }));
    const text = JSON.stringify(answers);
    for (const id of otherIds) assert.ok(!text.includes(id), `the other tenant's ${id} answered`);
    // And the other way round: the other tenant finds its own 305 and nothing of the demo.
    const theirs = await find("2号楼 305", other.token);
    assert.deepEqual(
      theirs.records.map((h) => [h.room?.label, h.tenantId]),
      [["2号楼 305", other.tenantId]],
    );
    assert.equal((await find(twin.phone, other.token)).total, 0);
  });

  test("the platform administrator finds in every tenant, each hit naming its tenant, or in the one it names", async () => {
    const everywhere = await find("2号楼 305", platform);
    assert.deepEqual(
      everywhere.records.map((h) => h.tenantId).sort(),
      [DEMO_TENANT_ID, other.tenantId].sort(),
    );
    assert.ok(everywhere.records.every((h) => h.tenantName.length > 0));
    const named = await find("2号楼 305", platform, { tenantId: other.tenantId });
    assert.deepEqual(
      named.records.map((h) => h.tenantId),
      [other.tenantId],
    );
  });

  test("a malformed keyword or filter is a 400 naming it, never a 500", async () => {
    const cases: [string, string][] = [
      [`keyword=${"3".repeat(65)}`, "keyword"],
      ["keyword=a+b+c+d+e+f+g", "keyword"],
      ["keyword=305&keyword=2号楼", "keyword"],
      ["keyword=305&alarmLevel=9", "alarmLevel"],
      ["keyword=305&alarmLevel=x", "alarmLevel"],
      ["keyword=305&size=51", "size"],
      ["keyword=305&current=0", "current"],
      ["keyword=305&tenantId=0000000000000", "tenantId"],
    ];
    for (const [query, field] of cases) {
      const res = await server.call("GET", `${COUNTER_SEARCH_PATH}?${encodeURI(query)}`, demo);
      assert.equal(res.statusCode, 400, `${query}: ${res.body}`);
      assert.match(res.json().msg, new RegExp(`: ${field}$`), query);
    }
    // Characters LIKE and regular expressions treat specially are only characters.
    for (const keyword of ["%", "_", "\\", "2号楼 %", "(", "[", "'", "2-3-305", "@@@"]) {
      const res = await ask({ keyword });
      assert.equal(res.statusCode, 200, `${keyword}: ${res.body}`);
      assert.equal(res.json().data.total, 0, keyword);
    }
  });

  test("a role's data scope leaves out the meters outside it, from the lines and from the finding", async () => {
    const facts = await roomFacts("2号楼", "305");
    const role = await addRole(server.db, DEMO_TENANT_ID, "counterDesk");
    await server.db.query(
      `insert into sys_role_menu (id, menu_id, role_id)
       select (select max(id) from sys_role_menu) + row_number() over () + 100000, m.id, $1
         from sys_menu m where m.code = 'ownerRecharge' and m.is_deleted = 0`,
      [role],
    );
    const [menu] = await server.db.query<{ id: string }>("select id from sys_menu where code = 'meter'");
    const rule = await server.call("POST", "/api/blade-system/data-scope/submit", platform, {
      menuId: menu!.id,
      resourceCode: "meter",
      scopeName: "本人电表",
      scopeColumn: "createUser",
      scopeType: 2,
    });
    assert.equal(rule.statusCode, 200, rule.body);
    await server.db.query(
      "insert into sys_role_scope (id, scope_category, scope_id, role_id) values ($1, 1, $2, $3)",
      [nextId(), rule.json().data.id, role],
    );
    const account = "counterdesk";
    await addUser(server.db, { tenantId: DEMO_TENANT_ID, account, password: "pw-test", roleIds: [role] });
    const desk = (await server.login(account, "pw-test", DEMO_TENANT_ID)).access_token;

    // The room is still found, but the demo's electric meters (written by the demo, not this user) are not shown.
    const { records } = await find("2号楼 305", desk);
    assert.equal(records[0]?.room?.id, facts.id);
    assert.deepEqual(records[0]?.meters, []);
    const byMeter = await find(facts.meters[0]!.productCode, desk);
    assert.ok(!byMeter.records.some((h) => h.matched === "meter"), JSON.stringify(byMeter.records));
    // The demo's administrator, without the rule, sees it.
    assert.equal((await find("2号楼 305")).records[0]?.meters.length, facts.meters.length);
  });

  test("pages are bounded; a page past the end keeps the total", async () => {
    const first = await find("2号楼", demo, { size: "5" });
    assert.equal(first.total, 50);
    assert.equal(first.records.length, 5);
    const past = await find("2号楼", demo, { size: "5", current: "20" });
    assert.deepEqual([past.total, past.records.length], [50, 0]);
    const second = await find("2号楼", demo, { size: "5", current: "2" });
    assert.ok(!second.records.some((h) => first.records.some((f) => f.key === h.key)));
  });
});
