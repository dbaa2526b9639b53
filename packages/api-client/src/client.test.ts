import assert from "node:assert/strict";
import { test } from "node:test";
import { createApiClient } from "./client.ts";
import { exportUrl } from "./crud.ts";
import { ApiError } from "./errors.ts";
import { encodeQuery } from "./query.ts";

interface Seen {
  url: string;
  init: RequestInit;
}

/** A fetch double answering each call with the next canned response and recording what was sent. */
function fakeFetch(...answers: (() => Response | Promise<Response>)[]) {
  const seen: Seen[] = [];
  const impl = (async (input: string | URL | Request, init?: RequestInit) => {
    seen.push({ url: String(input), init: init ?? {} });
    const next = answers.shift();
    if (!next) throw new Error("unexpected call");
    return next();
  }) as typeof fetch;
  return { impl, seen };
}

const json = (status: number, body: unknown) => () =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });

function setup(answers: (() => Response | Promise<Response>)[], extra: { whitelist?: number[] } = {}) {
  const { impl, seen } = fakeFetch(...answers);
  const events: string[] = [];
  const api = createApiClient({
    baseUrl: "http://x",
    fetch: impl,
    getToken: () => "tok",
    onUnauthorized: () => events.push("401"),
    onError: (message) => events.push(`error:${message}`),
    timeoutMs: 50,
    ...extra,
  });
  const header = (i: number, name: string) => ((seen[i]?.init.headers ?? {}) as Record<string, string>)[name];
  return { api, seen, events, header };
}

test("every call carries the Basic client header, the bearer token and credentials", async () => {
  const { api, seen, header } = setup([json(200, { code: 200, success: true, data: [], msg: "ok" })]);
  assert.deepEqual(await api.routes("7"), []);
  assert.equal(seen[0]?.url, "http://x/api/blade-system/menu/routes?topMenuId=7");
  assert.equal(header(0, "Authorization"), `Basic ${btoa("saber:saber_secret")}`);
  assert.equal(header(0, "Blade-Auth"), "bearer tok");
  assert.equal(seen[0]?.init.credentials, "include");
});

test("login sends everything in the query, tenant and captcha headers, and no bearer token", async () => {
  const token = { access_token: "a", refresh_token: "r", tenant_id: "000000" };
  const { api, seen, header } = setup([json(200, token)]);
  const answer = await api.login({
    tenantId: "000000",
    username: "admin",
    password: "21232f297a57a5a743894a0e4a801fc3",
    captcha: { key: "k", code: "abcd" },
  });
  assert.equal(answer.access_token, "a");
  const url = new URL(seen[0]?.url ?? "");
  assert.equal(url.pathname, "/api/blade-auth/oauth/token");
  assert.equal(url.searchParams.get("grant_type"), "captcha");
  assert.equal(url.searchParams.get("scope"), "all");
  assert.equal(url.searchParams.get("type"), "account");
  assert.equal(url.searchParams.get("password"), "21232f297a57a5a743894a0e4a801fc3");
  assert.equal(seen[0]?.init.method, "POST");
  assert.equal(seen[0]?.init.body, undefined);
  assert.equal(header(0, "Tenant-Id"), "000000");
  assert.equal(header(0, "Captcha-Key"), "k");
  assert.equal(header(0, "Captcha-Code"), "abcd");
  assert.equal(header(0, "Blade-Auth"), undefined);
});

test("a token failure shows error_description, also when it comes with HTTP 200", async () => {
  const { api, events } = setup([
    json(400, { error: "invalid_grant", error_description: "用户名或密码错误" }),
    json(200, { error_description: "验证码不正确" }),
  ]);
  const login = () => api.login({ tenantId: "000000", username: "a", password: "b" });
  await assert.rejects(login, (e: ApiError) => e.kind === "http" && e.status === 400);
  await assert.rejects(login, ApiError);
  assert.deepEqual(events, ["error:用户名或密码错误", "error:验证码不正确"]);
});

test("the body code wins over the HTTP status", async () => {
  const { api, events } = setup([json(200, { code: 400, success: false, data: {}, msg: "操作失败" })]);
  await assert.rejects(api.userInfo(), (e: ApiError) => e.status === 400 && e.message === "操作失败");
  assert.deepEqual(events, ["error:操作失败"]);
});

test("401 calls onUnauthorized and no error toast", async () => {
  const { api, events } = setup([json(200, { code: 401, success: false, data: {}, msg: "请求未授权" })]);
  await assert.rejects(api.buttons(), (e: ApiError) => e.status === 401);
  assert.deepEqual(events, ["401"]);
});

test("whitelisted codes are rejected silently", async () => {
  const { api, events } = setup([json(200, { code: 401, msg: "x" })], { whitelist: [401] });
  await assert.rejects(api.topMenu(), (e: ApiError) => e.kind === "whitelisted");
  assert.deepEqual(events, []);
});

test("the message falls back to error_description, then 未知错误", async () => {
  const { api, events } = setup([json(500, { error_description: "boom" }), json(404, {})]);
  await assert.rejects(api.health());
  await assert.rejects(api.health());
  assert.deepEqual(events, ["error:boom", "error:未知错误"]);
});

test("statuses above 500 and refused connections reject as network errors", async () => {
  const { api, events } = setup([
    json(502, {}),
    () => {
      throw new TypeError("fetch failed");
    },
  ]);
  await assert.rejects(api.health(), (e: ApiError) => e.kind === "network" && e.status === 502);
  await assert.rejects(api.health(), (e: ApiError) => e.kind === "network" && e.message === "fetch failed");
  assert.deepEqual(events, []);
});

test("a call without an answer times out", async () => {
  // Never answers; only the client's own abort can end the call.
  const hanging = ((_input: string | URL | Request, init?: RequestInit) =>
    new Promise<Response>((_resolve, reject) => {
      init?.signal?.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError")));
    })) as typeof fetch;
  const api = createApiClient({ baseUrl: "", fetch: hanging, timeoutMs: 30 });
  await assert.rejects(api.health(), (e: ApiError) => e.kind === "timeout");
});

test("remove sends ids as a CSV query; page drops empty filters", async () => {
  const page = {
    records: [{ id: "1" }],
    total: 1,
    size: 10,
    current: 1,
    pages: 1,
    orders: [],
    searchCount: true,
  };
  const ok = (data: unknown) => json(200, { code: 200, success: true, data, msg: "操作成功" });
  const { api, seen } = setup([ok({}), ok(page)]);
  await api.remove("blade-system", "param", ["11", "12"]);
  assert.equal(seen[0]?.url, "http://x/api/blade-system/param/remove?ids=11%2C12");
  assert.equal(seen[0]?.init.method, "POST");
  const result = await api.page<{ id: string }>("blade-pms", "meter", {
    current: 1,
    size: 10,
    name: "",
    code: "a b",
  });
  assert.equal(result.records[0]?.id, "1");
  assert.equal(seen[1]?.url, "http://x/api/blade-pms/meter/page?current=1&size=10&code=a%20b");
});

test("submit posts JSON; uploadLogs posts the logs to oauth/logout", async () => {
  const ok = json(200, { code: 200, success: true, data: { id: "5" }, msg: "操作成功" });
  const ack = json(200, { success: "true", msg: "success" });
  const { api, seen, header } = setup([ok, ack]);
  assert.deepEqual(await api.submit("blade-system", "param", { paramName: "a" }), { id: "5" });
  assert.equal(seen[0]?.init.body, JSON.stringify({ paramName: "a" }));
  assert.equal(header(0, "Content-Type"), "application/json");
  const log = { type: "error", url: "/", message: "m", stack: "s", time: "2026-01-01 00:00:00" };
  assert.deepEqual(await api.uploadLogs([log]), { success: "true", msg: "success" });
  assert.equal(seen[1]?.url, "http://x/api/blade-auth/oauth/logout");
  assert.equal(seen[1]?.init.body, JSON.stringify([log]));
});

test("encodeQuery skips null and undefined but keeps empty strings", () => {
  assert.equal(encodeQuery({ a: 1, b: null, c: undefined, d: "", e: ["x", 2] }), "a=1&d=&e=x%2C2");
});

test("exportUrl carries the current filters and the token as Blade-Auth", () => {
  assert.equal(
    exportUrl("/api/blade-user", { account: "ad min", realName: "" }, "tok"),
    "/api/blade-user/export?account=ad%20min&Blade-Auth=tok",
  );
});

test("uploads are sent as multipart FormData without a JSON content type", async () => {
  const stored = { link: "/api/x", name: "n", originalName: "me.png" };
  const { api, seen, header } = setup([json(200, { code: 200, success: true, data: stored, msg: "ok" })]);
  assert.deepEqual(await api.putFile(new Blob(["x"]), "me.png", "avatar"), stored);
  assert.equal(seen[0]?.url, "http://x/api/blade-resource/oss/endpoint/put-file?purpose=avatar");
  assert.ok(seen[0]?.init.body instanceof FormData);
  assert.equal(header(0, "Content-Type"), undefined);
});

test("resources under their service address the engine by base path", async () => {
  const page = { records: [], total: 0, size: 10, current: 1, pages: 0 };
  const ok = (data: unknown) => json(200, { code: 200, success: true, data, msg: "ok" });
  const { api, seen } = setup([ok(page), ok({})]);
  await api.listRows("/api/blade-user", "page", { current: 1, size: 10, account: "" });
  assert.equal(seen[0]?.url, "http://x/api/blade-user/page?current=1&size=10");
  await api.grantRoles({ roleIds: ["1"], menuIds: ["2"], dataScopeIds: [], apiScopeIds: [] });
  assert.equal(seen[1]?.url, "http://x/api/blade-system/role/grant");
  assert.equal(
    seen[1]?.init.body,
    JSON.stringify({ roleIds: ["1"], menuIds: ["2"], dataScopeIds: [], apiScopeIds: [] }),
  );
});

test("top menus are granted screens by a JSON body and their keys read by a list of ids", async () => {
  const ok = (data: unknown) => json(200, { code: 200, success: true, data, msg: "ok" });
  const { api, seen } = setup([ok({ menu: ["5"] }), ok({})]);
  assert.deepEqual(await api.topTreeKeys(["7", "8"]), { menu: ["5"] });
  assert.equal(seen[0]?.url, "http://x/api/blade-system/menu/top-tree-keys?topMenuIds=7%2C8");
  await api.grantTopMenus({ topMenuIds: ["7"], menuIds: ["5", "6"] });
  assert.equal(seen[1]?.url, "http://x/api/blade-system/topmenu/grant");
  assert.equal(seen[1]?.init.body, JSON.stringify({ topMenuIds: ["7"], menuIds: ["5", "6"] }));
});

test("rows are written and removed through the verbs a resource names", async () => {
  const ok = (data: unknown) => json(200, { code: 200, success: true, data, msg: "ok" });
  const { api, seen } = setup([ok({ id: "1" }), ok({}), ok({}), ok({}), ok({})]);
  const base = "/api/blade-pms/area";
  await api.submitRow(base, { areaName: "a" }, "save");
  await api.submitRow(base, { id: "1", areaName: "b" }, "update");
  await api.submitRow(base, { id: "1" });
  await api.removeRows("/api/blade-pms/collector", ["1", "2"], "delete");
  await api.removeRows(base, ["3"]);
  assert.deepEqual(
    seen.map((s) => `${s.init.method} ${s.url}`),
    [
      "POST http://x/api/blade-pms/area/save",
      "POST http://x/api/blade-pms/area/update",
      "POST http://x/api/blade-pms/area/submit",
      "POST http://x/api/blade-pms/collector/delete?ids=1%2C2",
      "POST http://x/api/blade-pms/area/remove?ids=3",
    ],
  );
});
