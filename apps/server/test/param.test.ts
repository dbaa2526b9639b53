import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { nextId } from "../src/db/ids.ts";
import { addUser, provisionTenant } from "./fixtures.ts";
import { startTestServer, type TestServer } from "./helpers.ts";

interface ParamRow {
  id: string;
  paramKey: string;
  paramValue: string;
  platformWide: number;
}

const base = "/api/blade-system/param";

describe("parameters per tenant", () => {
  let server: TestServer;
  let admin: string;
  let a: Awaited<ReturnType<typeof provisionTenant>>;
  let b: Awaited<ReturnType<typeof provisionTenant>>;
  const list = async (token: string): Promise<ParamRow[]> => {
    const res = await server.call("GET", `${base}/list?size=100`, token);
    assert.equal(res.statusCode, 200, res.body);
    return res.json().data.records;
  };
  const byKey = (rows: ParamRow[], key: string) => rows.find((row) => row.paramKey === key);
  const platformRow = async (key: string) =>
    (
      await server.db.query<{ id: string; param_value: string }>(
        "select id::text as id, param_value from sys_param where param_key = $1 and tenant_id = '000000'",
        [key],
      )
    )[0]!;
  /** The parameter screen and its buttons for a tenant's administrator role. */
  const grantParamScreen = (roleId: string) =>
    server.db.query(
      `insert into sys_role_menu (id, menu_id, role_id)
       select $2::bigint + row_number() over (), m.id, $1 from sys_menu m
        where m.is_deleted = 0 and split_part(m.code, '_', 1) = 'param'`,
      [roleId, nextId()],
    );

  before(async () => {
    server = await startTestServer();
    admin = (await server.login()).access_token;
    a = await provisionTenant(server, admin, "甲物业");
    b = await provisionTenant(server, admin, "乙物业");
    await grantParamScreen(a.roleId);
    await grantParamScreen(b.roleId);
  });
  after(() => server.close());

  test("a tenant sees the tenant-level defaults and none of the platform-wide parameters", async () => {
    const platform = await list(admin);
    assert.equal(byKey(platform, "reading.retentionDays")?.platformWide, 1);
    assert.equal(byKey(platform, "account.failCount")?.platformWide, 1);
    assert.equal(byKey(platform, "account.initPassword")?.platformWide, 0);
    const keys = (await list(a.token)).map((row) => row.paramKey);
    // The money approval settings (seed 040) and the owner warning days (seed 059) are the
    // tenant's to set as well.
    assert.deepEqual(keys, [
      "account.initPassword",
      "owner.forecast.warnDays",
      "money.approval.threshold",
      "money.approval.role",
    ]);
  });

  test("a tenant's edit of a default is its own value; the default and other tenants keep theirs", async () => {
    const initial = await platformRow("account.initPassword");
    const res = await server.call("POST", `${base}/submit`, a.token, {
      id: initial.id,
      paramName: "用户初始密码",
      paramKey: "account.initPassword",
      paramValue: "a-start-pw",
      platformWide: 1,
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.notEqual(res.json().data.id, initial.id);
    assert.equal((await platformRow("account.initPassword")).param_value, initial.param_value);
    const own = byKey(await list(a.token), "account.initPassword")!;
    assert.deepEqual([own.id, own.paramValue, own.platformWide], [res.json().data.id, "a-start-pw", 0]);
    assert.equal(byKey(await list(b.token), "account.initPassword")?.paramValue, initial.param_value);

    // Resetting a password uses the tenant's own initial password.
    const user = await addUser(server.db, {
      tenantId: a.tenantId,
      account: "ann",
      password: "pw-ann",
      roleIds: [a.roleId],
    });
    const reset = await server.call("POST", `/api/blade-user/reset-password?userIds=${user}`, a.token);
    assert.equal(reset.statusCode, 200, reset.body);
    assert.ok((await server.login("ann", "a-start-pw", a.tenantId)).access_token);

    // Removing its own value brings the default back; the default itself cannot be removed by a tenant.
    assert.equal((await server.call("POST", `${base}/remove?ids=${own.id}`, a.token)).statusCode, 200);
    assert.equal(byKey(await list(a.token), "account.initPassword")?.id, initial.id);
    const refused = await server.call("POST", `${base}/remove?ids=${initial.id}`, a.token);
    assert.equal(refused.statusCode, 400);
    assert.match(refused.json().msg, /^ids: /);
    assert.equal((await platformRow("account.initPassword")).param_value, initial.param_value);
  });

  test("platform-wide parameters are the platform administrator's only", async () => {
    const retention = await platformRow("reading.retentionDays");
    const edit = await server.call("POST", `${base}/submit`, a.token, {
      id: retention.id,
      paramName: "抄读记录保留天数",
      paramKey: "reading.retentionDays",
      paramValue: "31",
    });
    assert.equal(edit.statusCode, 404);
    const shadow = await server.call("POST", `${base}/submit`, a.token, {
      paramName: "抄读记录保留天数",
      paramKey: "reading.retentionDays",
      paramValue: "31",
    });
    assert.equal(shadow.statusCode, 400);
    assert.match(shadow.json().msg, /^paramKey: /);
    assert.equal((await server.call("GET", `${base}/detail?id=${retention.id}`, a.token)).statusCode, 404);
    assert.equal((await server.call("POST", `${base}/remove?ids=${retention.id}`, a.token)).statusCode, 404);
    assert.equal((await platformRow("reading.retentionDays")).param_value, retention.param_value);

    const byAdministrator = await server.call("POST", `${base}/submit`, admin, {
      id: retention.id,
      paramName: "抄读记录保留天数",
      paramValue: "500",
    });
    assert.equal(byAdministrator.statusCode, 200, byAdministrator.body);
    assert.equal((await platformRow("reading.retentionDays")).param_value, "500");
  });

  test("a tenant's new key is its own; the same key in another tenant is another row", async () => {
    const body = { paramName: "抄表提示", paramKey: "tenant.notice", paramValue: "甲" };
    assert.equal((await server.call("POST", `${base}/submit`, a.token, body)).statusCode, 200);
    assert.equal((await server.call("POST", `${base}/submit`, a.token, body)).statusCode, 400);
    assert.equal(
      (await server.call("POST", `${base}/submit`, b.token, { ...body, paramValue: "乙" })).statusCode,
      200,
    );
    assert.equal(byKey(await list(a.token), "tenant.notice")?.paramValue, "甲");
    assert.equal(byKey(await list(b.token), "tenant.notice")?.paramValue, "乙");
    assert.equal(byKey(await list(admin), "tenant.notice"), undefined);
  });
});
