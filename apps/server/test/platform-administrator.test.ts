import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { nextId } from "../src/db/ids.ts";
import { LAST_ADMINISTRATOR_MESSAGE } from "../src/modules/user/platform-administrator.ts";
import { addRole, addUser } from "./fixtures.ts";
import { startTestServer, type TestServer } from "./helpers.ts";

/** The administrator role, and at least one active user holding it, always remain. */
describe("the platform keeps its administrator", () => {
  let server: TestServer;
  let admin: string;
  let adminId: string;
  /** A platform user manager (role alias admin) who may edit, grant and remove users. */
  let manager: string;
  let managerRole: string;
  before(async () => {
    server = await startTestServer();
    const session = await server.login();
    admin = session.access_token;
    adminId = session.user_id;
    managerRole = await addRole(server.db, "000000", "admin");
    for (const code of ["user_edit", "user_delete", "user_role"]) {
      await server.db.query(
        "insert into sys_role_menu (id, menu_id, role_id) select $1, id, $2 from sys_menu where code = $3",
        [nextId(), managerRole, code],
      );
    }
    await addUser(server.db, {
      tenantId: "000000",
      account: "manager",
      password: "Manager-pw1",
      roleIds: [managerRole],
    });
    manager = (await server.login("manager", "Manager-pw1")).access_token;
  });
  after(() => server.close());

  const post = (url: string, token: string, payload?: unknown) => server.call("POST", url, token, payload);
  const refused = (res: { statusCode: number; json(): { msg: string } }, msg: string) => {
    assert.equal(res.statusCode, 400);
    assert.equal(res.json().msg, msg);
  };

  test("the administrator role can be neither removed nor renamed", async () => {
    refused(await post("/api/blade-system/role/remove?ids=1", admin), "不可删除超级管理员角色!");
    refused(
      await post("/api/blade-system/role/submit", admin, {
        id: "1",
        roleName: "超级管理员",
        roleAlias: "boss",
      }),
      "不可修改超级管理员角色的别名!",
    );
    const renamed = await post("/api/blade-system/role/submit", admin, {
      id: "1",
      roleName: "平台超管",
      roleAlias: "administrator",
    });
    assert.equal(renamed.statusCode, 200, renamed.body);
    assert.equal((await server.login()).role_name, "administrator");
  });

  test("the last administrator can be neither removed, demoted nor granted other roles", async () => {
    refused(await post(`/api/blade-user/remove?ids=${adminId}`, manager), LAST_ADMINISTRATOR_MESSAGE);
    refused(
      await post("/api/blade-user/update", manager, { id: adminId, roleId: "2" }),
      LAST_ADMINISTRATOR_MESSAGE,
    );
    refused(
      await post("/api/blade-user/submit", admin, { id: adminId, roleId: "2" }),
      LAST_ADMINISTRATOR_MESSAGE,
    );
    refused(
      await post(`/api/blade-user/grant?userIds=${adminId}&roleIds=${managerRole}`, manager),
      LAST_ADMINISTRATOR_MESSAGE,
    );
    assert.equal((await server.login()).role_name, "administrator");
  });

  test("an administrator who is not the last one can be removed", async () => {
    const created = await post("/api/blade-user/submit", admin, {
      account: "deputy",
      password: "Deputy-pw1",
      name: "deputy",
      realName: "deputy",
      roleId: "1",
      deptId: "1",
    });
    assert.equal(created.statusCode, 200, created.body);
    const removed = await post(`/api/blade-user/remove?ids=${created.json().data.id}`, manager);
    assert.equal(removed.statusCode, 200, removed.body);
  });

  test("a disabled administrator does not count as the one that remains", async () => {
    const deputy = await addUser(server.db, {
      tenantId: "000000",
      account: "sleeper",
      password: "Sleeper-pw1",
      roleIds: ["1"],
      status: 0,
    });
    assert.ok(deputy);
    refused(await post(`/api/blade-user/remove?ids=${adminId}`, manager), LAST_ADMINISTRATOR_MESSAGE);
  });
});
