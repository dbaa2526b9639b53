import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { MenuRoute } from "@meterline/contracts";
import { BASIC, startTestServer, type TestServer } from "./helpers.ts";

const codes = (nodes: MenuRoute[]): string[] => nodes.flatMap((n) => [n.code, ...codes(n.children ?? [])]);

describe("tenants", () => {
  let server: TestServer;
  let admin: string;
  before(async () => {
    server = await startTestServer();
    admin = (await server.login()).access_token;
  });
  after(() => server.close());

  const provision = async (tenantName: string, extra: Record<string, unknown> = {}) => {
    const res = await server.call("POST", "/api/blade-system/tenant/submit", admin, { tenantName, ...extra });
    assert.equal(res.statusCode, 200, res.body);
    return res.json().data as { id: string; tenantId: string; account: string; password: string };
  };

  test("creating a tenant provisions it, and its admin signs in with the one-time password", async () => {
    const created = await provision("东区公寓", { linkman: "王经理", contactNumber: "13800000000" });
    assert.match(created.tenantId, /^\d{6}$/);
    assert.equal(created.account, "admin");
    assert.ok(created.password.length >= 12);
    const session = await server.login("admin", created.password, created.tenantId);
    assert.equal(session.role_name, "admin");
    const menus = (await server.call("GET", "/api/blade-system/menu/routes", session.access_token)).json()
      .data;
    assert.ok(codes(menus).includes("post"));
    assert.ok(!codes(menus).includes("tenant"), "tenant management stays with the platform");
    const dicts = (
      await server.call("GET", "/api/blade-system/dict-biz/dictionary?code=SWITCH_TYPE", session.access_token)
    ).json().data;
    assert.equal(dicts.length, 3, "business dictionaries were copied");
    const [row] = await server.db.query<{ account_number: number }>(
      "select account_number from sys_tenant where tenant_id = $1",
      [created.tenantId],
    );
    assert.equal(row?.account_number, 100, "default account quota from the parameter");
    // The tenant screen is not among its default menus; granted it, its admin sees only its own row.
    const denied = await server.call("GET", "/api/blade-system/tenant/list", session.access_token);
    assert.equal(denied.statusCode, 403);
    await server.db.query(
      `insert into sys_role_menu (id, menu_id, role_id)
       select 900000 + m.id, m.id, r.id from sys_menu m, sys_role r
        where m.code = 'tenant' and r.tenant_id = $1 and r.role_alias = 'admin'`,
      [created.tenantId],
    );
    const list = (await server.call("GET", "/api/blade-system/tenant/list", session.access_token)).json()
      .data;
    assert.deepEqual(
      list.records.map((r: { tenantId: string }) => r.tenantId),
      [created.tenantId],
    );
    // Its role lists never show the platform's administrator role.
    await server.db.query(
      "insert into sys_role (id, tenant_id, role_name, role_alias) values (987654321, $1, '冒充', 'administrator')",
      [created.tenantId],
    );
    const roles = (await server.call("GET", "/api/blade-system/role/tree", session.access_token)).json().data;
    assert.deepEqual(
      roles.map((r: { title: string }) => r.title),
      ["管理员"],
    );
    // ...and cannot create tenants.
    const forbidden = await server.call("POST", "/api/blade-system/tenant/submit", session.access_token, {
      tenantName: "x",
    });
    assert.equal(forbidden.statusCode, 403);
  });

  test("the platform tenant cannot be removed; removing a tenant ends its users' sessions", async () => {
    const [platform] = await server.db.query<{ id: string }>(
      "select id from sys_tenant where tenant_id = '000000'",
    );
    const refused = await server.call("POST", `/api/blade-system/tenant/remove?ids=${platform!.id}`, admin);
    assert.equal(refused.json().msg, "不可删除管理租户!");
    const created = await provision("西区宿舍");
    const session = await server.login("admin", created.password, created.tenantId);
    const removed = await server.call("POST", `/api/blade-system/tenant/remove?ids=${created.id}`, admin);
    assert.equal(removed.statusCode, 200);
    const after = await server.call("GET", "/api/blade-auth/oauth/user-info", session.access_token);
    assert.equal(after.statusCode, 401);
    const login = await server.inject({
      method: "POST",
      url: "/api/blade-auth/oauth/token",
      query: {
        grant_type: "password",
        username: "admin",
        password: created.password,
        tenantId: created.tenantId,
      },
      headers: { authorization: BASIC, "tenant-id": created.tenantId },
    });
    assert.equal(login.json().error_description, "未获得用户的租户信息");
  });

  test("setting an expiry in the past stops the tenant's sign-ins", async () => {
    const created = await provision("园区");
    const res = await server.call(
      "POST",
      `/api/blade-system/tenant/setting?ids=${created.id}&accountNumber=5&expireTime=2020-01-01%2000:00:00`,
      admin,
    );
    assert.equal(res.statusCode, 200, res.body);
    const login = await server.inject({
      method: "POST",
      url: "/api/blade-auth/oauth/token",
      query: {
        grant_type: "password",
        username: "admin",
        password: created.password,
        tenantId: created.tenantId,
      },
      headers: { authorization: BASIC, "tenant-id": created.tenantId },
    });
    assert.equal(login.json().error_description, "租户授权已过期,请联系管理员");
    const bad = await server.call(
      "POST",
      `/api/blade-system/tenant/setting?ids=${created.id}&expireTime=soon`,
      admin,
    );
    assert.equal(bad.statusCode, 400);
    assert.equal(bad.json().msg, "请求参数格式错误: expireTime");
  });

  test("updating keeps the tenant code and validates fields", async () => {
    const created = await provision("北区");
    const ok = await server.call("POST", "/api/blade-system/tenant/submit", admin, {
      id: created.id,
      tenantName: "北区公寓",
      tenantId: "999999",
    });
    assert.equal(ok.statusCode, 200);
    const detail = (
      await server.call("GET", `/api/blade-system/tenant/detail?id=${created.id}`, admin)
    ).json().data;
    assert.equal(detail.tenantName, "北区公寓");
    assert.equal(detail.tenantId, created.tenantId);
    const tooLong = await server.call("POST", "/api/blade-system/tenant/submit", admin, {
      tenantName: "x".repeat(60),
    });
    assert.equal(tooLong.statusCode, 400);
    assert.match(tooLong.json().msg, /^tenantName: /);
  });
});
