import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { MenuRoute } from "@meterline/contracts";
import { nextId } from "../src/db/ids.ts";
import { addRole, addTenant, addUser } from "./fixtures.ts";
import { startTestServer, type TestServer } from "./helpers.ts";

const codes = (nodes: MenuRoute[]): string[] => nodes.flatMap((n) => [n.code, ...codes(n.children ?? [])]);

describe("menus: routes, buttons, top menus per role", () => {
  let server: TestServer;
  let adminToken: string;
  before(async () => {
    server = await startTestServer();
    adminToken = (await server.login()).access_token;
  });
  after(() => server.close());

  test("the administrator gets every menu as a tree with string ids", async () => {
    const res = await server.call("GET", "/api/blade-system/menu/routes", adminToken);
    const data = res.json().data as MenuRoute[];
    assert.deepEqual(
      data.map((n) => n.code),
      [
        "desk",
        "work",
        "pms",
        "reading",
        "operation",
        "money",
        "system",
        "authority",
        "base",
        "report",
        "resource",
        "tool",
        "flow",
        "monitor",
      ],
    );
    assert.deepEqual(
      data[0]!.children!.map((n) => [n.code, n.path]),
      [
        ["home", "/wel/index"],
        ["dashboard", "/wel/dashboard"],
        ["notice", "/desk/notice"],
      ],
    );
    assert.equal(typeof data[0]!.id, "string");
    assert.equal(data[0]!.children![0]!.children, undefined);
  });

  test("a user sees only the menus granted to its roles, with their ancestors", async () => {
    const roleId = await addRole(server.db, "000000", "viewer");
    // Grant only the leaf: the parent must come back too (grant trees omit half-checked parents).
    await server.db.query("insert into sys_role_menu (id, menu_id, role_id) values ($1, 102, $2)", [
      nextId(),
      roleId,
    ]);
    await addUser(server.db, {
      tenantId: "000000",
      account: "viewer",
      password: "pw-viewer",
      roleIds: [roleId],
    });
    const { access_token } = await server.login("viewer", "pw-viewer");
    const data = (await server.call("GET", "/api/blade-system/menu/routes", access_token)).json()
      .data as MenuRoute[];
    assert.deepEqual(codes(data), ["desk", "dashboard"]);
  });

  test("a top menu narrows the sidebar to its linked menus", async () => {
    const top = (await server.call("GET", "/api/blade-system/menu/top-menu", adminToken)).json().data as {
      id: string;
      code: string;
    }[];
    assert.deepEqual(
      top.map((t) => t.code),
      ["desk", "pms", "monitor", "system"],
    );
    const monitor = top.find((t) => t.code === "monitor")!;
    const data = (
      await server.call("GET", `/api/blade-system/menu/routes?topMenuId=${monitor.id}`, adminToken)
    ).json().data as MenuRoute[];
    assert.deepEqual(codes(data), ["monitor", "api_doc", "log", "log_usual", "log_api", "log_error"]);
  });

  test("another tenant's top menu gives nothing away", async () => {
    await addTenant(server.db, "300001");
    const roleId = await addRole(server.db, "300001", "user");
    await server.db.query("insert into sys_role_menu (id, menu_id, role_id) values ($1, 101, $2)", [
      nextId(),
      roleId,
    ]);
    await addUser(server.db, { tenantId: "300001", account: "t3", password: "pw-t3", roleIds: [roleId] });
    const { access_token } = await server.login("t3", "pw-t3", "300001");
    assert.deepEqual(
      (await server.call("GET", "/api/blade-system/menu/top-menu", access_token)).json().data,
      [],
    );
    const data = (await server.call("GET", "/api/blade-system/menu/routes?topMenuId=1", access_token)).json()
      .data;
    assert.deepEqual(data, []);
    const own = (await server.call("GET", "/api/blade-system/menu/routes", access_token)).json()
      .data as MenuRoute[];
    assert.deepEqual(codes(own), ["desk", "home"]);
  });

  test("buttons are the granted button codes under their parent menus", async () => {
    await server.db.query(
      `insert into sys_menu (id, parent_id, code, name, alias, path, category, action) values
        (5001, 102, 'dashboard_refresh', '刷新', 'refresh', '/wel/dashboard/refresh', 2, 1),
        (5002, 102, 'dashboard_export', '导出', 'export', '/wel/dashboard/export', 2, 1)`,
    );
    const all = (await server.call("GET", "/api/blade-system/menu/buttons", adminToken)).json().data as {
      code: string;
      children: { code: string }[];
    }[];
    const dashboard = all.find((node) => node.code === "dashboard")!;
    assert.deepEqual(
      dashboard.children.map((b: { code: string }) => b.code),
      ["dashboard_refresh", "dashboard_export"],
    );
    const roleId = await addRole(server.db, "000000", "exporter");
    await server.db.query("insert into sys_role_menu (id, menu_id, role_id) values ($1, 5002, $2)", [
      nextId(),
      roleId,
    ]);
    await addUser(server.db, {
      tenantId: "000000",
      account: "exporter",
      password: "pw-exp",
      roleIds: [roleId],
    });
    const { access_token } = await server.login("exporter", "pw-exp");
    const mine = (await server.call("GET", "/api/blade-system/menu/buttons", access_token)).json().data;
    assert.deepEqual(
      mine[0].children.map((b: { code: string }) => b.code),
      ["dashboard_export"],
    );
  });

  test("menus need a signed-in caller", async () => {
    const res = await server.inject({ method: "GET", url: "/api/blade-system/menu/routes" });
    assert.equal(res.statusCode, 401);
  });
});
