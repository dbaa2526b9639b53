import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { md5Hex } from "../src/modules/auth/password.ts";
import { provisionTenant } from "./fixtures.ts";
import { startTestServer, type TestServer } from "./helpers.ts";

/** A session answers to the user, roles and tenant as they are now, not as they were at sign-in. */
describe("sessions follow changes to their user and tenant", () => {
  let server: TestServer;
  let admin: string;
  before(async () => {
    server = await startTestServer();
    admin = (await server.login()).access_token;
  });
  after(() => server.close());

  const createUser = async (account: string, password: string, roleId: string, token = admin) => {
    const res = await server.call("POST", "/api/blade-user/submit", token, {
      account,
      password,
      name: account,
      realName: account,
      roleId,
      deptId: "1",
    });
    assert.equal(res.statusCode, 200, res.body);
    return res.json().data.id as string;
  };
  const userInfo = (token: string) => server.call("GET", "/api/blade-auth/oauth/user-info", token);
  // Guarded for the platform administrator and free of side effects: 400 when allowed, 403 when not.
  const administratorOnly = (token: string) =>
    server.call("POST", "/api/blade-system/tenant/datasource", token, {});

  test("a user demoted through user/submit loses the administrator's powers on the old token", async () => {
    const id = await createUser("deputy", "Deputy-pw1", "1");
    const { access_token } = await server.login("deputy", "Deputy-pw1");
    assert.equal((await administratorOnly(access_token)).statusCode, 400);
    const demote = await server.call("POST", "/api/blade-user/submit", admin, { id, roleId: "2" });
    assert.equal(demote.statusCode, 200, demote.body);
    assert.equal((await administratorOnly(access_token)).statusCode, 403);
    assert.equal((await userInfo(access_token)).json().data.roleName, "user");
  });

  test("a password change ends the user's other sessions and keeps the one that changed it", async () => {
    await createUser("walker", "Walker-pw1", "2");
    const laptop = await server.login("walker", "Walker-pw1");
    const phone = await server.login("walker", "Walker-pw1");
    const change = await server.inject({
      method: "POST",
      url: "/api/blade-user/update-password",
      query: {
        oldPassword: md5Hex("Walker-pw1"),
        newPassword: md5Hex("Walker-pw2"),
        newPassword1: md5Hex("Walker-pw2"),
      },
      headers: { "blade-auth": `bearer ${laptop.access_token}` },
    });
    assert.equal(change.statusCode, 200, change.body);
    assert.equal((await userInfo(laptop.access_token)).statusCode, 200);
    assert.equal((await userInfo(phone.access_token)).statusCode, 401);
    const refreshed = await server.inject({
      method: "POST",
      url: "/api/blade-auth/oauth/token",
      query: { grant_type: "refresh_token", refresh_token: phone.refresh_token, scope: "all" },
      headers: { authorization: `Basic ${Buffer.from("saber:saber_secret").toString("base64")}` },
    });
    assert.equal(refreshed.statusCode, 400);
  });

  test("a user locked out by status answers 401 on its old token", async () => {
    const id = await createUser("stopped", "Stopped-pw1", "2");
    const { access_token } = await server.login("stopped", "Stopped-pw1");
    assert.equal((await userInfo(access_token)).statusCode, 200);
    // No console screen sets the status yet; the database is where an operator would.
    await server.db.query("update sys_user set status = 0 where id = $1", [id]);
    assert.equal((await userInfo(access_token)).statusCode, 401);
  });

  test("tokens of a tenant that expired or was switched off answer 401", async () => {
    const tenant = await provisionTenant(server, admin, "到期公寓");
    assert.equal((await userInfo(tenant.token)).statusCode, 200);
    const [row] = await server.db.query<{ id: string }>("select id from sys_tenant where tenant_id = $1", [
      tenant.tenantId,
    ]);
    const expire = await server.inject({
      method: "POST",
      url: `/api/blade-system/tenant/setting?ids=${row!.id}&expireTime=2020-01-01%2000:00:00`,
      headers: { "blade-auth": `bearer ${admin}` },
    });
    assert.equal(expire.statusCode, 200, expire.body);
    assert.equal((await userInfo(tenant.token)).statusCode, 401);

    const other = await provisionTenant(server, admin, "停用公寓");
    await server.db.query("update sys_tenant set status = 0 where tenant_id = $1", [other.tenantId]);
    assert.equal((await userInfo(other.token)).statusCode, 401);
  });
});
