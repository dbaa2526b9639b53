import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { nextId } from "../src/db/ids.ts";
import { addUser, provisionTenant } from "./fixtures.ts";
import { startTestServer, type TestServer } from "./helpers.ts";

/** Grants a data-scope (1) or API-scope (2) rule to a role, as the role grant dialog would. */
async function grantScope(server: TestServer, roleId: string, category: 1 | 2, scopeId: string) {
  await server.db.query(
    "insert into sys_role_scope (id, scope_category, scope_id, role_id) values ($1, $2, $3, $4)",
    [nextId(), category, scopeId, roleId],
  );
}

describe("user platform settings, data scope on user writes, API scopes on module routes", () => {
  let server: TestServer;
  let admin: string;
  before(async () => {
    server = await startTestServer();
    admin = (await server.login()).access_token;
  });
  after(() => server.close());

  const userMenu = async () =>
    (await server.db.query<{ id: string }>("select id from sys_menu where code = 'user'"))[0]!.id;

  test("platform-detail and update-platform keep a user's type and its JSON settings", async () => {
    const id = await addUser(server.db, {
      tenantId: "000000",
      account: "plat",
      password: "pw",
      roleIds: ["2"],
    });
    const before = (await server.call("GET", `/api/blade-user/platform-detail?id=${id}`, admin)).json();
    assert.deepEqual(before.data, { id, account: "plat", realName: "plat", userType: 1, userExt: "" });

    const update = (body: Record<string, unknown>) =>
      server.call("POST", "/api/blade-user/update-platform", admin, { userId: id, ...body });
    assert.equal((await update({ userType: 2, userExt: '{"homePage":"/wel/dashboard"}' })).statusCode, 200);
    const after = (await server.call("GET", `/api/blade-user/platform-detail?id=${id}`, admin)).json().data;
    assert.equal(after.userType, 2);
    assert.deepEqual(JSON.parse(after.userExt), { homePage: "/wel/dashboard" });

    const notJson = await update({ userType: 2, userExt: "{oops" });
    assert.equal(notJson.statusCode, 400);
    assert.match(notJson.json().msg, /^userExt: /);
    assert.match((await update({ userType: 2, userExt: "[1]" })).json().msg, /^userExt: /);
    const badType = await update({ userType: 999, userExt: "{}" });
    assert.equal(badType.statusCode, 400);
    assert.match(badType.json().msg, /^userType: /);
    // Nothing stored was lost by the refused calls.
    const kept = (await server.call("GET", `/api/blade-user/platform-detail?id=${id}`, admin)).json().data;
    assert.deepEqual(JSON.parse(kept.userExt), { homePage: "/wel/dashboard" });

    // Another tenant's admin cannot read or change it, and a user without the code cannot call it.
    const other = await provisionTenant(server, admin, "平台租户");
    assert.equal(
      (await server.call("GET", `/api/blade-user/platform-detail?id=${id}`, other.token)).statusCode,
      404,
    );
    const foreign = await server.call("POST", "/api/blade-user/update-platform", other.token, {
      userId: id,
      userType: 1,
    });
    assert.equal(foreign.statusCode, 404);
    const plain = (await server.login("plat", "pw")).access_token;
    assert.equal(
      (await server.call("GET", `/api/blade-user/platform-detail?id=${id}`, plain)).statusCode,
      403,
    );
  });

  test("a tenant admin whose data scope is 'own' writes only the users it created", async () => {
    const site = await provisionTenant(server, admin, "范围租户");
    const mine = (
      await server.call("POST", "/api/blade-user/submit", site.token, {
        account: "mine",
        password: "pw",
        name: "n",
        realName: "r",
        roleId: site.roleId,
        deptId: site.deptId,
      })
    ).json().data.id;
    // A user that someone else created in the same tenant (an import, another admin).
    const theirs = await addUser(server.db, {
      tenantId: site.tenantId,
      account: "theirs",
      password: "pw",
      roleIds: [],
    });
    const scope = (
      await server.call("POST", "/api/blade-system/data-scope/submit", admin, {
        menuId: await userMenu(),
        resourceCode: "user",
        scopeName: "本人创建的用户",
        scopeColumn: "createUser",
        scopeType: 2,
      })
    ).json().data.id;
    // Scope rules are read on every request, so the admin's current session is narrowed at once.
    await grantScope(server, site.roleId, 1, scope);
    const token = site.token;

    const listed = (await server.call("GET", "/api/blade-user/page", token)).json().data.records;
    assert.ok(listed.some((r: { account: string }) => r.account === "mine"));
    assert.ok(!listed.some((r: { account: string }) => r.account === "theirs"));
    const edit = (id: string) => server.call("POST", "/api/blade-user/update", token, { id, realName: "改" });
    assert.equal((await edit(mine)).statusCode, 200);
    assert.equal((await edit(theirs)).statusCode, 404);
    assert.equal((await server.call("POST", `/api/blade-user/remove?ids=${theirs}`, token)).statusCode, 404);
    assert.equal(
      (await server.call("POST", `/api/blade-user/reset-password?userIds=${theirs}`, token)).statusCode,
      404,
    );
    const [kept] = await server.db.query<{ real_name: string; is_deleted: number }>(
      "select real_name, is_deleted from sys_user where id = $1",
      [theirs],
    );
    assert.deepEqual(kept, { real_name: "theirs", is_deleted: 0 });
  });

  test("an API scope on users narrows the module's routes but never the caller's own session calls", async () => {
    const site = await provisionTenant(server, admin, "接口租户");
    const rule = (
      await server.call("POST", "/api/blade-system/api-scope/submit", admin, {
        menuId: await userMenu(),
        resourceCode: "user",
        scopeName: "只可查询用户",
        scopePath: "/api/blade-user/page",
        scopeType: 2,
      })
    ).json().data.id;
    const granted = await provisionTenant(server, admin, "接口租户二");
    await grantScope(server, granted.roleId, 2, rule);

    // The module's write routes answer 403 to a role without the rule; so does its page.
    const add = await server.call("POST", "/api/blade-user/submit", site.token, {
      account: "blocked",
      password: "pw",
      name: "n",
      realName: "r",
      roleId: site.roleId,
      deptId: site.deptId,
    });
    assert.equal(add.statusCode, 403);
    assert.equal((await server.call("GET", "/api/blade-user/page", site.token)).statusCode, 403);
    // The granted role may list; its writes are outside the granted path.
    assert.equal((await server.call("GET", "/api/blade-user/page", granted.token)).statusCode, 200);
    assert.equal(
      (await server.call("POST", "/api/blade-user/grant?userIds=1&roleIds=1", granted.token)).statusCode,
      403,
    );
    // Session calls stay open: the console must still load its own profile, menus and buttons.
    for (const path of [
      "/api/blade-user/info",
      "/api/blade-system/menu/routes",
      "/api/blade-system/menu/buttons",
    ]) {
      assert.equal((await server.call("GET", path, site.token)).statusCode, 200, path);
    }
    // Removing the rule opens the resource again.
    await server.call("POST", `/api/blade-system/api-scope/remove?ids=${rule}`, admin);
    assert.equal((await server.call("GET", "/api/blade-user/page", site.token)).statusCode, 200);
  });
});
