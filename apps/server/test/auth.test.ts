import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { md5Hex } from "../src/modules/auth/password.ts";
import { addRole, addTenant, addUser } from "./fixtures.ts";
import { BASIC, startTestServer, type TestServer } from "./helpers.ts";

describe("token endpoint", () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  const storedCode = async (key: string) =>
    (
      await server.db.query<{ code: string }>("select code from auth_captcha where captcha_key = $1", [key])
    )[0]?.code;

  const token = (query: Record<string, string>, headers: Record<string, string> = {}) =>
    server.inject({
      method: "POST",
      url: "/api/blade-auth/oauth/token",
      query: { scope: "all", grant_type: "password", ...query },
      headers: { authorization: BASIC, ...headers },
    });

  test("password grant answers the flat OAuth2 fields of the contract", async () => {
    const res = await token(
      { tenantId: "000000", username: "admin", password: md5Hex("admin") },
      { "tenant-id": "000000" },
    );
    assert.equal(res.statusCode, 200);
    const body = res.json();
    for (const key of [
      "access_token",
      "refresh_token",
      "tenant_id",
      "user_id",
      "role_name",
      "account",
      "jti",
    ]) {
      assert.ok(body[key], `missing ${key}`);
    }
    assert.equal(body.token_type, "bearer");
    assert.equal(body.expires_in, 3600);
    assert.equal(body.tenant_id, "000000");
    assert.equal(body.role_name, "administrator");
    assert.equal(body.user_name, "admin");
    assert.match(body.user_id, /^\d+$/);
  });

  test("the tenant comes from the Tenant-Id header before the query", async () => {
    await addTenant(server.db, "100001");
    const role = await addRole(server.db, "100001", "user");
    await addUser(server.db, {
      tenantId: "100001",
      account: "admin",
      password: "other-pass",
      roleIds: [role],
    });
    const res = await token(
      { tenantId: "000000", username: "admin", password: md5Hex("other-pass") },
      { "tenant-id": "100001" },
    );
    assert.equal(res.statusCode, 200);
    assert.equal(res.json().tenant_id, "100001");
  });

  test("a wrong password is invalid_grant with the contract's wording", async () => {
    const res = await token({ username: "admin", password: md5Hex("nope") }, { "tenant-id": "000000" });
    assert.equal(res.statusCode, 400);
    assert.deepEqual(res.json(), { error: "invalid_grant", error_description: "用户名或密码错误" });
  });

  test("a wrong client secret or no client header is refused", async () => {
    const wrong = await server.inject({
      method: "POST",
      url: "/api/blade-auth/oauth/token",
      query: { grant_type: "password", username: "admin", password: md5Hex("admin"), tenantId: "000000" },
      headers: {
        authorization: `Basic ${Buffer.from("saber:guess").toString("base64")}`,
        "tenant-id": "000000",
      },
    });
    assert.equal(wrong.statusCode, 401);
    assert.equal(wrong.json().error, "invalid_client");
    const none = await server.inject({
      method: "POST",
      url: "/api/blade-auth/oauth/token",
      query: { grant_type: "password", username: "admin", password: md5Hex("admin"), tenantId: "000000" },
    });
    assert.equal(none.statusCode, 401);
  });

  test("missing, unknown and expired tenants are refused with their messages", async () => {
    const missing = await token({ username: "admin", password: md5Hex("admin") });
    assert.equal(missing.json().error_description, "租户ID未找到");
    const unknown = await token({ username: "admin", password: md5Hex("admin") }, { "tenant-id": "999999" });
    assert.equal(unknown.json().error_description, "未获得用户的租户信息");
    await addTenant(server.db, "100002", { expireTime: new Date(Date.now() - 60_000) });
    const role = await addRole(server.db, "100002", "user");
    await addUser(server.db, { tenantId: "100002", account: "late", password: "pw-late", roleIds: [role] });
    const expired = await token({ username: "late", password: md5Hex("pw-late") }, { "tenant-id": "100002" });
    assert.equal(expired.statusCode, 400);
    assert.deepEqual(expired.json(), {
      error: "access_denied",
      error_description: "租户授权已过期,请联系管理员",
    });
  });

  test("a user without roles, and a disabled user, cannot sign in", async () => {
    await addUser(server.db, { tenantId: "000000", account: "norole", password: "pw1", roleIds: [] });
    const noRole = await token({ username: "norole", password: md5Hex("pw1") }, { "tenant-id": "000000" });
    assert.equal(noRole.json().error_description, "未获得用户的角色信息");
    await addUser(server.db, {
      tenantId: "000000",
      account: "off",
      password: "pw2",
      roleIds: ["2"],
      status: 0,
    });
    const off = await token({ username: "off", password: md5Hex("pw2") }, { "tenant-id": "000000" });
    assert.equal(off.statusCode, 400);
    assert.equal(off.json().error_description, "账号已被停用,请联系管理员");
  });

  test("five wrong passwords lock the account even for the right one", async () => {
    await addUser(server.db, { tenantId: "000000", account: "victim", password: "right", roleIds: ["2"] });
    for (let i = 0; i < 5; i++) {
      const res = await token(
        { username: "victim", password: md5Hex(`wrong${i}`) },
        { "tenant-id": "000000" },
      );
      assert.equal(res.json().error_description, "用户名或密码错误");
    }
    const locked = await token({ username: "victim", password: md5Hex("right") }, { "tenant-id": "000000" });
    assert.equal(locked.statusCode, 400);
    assert.deepEqual(locked.json(), {
      error: "access_denied",
      error_description: "登录错误次数过多,请稍后再试",
    });
    // After the window the counter expires: simulate 31 minutes passing.
    await server.db.query("update auth_login_failure set last_failure_at = now() - interval '31 minutes'");
    const again = await token({ username: "victim", password: md5Hex("right") }, { "tenant-id": "000000" });
    assert.equal(again.statusCode, 200);
  });

  test("a success clears earlier failures", async () => {
    await addUser(server.db, { tenantId: "000000", account: "typo", password: "right", roleIds: ["2"] });
    for (let i = 0; i < 4; i++)
      await token({ username: "typo", password: md5Hex("bad") }, { "tenant-id": "000000" });
    assert.equal(
      (await token({ username: "typo", password: md5Hex("right") }, { "tenant-id": "000000" })).statusCode,
      200,
    );
    for (let i = 0; i < 4; i++)
      await token({ username: "typo", password: md5Hex("bad") }, { "tenant-id": "000000" });
    assert.equal(
      (await token({ username: "typo", password: md5Hex("right") }, { "tenant-id": "000000" })).statusCode,
      200,
    );
  });

  test("captcha grant: right code once, wrong or reused code refused", async () => {
    const captcha = (await server.inject({ method: "GET", url: "/api/blade-auth/oauth/captcha" })).json();
    assert.match(captcha.key, /^[0-9a-f]{32}$/);
    assert.match(captcha.image, /^data:image\/png;base64,iVBORw0KGgo/);
    const code = (await storedCode(captcha.key)) ?? "";
    const attempt = (key: string, value: string) =>
      token(
        { grant_type: "captcha", username: "admin", password: md5Hex("admin") },
        { "tenant-id": "000000", "captcha-key": key, "captcha-code": value },
      );
    const ok = await attempt(captcha.key, code.toUpperCase());
    assert.equal(ok.statusCode, 200, ok.body);
    const reused = await attempt(captcha.key, code);
    assert.deepEqual(reused.json(), { error: "access_denied", error_description: "验证码不正确" });
    const other = (await server.inject({ method: "GET", url: "/api/blade-auth/oauth/captcha" })).json();
    assert.equal((await attempt(other.key, "zzzzz")).json().error_description, "验证码不正确");
    // A wrong guess burns the code too: the right one no longer works.
    assert.equal(await storedCode(other.key), undefined);
  });

  test("an expired captcha is refused", async () => {
    const captcha = (await server.inject({ method: "GET", url: "/api/blade-auth/oauth/captcha" })).json();
    const code = (await storedCode(captcha.key)) ?? "";
    await server.db.query(
      "update auth_captcha set expires_at = now() - interval '1 second' where captcha_key = $1",
      [captcha.key],
    );
    const res = await token(
      { grant_type: "captcha", username: "admin", password: md5Hex("admin") },
      { "tenant-id": "000000", "captcha-key": captcha.key, "captcha-code": code },
    );
    assert.equal(res.json().error_description, "验证码不正确");
  });

  test("a social grant for a sign-in that was never started is refused clearly", async () => {
    const res = await token(
      { grant_type: "social", source: "github", code: "x", state: "y" },
      { "tenant-id": "000000" },
    );
    assert.equal(res.statusCode, 400);
    assert.equal(res.json().error, "invalid_grant");
    assert.match(res.json().error_description, /第三方登录/);
  });

  test("an unknown grant type is refused", async () => {
    const res = await token({ grant_type: "implicit" }, { "tenant-id": "000000" });
    assert.equal(res.statusCode, 400);
  });
});

describe("captcha switched on by configuration", () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ captchaEnabled: true });
  });
  after(() => server.close());

  test("the password grant then needs a captcha too, and login-options says so", async () => {
    const res = await server.inject({
      method: "POST",
      url: "/api/blade-auth/oauth/token",
      query: { grant_type: "password", username: "admin", password: md5Hex("admin"), scope: "all" },
      headers: { authorization: BASIC, "tenant-id": "000000" },
    });
    assert.equal(res.json().error_description, "验证码不正确");
    const options = (
      await server.inject({ method: "GET", url: "/api/blade-auth/oauth/login-options" })
    ).json();
    assert.equal(options.data.captchaMode, true);
  });
});
