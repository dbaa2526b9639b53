import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { nextId } from "../src/db/ids.ts";
import { signJwt } from "../src/modules/auth/jwt.ts";
import { addTenant } from "./fixtures.ts";
import { startTestServer, type TestServer } from "./helpers.ts";

describe("contract layer: envelope, errors, public calls", () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  test("an unknown API path is a 404 in the envelope, even signed in", async () => {
    const { access_token } = await server.login();
    const res = await server.call("GET", "/api/blade-system/nothing-here", access_token);
    assert.equal(res.statusCode, 404);
    const body = res.json();
    assert.equal(body.code, 404);
    assert.equal(body.success, false);
    assert.match(body.msg, /nothing-here/);
  });

  test("an unknown API path without a token is a 404 too", async () => {
    const res = await server.inject({ method: "GET", url: "/api/blade-system/nothing-here" });
    assert.equal(res.statusCode, 404);
    assert.equal(res.json().code, 404);
  });

  test("malformed JSON is a 400 in the envelope, not a 500", async () => {
    const { access_token } = await server.login();
    const res = await server.inject({
      method: "POST",
      url: "/api/blade-auth/oauth/logout",
      headers: { "blade-auth": `bearer ${access_token}`, "content-type": "application/json" },
      payload: "{not json",
    });
    assert.equal(res.statusCode, 400);
    assert.equal(res.json().code, 400);
    assert.equal(res.json().success, false);
  });

  test("health and the OpenAPI document are public", async () => {
    const health = (await server.inject({ method: "GET", url: "/api/health" })).json();
    assert.equal(health.code, 200);
    assert.ok(["pglite", "postgres"].includes(health.data.database));
    const doc = (await server.inject({ method: "GET", url: "/api/openapi.json" })).json();
    assert.equal(doc.openapi.startsWith("3."), true);
    assert.ok(doc.paths["/api/blade-auth/oauth/token"]);
    assert.ok(doc.paths["/api/blade-system/menu/routes"]);
    // The menu's entry points at the HTML page, which leads to the browser.
    const entry = await server.inject({ method: "GET", url: "/api/docs/static/index.html" });
    assert.equal(entry.headers.location, "/api/docs/");
    const page = await server.inject({ method: "GET", url: "/api/docs/" });
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /swagger/i);
  });

  test("tenant info by domain serves the login page without a token", async () => {
    await addTenant(server.db, "200001", { domain: "https://park.example.com" });
    const found = await server.inject({
      method: "GET",
      url: "/api/blade-system/tenant/info?domain=https://park.example.com",
    });
    assert.equal(found.json().data.tenantId, "200001");
    const missing = await server.inject({
      method: "GET",
      url: "/api/blade-system/tenant/info?domain=https://other.example",
    });
    assert.deepEqual(missing.json().data, {});
  });

  test("register-guest checks tenant and identity, then files an application that waits for review", async () => {
    const register = (query: Record<string, string>, guestToken?: string) =>
      server.inject({
        method: "POST",
        url: "/api/blade-user/register-guest",
        query,
        ...(guestToken ? { headers: { "blade-auth": `bearer ${guestToken}` } } : {}),
      });
    const noTenant = await register({
      tenantId: "777777",
      name: "Guest",
      account: "g1",
      password: "pw",
      oauthId: "1",
    });
    assert.equal(noTenant.statusCode, 400);
    assert.equal(noTenant.json().msg, "租户信息错误!");
    const noOauth = await register({
      tenantId: "000000",
      name: "Guest",
      account: "g1",
      password: "pw",
      oauthId: "1",
    });
    assert.equal(noOauth.json().msg, "第三方登陆信息错误!");
    const missing = await register({ tenantId: "000000", name: "Guest", password: "pw", oauthId: "1" });
    assert.equal(missing.statusCode, 400);
    assert.equal(missing.json().msg, "缺少必要的请求参数: account");

    const oauthId = nextId();
    await server.db.query(
      "insert into sys_user_oauth (id, uuid, username, source) values ($1, 'gh-1', 'octo', 'github')",
      [oauthId],
    );
    const query = { tenantId: "000000", name: "Guest", account: "guest1", password: "pw-guest", oauthId };
    // Knowing an identity's id is not enough: only its own guest token may register it.
    assert.equal((await register(query)).json().msg, "第三方登陆信息错误!");
    const guest = guestToken(server.jwtSecret, "000000", oauthId);
    const ok = await register(query, guest);
    assert.equal(ok.statusCode, 200, ok.body);
    assert.equal(ok.json().success, true);
    assert.equal(ok.json().msg, "注册申请已提交,请耐心等待管理员审核");
    const again = await register({ ...query, account: "guest2" }, guest);
    assert.equal(again.json().msg, "第三方登陆信息错误!");
    // Pending approval: no account exists yet.
    const login = await server.inject({
      method: "POST",
      url: "/api/blade-auth/oauth/token",
      query: { grant_type: "password", username: "guest1", password: "pw-guest", tenantId: "000000" },
      headers: {
        authorization: `Basic ${Buffer.from("saber:saber_secret").toString("base64")}`,
        "tenant-id": "000000",
      },
    });
    assert.equal(login.json().error_description, "用户名或密码错误");
  });
});

/** A guest token as the social grant issues it for an unbound identity. */
function guestToken(secret: string, tenantId: string, oauthId: string): string {
  const now = Math.floor(Date.now() / 1000);
  return signJwt(
    { token_type: "guest", tenant_id: tenantId, oauth_id: oauthId, jti: nextId(), iat: now, exp: now + 600 },
    secret,
  );
}
