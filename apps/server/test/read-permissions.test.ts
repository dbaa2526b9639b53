import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { nextId } from "../src/db/ids.ts";
import { addRole, addUser, provisionTenant } from "./fixtures.ts";
import { startTestServer, type TestServer } from "./helpers.ts";
import { buildSite } from "./registry-fixtures.ts";

/** Reads answer the users whose screens use them: pickers to the screens whose forms pick from them. */
describe("permissions on reads", () => {
  let server: TestServer;
  let tenantId: string;
  let tenantAdmin: string;
  let site: Awaited<ReturnType<typeof buildSite>>;
  /** A signed-in user of the tenant whose role holds the screens (menus and their buttons) named. */
  const userWith = async (...screens: string[]) => {
    const alias = `r${nextId()}`;
    const role = await addRole(server.db, tenantId, alias);
    if (screens.length) {
      await server.db.query(
        `insert into sys_role_menu (id, menu_id, role_id)
         select $2::bigint + row_number() over (), m.id, $1 from sys_menu m
          where m.is_deleted = 0 and (m.code = any($3::text[]) or split_part(m.code, '_', 1) = any($3::text[]))`,
        [role, nextId(), screens],
      );
    }
    await addUser(server.db, { tenantId, account: alias, password: "pw-reader", roleIds: [role] });
    return (await server.login(alias, "pw-reader", tenantId)).access_token;
  };
  const get = (path: string, token: string) => server.call("GET", path, token);

  before(async () => {
    server = await startTestServer();
    const admin = (await server.login()).access_token;
    const tenant = await provisionTenant(server, admin, "甲物业");
    tenantId = tenant.tenantId;
    tenantAdmin = tenant.token;
    site = await buildSite(server, tenant.token);
  });
  after(() => server.close());

  test("collector codes go to the screens whose forms pick a collector, not to a user with no menus", async () => {
    const path = "/api/blade-pms/collector/select";
    assert.equal((await get(path, await userWith())).statusCode, 403);
    assert.equal((await get(path, await userWith("notice"))).statusCode, 403);
    for (const screen of ["meter", "water", "collector"]) {
      const res = await get(path, await userWith(screen));
      assert.equal(res.statusCode, 200, screen);
      assert.deepEqual(
        res.json().data.map((row: { id: string }) => row.id),
        [site.collector],
      );
    }
  });

  test("the user list and the dept, role, post and menu pickers go to the screens that pick them", async () => {
    const nothing = await userWith();
    for (const path of [
      "/api/blade-user/user-list",
      "/api/blade-system/dept/tree",
      "/api/blade-system/dept/lazy-tree",
      "/api/blade-system/dept/select",
      "/api/blade-system/role/tree",
      "/api/blade-system/post/select",
      "/api/blade-system/menu/tree",
      "/api/blade-system/dict/tree",
      "/api/blade-system/dict-biz/tree",
      "/api/blade-system/tenant/select",
      "/api/blade-pms/chargingscheme/select",
      "/api/blade-pms/alarmscheme/select",
      "/api/blade-pms/area/tree",
      "/api/blade-pms/area/lazy-tree",
      "/api/blade-system/region/lazy-tree",
      "/api/blade-system/region/select",
    ]) {
      assert.equal((await get(path, nothing)).statusCode, 403, path);
    }
    const posts = await userWith("post");
    assert.equal((await get("/api/blade-system/post/select", posts)).statusCode, 200);
    assert.equal((await get("/api/blade-system/dept/tree", posts)).statusCode, 403);
  });

  test("the area tree answers the screens laid out beside it", async () => {
    for (const screen of ["room", "collector", "roomMeter", "dataRead", "waterDataDaily"]) {
      const res = await get("/api/blade-pms/area/tree", await userWith(screen));
      assert.equal(res.statusCode, 200, screen);
      assert.equal(res.json().data[0].id, site.park);
    }
    assert.equal((await get("/api/blade-pms/area/tree", await userWith("owner"))).statusCode, 403);
  });

  test("the registry trees answer the screens that pick their nodes", async () => {
    const readings = await userWith("dataRead");
    assert.equal((await get("/api/blade-pms/room/tree", readings)).statusCode, 200);
    assert.equal((await get("/api/blade-pms/meter/tree", readings)).statusCode, 200);
    // Owners (names, phones) are nothing the readings screens pick.
    assert.equal((await get("/api/blade-pms/owner/tree", readings)).statusCode, 403);
    assert.equal((await get("/api/blade-pms/owner/tree", await userWith("collector"))).statusCode, 403);
    assert.equal((await get("/api/blade-pms/owner/tree", await userWith("ownerRoom"))).statusCode, 200);
  });

  test("the money lists read the area and room pickers of their search bars; the statement reads accounts", async () => {
    for (const screen of ["dataRecharge", "payment", "dataOpenAccount", "dataCloseAccount"]) {
      const cashier = await userWith(screen);
      const areas = await get("/api/blade-pms/area/tree", cashier);
      assert.equal(areas.statusCode, 200, screen);
      assert.equal(areas.json().data[0].id, site.park);
      assert.equal((await get("/api/blade-pms/room/tree", cashier)).statusCode, 200, screen);
      assert.equal((await get("/api/blade-pms/owner/tree", cashier)).statusCode, 403, screen);
    }
    const statements = await userWith("accountStatement");
    assert.equal((await get("/api/blade-pms/ownerRecharge/page?keyword=101", statements)).statusCode, 200);
    assert.equal((await get("/api/blade-pms/room/tree", statements)).statusCode, 403);
  });

  test("a process instance and its leave request are read by those who took part, not by colleagues", async () => {
    const person = async () => {
      const account = `p${nextId()}`;
      const role = await addRole(server.db, tenantId, account);
      const id = await addUser(server.db, { tenantId, account, password: "pw-leave", roleIds: [role] });
      return { id, token: (await server.login(account, "pw-leave", tenantId)).access_token };
    };
    const applicant = await person();
    const approver = await person();
    const colleague = await person();
    const started = await server.call(
      "POST",
      "/api/blade-desk/process/leave/start-process",
      applicant.token,
      {
        startTime: "2026-12-01 09:00:00",
        endTime: "2026-12-02 18:00:00",
        reason: "看病",
        taskUser: approver.id,
      },
    );
    assert.equal(started.statusCode, 200, started.body);
    const { leaveId, processInstanceId } = started.json().data;
    const reads = [
      `/api/blade-desk/process/leave/detail?businessId=${leaveId}`,
      `/api/blade-flow/process/history-flow-list?processInstanceId=${processInstanceId}`,
      `/api/blade-flow/process/diagram-view?processInstanceId=${processInstanceId}`,
    ];
    for (const path of reads) {
      for (const [who, token] of [
        ["applicant", applicant.token],
        ["approver", approver.token],
      ] as const) {
        const res = await get(path, token);
        assert.equal(res.statusCode, 200, `${who} ${path}: ${res.body}`);
      }
      const refused = await get(path, colleague.token);
      assert.equal(refused.statusCode, 403, path);
      assert.match(refused.json().msg, /^无权限查看该流程/);
      assert.ok(!refused.body.includes("看病"));
    }
    // The tenant's administrator reads every instance of the tenant (流程跟踪).
    for (const path of reads) assert.equal((await get(path, tenantAdmin)).statusCode, 200, path);
  });

  test("what roles hold is read with the permission to grant", async () => {
    const [role] = await server.db.query<{ id: string }>("select id from sys_role where tenant_id = $1", [
      tenantId,
    ]);
    const keys = `/api/blade-system/menu/role-tree-keys?roleIds=${role!.id}`;
    assert.equal((await get(keys, await userWith())).statusCode, 403);
    assert.equal((await get("/api/blade-system/menu/grant-tree", await userWith())).statusCode, 403);
  });
});
