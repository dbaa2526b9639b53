import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { BASIC, startTestServer, type TestServer } from "./helpers.ts";

describe("session: user-info, logout, refresh rotation", () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  const refresh = (refreshToken: string) =>
    server.inject({
      method: "POST",
      url: "/api/blade-auth/oauth/token",
      query: { grant_type: "refresh_token", refresh_token: refreshToken, tenantId: "000000", scope: "all" },
      headers: { authorization: BASIC, "tenant-id": "000000" },
    });

  test("user-info answers the signed-in user in the envelope", async () => {
    const { access_token } = await server.login();
    const res = await server.call("GET", "/api/blade-auth/oauth/user-info", access_token);
    assert.equal(res.statusCode, 200);
    const body = res.json();
    assert.equal(body.code, 200);
    assert.equal(body.success, true);
    assert.equal(body.msg, "操作成功");
    assert.equal(body.data.account, "admin");
    assert.equal(body.data.tenantId, "000000");
    assert.equal(body.data.roleName, "administrator");
    assert.equal(body.data.tenantName, "管理组");
    assert.equal("password" in body.data, false);
  });

  test("the token also works as the Blade-Auth query parameter of downloads", async () => {
    const { access_token } = await server.login();
    const res = await server.inject({
      method: "GET",
      url: `/api/blade-auth/oauth/user-info?Blade-Auth=${access_token}`,
    });
    assert.equal(res.json().data.account, "admin");
  });

  test("no token, a forged token and a logged-out token all get 401 in the envelope", async () => {
    const none = await server.inject({ method: "GET", url: "/api/blade-auth/oauth/user-info" });
    assert.equal(none.statusCode, 401);
    assert.deepEqual(none.json(), { code: 401, success: false, data: {}, msg: "请求未授权" });
    const { access_token, refresh_token } = await server.login();
    const forged = `${access_token.slice(0, -4)}AAAA`;
    assert.equal((await server.call("GET", "/api/blade-auth/oauth/user-info", forged)).statusCode, 401);
    const logout = await server.call("GET", "/api/blade-auth/oauth/logout", access_token);
    assert.deepEqual(logout.json(), { success: "true", msg: "success" });
    const after = await server.call("GET", "/api/blade-auth/oauth/user-info", access_token);
    assert.equal(after.statusCode, 401);
    assert.equal(after.json().code, 401);
    // The session's refresh token died with it.
    assert.equal((await refresh(refresh_token)).statusCode, 400);
  });

  test("logout of one session leaves the user's other sessions signed in", async () => {
    const first = await server.login();
    const second = await server.login();
    await server.call("GET", "/api/blade-auth/oauth/logout", first.access_token);
    assert.equal(
      (await server.call("GET", "/api/blade-auth/oauth/user-info", second.access_token)).statusCode,
      200,
    );
  });

  test("refresh rotates: new tokens, the old refresh token works once only", async () => {
    const first = await server.login();
    const res = await refresh(first.refresh_token);
    assert.equal(res.statusCode, 200, res.body);
    const second = res.json();
    assert.notEqual(second.access_token, first.access_token);
    assert.notEqual(second.refresh_token, first.refresh_token);
    assert.equal(second.user_id, first.user_id);
    assert.equal(
      (await server.call("GET", "/api/blade-auth/oauth/user-info", second.access_token)).statusCode,
      200,
    );
    // Requests already in flight with the previous access token still succeed.
    assert.equal(
      (await server.call("GET", "/api/blade-auth/oauth/user-info", first.access_token)).statusCode,
      200,
    );

    const reused = await refresh(first.refresh_token);
    assert.equal(reused.statusCode, 400);
    assert.equal(reused.json().error, "invalid_grant");
    // A replayed refresh token means it leaked: the whole session is revoked.
    assert.equal(
      (await server.call("GET", "/api/blade-auth/oauth/user-info", second.access_token)).statusCode,
      401,
    );
    assert.equal((await refresh(second.refresh_token)).statusCode, 400);
  });

  test("an access token is not a refresh token", async () => {
    const { access_token } = await server.login();
    assert.equal((await refresh(access_token)).json().error, "invalid_grant");
  });

  test("POST logout stores the console's local error log and keeps the session", async () => {
    const { access_token } = await server.login();
    const logs = [
      {
        type: "error",
        url: "/wel/index",
        message: "boom",
        stack: "Error: boom\n  at x",
        time: "2026-11-22 10:00:00",
      },
      {
        type: "chunk",
        url: "/wel/dashboard",
        message: "chunk failed",
        stack: "",
        time: "2026-11-22 10:00:01",
      },
    ];
    const res = await server.call("POST", "/api/blade-auth/oauth/logout", access_token, logs);
    assert.deepEqual(res.json(), { success: "true", msg: "success" });
    const rows = await server.db.query<{ message: string; exception_name: string }>(
      "select message, exception_name from log_error where service_id = 'meterline-console' order by message",
    );
    assert.deepEqual(
      rows.map((r) => [r.exception_name, r.message]),
      [
        ["error", "boom"],
        ["chunk", "chunk failed"],
      ],
    );
    assert.equal((await server.call("GET", "/api/blade-auth/oauth/user-info", access_token)).statusCode, 200);
    const bad = await server.call("POST", "/api/blade-auth/oauth/logout", access_token, { not: "a list" });
    assert.equal(bad.statusCode, 400);
  });

  test("clear-cache answers the plain success body", async () => {
    const { access_token } = await server.login();
    const res = await server.call("GET", "/api/blade-auth/oauth/clear-cache", access_token);
    assert.deepEqual(res.json(), { success: "true", msg: "success" });
  });
});
