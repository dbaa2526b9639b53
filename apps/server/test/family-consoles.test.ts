import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { DEMO_TENANT_ID, seedDemoSite } from "../src/demo/demo-site.ts";
import { FAMILY_CALLS, type FamilyCall, type Shape } from "./family-console-routes.ts";
import { ADMIN_PASSWORD, startTestServer, type TestServer } from "./helpers.ts";

type Json = Record<string, unknown>;

/** Asserts `data` has the contract's shape for `shape`; `where` names the call in messages. */
function assertShape(data: unknown, shape: Shape, where: string) {
  const isTreeNode = (n: Json) =>
    typeof n.id === "string" && typeof n.title === "string" && n.key === n.id && n.value === n.id;
  const everyNode = (nodes: Json[], check: (n: Json) => boolean): boolean =>
    nodes.every(
      (n) =>
        check(n) &&
        (n.children === undefined || (Array.isArray(n.children) && everyNode(n.children as Json[], check))),
    );
  switch (shape) {
    case "page": {
      const page = data as Json;
      assert.ok(Array.isArray(page.records), `${where}: records`);
      for (const key of ["total", "size", "current", "pages"]) {
        assert.equal(typeof page[key], "number", `${where}: ${key}`);
      }
      assert.ok((page.total as number) >= (page.records as unknown[]).length, `${where}: total`);
      break;
    }
    case "tree":
      assert.ok(Array.isArray(data), `${where}: an array`);
      assert.ok(
        everyNode(data as Json[], isTreeNode),
        `${where}: tree nodes ${JSON.stringify(data).slice(0, 200)}`,
      );
      break;
    case "forest":
      assert.ok(Array.isArray(data), `${where}: an array`);
      assert.ok(
        everyNode(data as Json[], (n) => typeof n.id === "string"),
        `${where}: rows with string ids and children arrays`,
      );
      break;
    case "list":
      assert.ok(Array.isArray(data), `${where}: an array`);
      break;
    case "object":
      assert.ok(data && typeof data === "object" && !Array.isArray(data), `${where}: an object`);
      break;
    case "bare":
      break;
    case "keys":
      assert.ok(Array.isArray((data as Json).menu), `${where}: menu keys`);
      assert.ok(
        ((data as Json).menu as unknown[]).every((id) => typeof id === "string"),
        `${where}: ids as strings`,
      );
      break;
    case "grant-tree":
      assert.ok(Array.isArray((data as Json).menu), `${where}: menu`);
      assert.ok(everyNode((data as Json).menu as Json[], isTreeNode), `${where}: menu tree nodes`);
      break;
  }
}

/** A successful answer: the envelope around data of the call's shape (or the call's bare answer). */
function assertAnswer(res: { statusCode: number; body: string; json(): Json }, c: FamilyCall, name: string) {
  assert.equal(res.statusCode, 200, `${res.statusCode} ${res.body.slice(0, 300)}`);
  const body = res.json();
  if (c.shape === "bare") {
    // The BladeX captcha: its key and image, outside the envelope.
    assert.equal(typeof body.key, "string", name);
    assert.match(String(body.image), /^data:image\/png;base64,/, name);
    return;
  }
  assert.equal(body.code, 200, name);
  assert.equal(body.success, true, name);
  assertShape(body.data, c.shape, name);
}

/** Menu codes anywhere in a route or button tree. */
const codesOf = (nodes: Json[]): string[] =>
  nodes.flatMap((n) => [String(n.code), ...codesOf((n.children ?? []) as Json[])]);

/**
 * The family's consoles, unchanged, against this server: every call of their system screens answers
 * the contract's envelope and shape, for the platform administrator and for the demo tenant's
 * administrator (on the screens the family gives a tenant administrator; the platform's own screens
 * refuse it).
 */
describe("the family's consoles on their system screens", () => {
  let server: TestServer;
  const sessions: Record<"platform" | "tenant", { token: string; ids: Record<string, string> }> = {
    platform: { token: "", ids: {} },
    tenant: { token: "", ids: {} },
  };
  let tenantScreens: Set<string>;

  const data = async (token: string, path: string) => {
    const res = await server.call("GET", `/api${path}`, token);
    assert.equal(res.statusCode, 200, `${path}: ${res.body}`);
    return res.json().data;
  };
  const firstId = (rows: Json[] | { records: Json[] }) =>
    String((Array.isArray(rows) ? rows : rows.records)[0]?.id ?? "");

  /** Ids the calls name: the caller's own user, and the first row each screen lists. */
  async function idsOf(token: string): Promise<Record<string, string>> {
    const top = await server.call("POST", "/api/blade-system/topmenu/submit", token, {
      code: `family_${Date.now()}`,
      name: "家族",
      sort: 1,
    });
    assert.equal(top.statusCode, 200, top.body);
    return {
      user: String((await data(token, "/blade-user/info")).id),
      dept: firstId(await data(token, "/blade-system/dept/list")),
      role: firstId(await data(token, "/blade-system/role/tree")),
      post: firstId(await data(token, "/blade-system/post/select")),
      topMenu: String(top.json().data.id),
    };
  }

  before(async () => {
    server = await startTestServer();
    assert.equal(await seedDemoSite(server.db, { adminPassword: ADMIN_PASSWORD }), true);
    sessions.platform.token = (await server.login()).access_token;
    sessions.tenant.token = (await server.login("admin", ADMIN_PASSWORD, DEMO_TENANT_ID)).access_token;
    const platform = sessions.platform.token;
    sessions.platform.ids = {
      ...(await idsOf(platform)),
      menu: firstId(await data(platform, "/blade-system/menu/list")),
      dict: firstId(await data(platform, "/blade-system/dict/parent-list?current=1&size=10")),
      client: firstId(await data(platform, "/blade-system/client/list?current=1&size=10")),
      tenant: firstId(await data(platform, "/blade-system/tenant/list?current=1&size=10")),
    };
    // The platform-only calls are refused before an id matters; the platform's ids stand in.
    sessions.tenant.ids = { ...sessions.platform.ids, ...(await idsOf(sessions.tenant.token)) };
    const tenant = sessions.tenant.token;
    tenantScreens = new Set([
      ...codesOf(await data(tenant, "/blade-system/menu/routes")),
      ...codesOf(await data(tenant, "/blade-system/menu/buttons")),
    ]);
  });
  after(() => server.close());

  const fill = (path: string, ids: Record<string, string>) =>
    path.replace(/\{(\w+)\}/g, (_, name: string) => {
      assert.ok(ids[name], `no ${name} id`);
      return ids[name]!;
    });

  const call = (who: "platform" | "tenant", c: FamilyCall) =>
    server.call(c.method, `/api${fill(c.path, sessions[who].ids)}`, sessions[who].token, c.body);

  test("the demo tenant's administrator holds the family's tenant screens", () => {
    for (const screen of ["user", "dept", "role", "post", "dictbiz", "topmenu", "notice"]) {
      assert.ok(tenantScreens.has(screen), `missing ${screen}`);
    }
    assert.ok(!tenantScreens.has("tenant") && !tenantScreens.has("client"), "platform screens held");
  });

  test("the open-source 用户管理's writes, on its own paths, as the demo tenant's administrator (src/api/system/user.js)", async () => {
    const { token, ids } = sessions.tenant;
    const post = async (path: string, payload?: Json) => {
      const res = await server.call("POST", `/api${path}`, token, payload);
      assert.equal(res.statusCode, 200, `${path}: ${res.body}`);
      assert.equal(res.json().success, true, path);
      return res.json().data;
    };
    const account = `fam${Date.now() % 100000}`;
    const created = await post("/blade-system/user/submit", {
      account,
      password: "family-Pass-1",
      name: account,
      realName: "家族用户",
      userType: 1,
      roleId: ids.role,
      deptId: ids.dept,
      status: 1,
    });
    const id = String(created.id);
    const detail = async () =>
      (await server.call("GET", `/api/blade-system/user/detail?id=${id}`, token)).json().data as Json;
    assert.equal((await detail()).account, account);
    await post("/blade-system/user/update", { ...(await detail()), id, realName: "改名用户" });
    assert.equal((await detail()).realName, "改名用户");
    await post(`/blade-system/user/grant?userIds=${id}&roleIds=${ids.role}`);
    await post(`/blade-system/user/reset-password?userIds=${id}`);
    await post(`/blade-system/user/unlock?userIds=${id}`);
    await post(`/blade-system/user/remove?ids=${id}`);
    const gone = await server.call("GET", `/api/blade-system/user/detail?id=${id}`, token);
    assert.notEqual(gone.json().data?.account, account);
    // The profile calls of any signed-in user.
    await post("/blade-system/user/update-info", { ...(await data(token, "/blade-system/user/info")) });
  });

  for (const c of FAMILY_CALLS) {
    const name = `${c.console} ${c.from}: ${c.method} ${c.path}`;
    test(`${name} as the platform administrator`, async () => {
      assertAnswer(await call("platform", c), c, name);
    });

    test(`${name} as the demo tenant's administrator`, async (t) => {
      const mine = c.screen === null || tenantScreens.has(c.screen);
      if (!mine && !c.administratorOnly) {
        t.skip(`screen ${c.screen} is not among a tenant administrator's`);
        return;
      }
      const res = await call("tenant", c);
      if (c.administratorOnly) {
        assert.equal(res.statusCode, 403, res.body.slice(0, 300));
        assert.deepEqual(
          { code: res.json().code, success: res.json().success },
          { code: 403, success: false },
        );
        return;
      }
      assertAnswer(res, c, name);
    });
  }
});
