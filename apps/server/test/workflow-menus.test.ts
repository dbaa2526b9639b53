import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { after, before, describe, test } from "node:test";
import { provisionTenant } from "./fixtures.ts";
import { startTestServer, type TestServer } from "./helpers.ts";

const SEED = new URL("../src/db/migrations/seed/035_workflow_menus.sql", import.meta.url);

interface MenuNode {
  code: string;
  path: string;
  children?: MenuNode[];
}

const flatten = (nodes: MenuNode[]): MenuNode[] => nodes.flatMap((n) => [n, ...flatten(n.children ?? [])]);

const SCREENS: [string, string][] = [
  ["work_start", "/work/start"],
  ["work_claim", "/work/claim"],
  ["work_todo", "/work/todo"],
  ["work_send", "/work/send"],
  ["work_done", "/work/done"],
  ["flow_deploy", "/flow/deploy"],
  ["flow_manager", "/flow/manager"],
  ["flow_follow", "/flow/follow"],
];

const BUTTONS = [
  "work_start_flow",
  "work_claim_sign",
  "work_claim_detail",
  "work_todo_handle",
  "work_todo_detail",
  "work_send_detail",
  "work_done_detail",
  "flow_manager_state",
  "flow_manager_remove",
  "flow_follow_delete",
];

describe("workflow menus: 我的事务 and 流程管理 as the family seeds them", () => {
  let server: TestServer;
  let admin: string;

  before(async () => {
    server = await startTestServer();
    admin = (await server.login()).access_token;
  });
  after(async () => server?.close());

  const menusOf = async (token: string) => {
    const res = await server.call("GET", "/api/blade-system/menu/routes", token);
    assert.equal(res.statusCode, 200, res.body);
    return flatten(res.json().data as MenuNode[]);
  };
  const buttonsOf = async (token: string) => {
    const res = await server.call("GET", "/api/blade-system/menu/buttons", token);
    assert.equal(res.statusCode, 200, res.body);
    return flatten(res.json().data as MenuNode[]).map((b) => b.code);
  };

  test("a new tenant's administrator gets both groups, their screens at the family's paths and the buttons", async () => {
    const tenant = await provisionTenant(server, admin, "流程物业");
    const menus = await menusOf(tenant.token);
    for (const [code, path] of SCREENS) {
      assert.equal(menus.find((m) => m.code === code)?.path, path, code);
    }
    assert.ok(menus.some((m) => m.code === "work" && m.path === "/work"));
    assert.ok(menus.some((m) => m.code === "flow" && m.path === "/flow"));
    const buttons = await buttonsOf(tenant.token);
    for (const code of BUTTONS) assert.ok(buttons.includes(code), code);
    // The grants open the calls the screens make (manager list is guarded by flow_manager).
    const list = await server.call("GET", "/api/blade-flow/manager/list?current=1&size=10", tenant.token);
    assert.equal(list.statusCode, 200, list.body);
  });

  test("administrator roles that existed before get the menus; a role without them does not", async () => {
    const tenant = await provisionTenant(server, admin, "旧物业");
    await server.db.query("delete from sys_role_menu where role_id = $1 and menu_id between 1800 and 1829", [
      tenant.roleId,
    ]);
    assert.ok(!(await buttonsOf(tenant.token)).includes("work_todo_handle"));
    // The seed's grant statement is safe to run again: it adds only what a role lacks.
    const sql = await readFile(SEED, "utf8");
    const grant = sql.slice(sql.indexOf("insert into sys_role_menu"), sql.indexOf("update sys_param"));
    await server.db.query(grant);
    await server.db.query(grant);
    const rows = await server.db.query<{ n: string }>(
      "select count(*)::text as n from sys_role_menu where role_id = $1 and menu_id between 1800 and 1829",
      [tenant.roleId],
    );
    assert.equal(rows[0]?.n, "26");
  });

  test("the leave form's types come from the leave_type dictionary, in both languages", async () => {
    const res = await server.call("GET", "/api/blade-system/dict/dictionary?code=leave_type", admin);
    assert.equal(res.statusCode, 200, res.body);
    const items = res.json().data as { dictKey: string; dictValue: string; dictValueEn: string }[];
    assert.deepEqual(
      items.map((i) => [i.dictKey, i.dictValue]),
      [
        ["1", "事假"],
        ["2", "病假"],
        ["3", "年假"],
        ["4", "调休"],
        ["5", "婚假"],
        ["6", "产假"],
      ],
    );
    assert.ok(items.every((i) => i.dictValueEn.length > 0));
  });
});
