import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { MENU_ICON_CLASSES, type MenuRoute, menuIconOfClass } from "@meterline/contracts";
import { migrate } from "../src/db/migrate.ts";
import { addRole, addUser, provisionTenant } from "./fixtures.ts";
import { BASIC, startTestServer, type TestServer } from "./helpers.ts";

/** The renames of seed migration 016: old code, new code, old path, new path. */
const RENAMES = [
  ["dictBiz", "dictbiz", "/system/dict-biz", "/system/dictbiz"],
  ["topMenu", "topmenu", "/system/topmenu", "/system/topmenu"],
  ["role", "role", "/system/role", "/authority/role"],
  ["dataScope", "data_scope", "/system/data-scope", "/authority/datascope"],
  ["apiScope", "api_scope", "/system/api-scope", "/authority/apiscope"],
  ["region", "region", "/system/region", "/base/region"],
  ["logUsual", "log_usual", "/monitor/log/usual", "/monitor/log/usual"],
  ["logApi", "log_api", "/monitor/log/api", "/monitor/log/api"],
  ["logError", "log_error", "/monitor/log/error", "/monitor/log/error"],
] as const;

import { buildSite, created } from "./registry-fixtures.ts";

/** Every entry of a route tree as `code path`. */
const entries = (nodes: MenuRoute[]): string[] =>
  nodes.flatMap((n) => [`${n.code} ${n.path}`, ...entries(n.children ?? [])]);

/** Every code of a button tree. */
const buttonCodes = (nodes: { code: string; children?: unknown[] }[]): string[] =>
  nodes.flatMap((n) => [n.code, ...buttonCodes((n.children ?? []) as typeof nodes)]);

/** What the family's own console (Saber) needs from us: the seed's paths and codes (contract §19). */
describe("the family's seed and calls", () => {
  let server: TestServer;
  let admin: string;
  before(async () => {
    server = await startTestServer();
    admin = (await server.login()).access_token;
  });
  after(() => server.close());

  // Before the tests that rewind the seed: those re-run old seeds, which wrote icon names.
  test("screens and top menus carry the family's icon classes, each read back to the icon it had", async () => {
    const classes = new Set<string>(Object.values(MENU_ICON_CLASSES));
    const screens = await server.db.query<{ code: string; source: string }>(
      "select code, source from sys_menu where category = 1 and is_deleted = 0",
    );
    assert.ok(screens.length > 50);
    for (const m of screens) assert.ok(classes.has(m.source), `${m.code}: ${m.source}`);
    const tops = await server.db.query<{ code: string; source: string }>(
      "select code, source from sys_top_menu",
    );
    for (const m of tops) assert.ok(classes.has(m.source), `top ${m.code}: ${m.source}`);
    // The icons Meterline showed before the classes, by screen.
    const before: Record<string, string> = {
      system: "setting",
      user: "user",
      meter: "thunderbolt",
      water: "experiment",
    };
    for (const [code, icon] of Object.entries(before)) {
      const source = screens.find((m) => m.code === code)?.source ?? "";
      assert.equal(menuIconOfClass(source), icon, code);
    }
    const routes = (await server.call("GET", "/api/blade-system/menu/routes", admin)).json()
      .data as MenuRoute[];
    assert.equal(routes.find((n) => n.code === "system")?.source, MENU_ICON_CLASSES.setting);
  });

  test("system menus sit at the seed's paths under the seed's codes", async () => {
    const routes = entries(
      (await server.call("GET", "/api/blade-system/menu/routes", admin)).json().data as MenuRoute[],
    );
    for (const entry of [
      "role /authority/role",
      "data_scope /authority/datascope",
      "api_scope /authority/apiscope",
      "region /base/region",
      "dictbiz /system/dictbiz",
      "topmenu /system/topmenu",
      "user /system/user",
      "dept /system/dept",
      "post /system/post",
      "dict /system/dict",
      "menu /system/menu",
      "param /system/param",
      "tenant /system/tenant",
      "client /system/client",
      "notice /desk/notice",
      "log_usual /monitor/log/usual",
      "log_api /monitor/log/api",
      "log_error /monitor/log/error",
    ]) {
      assert.ok(routes.includes(entry), `missing ${entry}`);
    }
    assert.equal(
      routes.filter((e) => /\/system\/(role|data-scope|api-scope|region|dict-biz)$/.test(e)).length,
      0,
    );
  });

  test("roles and scopes, and regions, are top-level groups of their own as in the seed", async () => {
    const tree = (await server.call("GET", "/api/blade-system/menu/routes", admin)).json()
      .data as MenuRoute[];
    const group = (code: string) => tree.find((n) => n.code === code);
    const children = (code: string) => (group(code)?.children ?? []).map((n) => `${n.code} ${n.path}`);
    assert.equal(group("authority")?.path, "/authority");
    assert.deepEqual(children("authority"), [
      "role /authority/role",
      "data_scope /authority/datascope",
      "api_scope /authority/apiscope",
    ]);
    assert.equal(group("base")?.path, "/base");
    assert.deepEqual(children("base"), ["region /base/region"]);
    assert.deepEqual(
      children("system").filter((e) => /\b(role|data_scope|api_scope|region) /.test(e)),
      [],
    );
  });

  test("a database migrated before the groups ends as a fresh one, grants on the moved screens kept", async () => {
    const db = server.db;
    const tree = () =>
      db.query<{ id: string; parent_id: string; code: string }>(
        "select id, parent_id, code from sys_menu where is_deleted = 0 order by id",
      );
    const fresh = await tree();
    // Rewinds to the shape seed 019 left: the screens under 系统管理, no groups.
    await db.query("update sys_menu set parent_id = 200 where id in (310, 330, 340, 360)");
    await db.query("delete from sys_role_menu where menu_id in (280, 290)");
    await db.query("delete from sys_top_menu_setting where menu_id in (280, 290)");
    await db.query("delete from sys_menu where id in (280, 290)");
    await db.query("delete from schema_migration where version = 'seed/020_family_menu_groups.sql'");
    const role = "990020";
    await db.query(
      "insert into sys_role_menu (id, menu_id, role_id) select 990020 + id, id, $1 from sys_menu where id in (200, 310, 316, 360)",
      [role],
    );

    assert.deepEqual(await migrate(db), ["seed/020_family_menu_groups.sql"]);
    assert.deepEqual(await tree(), fresh);
    const held = await db.query<{ code: string }>(
      "select m.code from sys_role_menu rm join sys_menu m on m.id = rm.menu_id where rm.role_id = $1 order by m.code",
      [role],
    );
    assert.deepEqual(
      held.map((h) => h.code),
      ["authority", "base", "region", "role", "role_grant", "system"],
    );
    const linked = await db.query<{ menu_id: string }>(
      "select menu_id from sys_top_menu_setting where top_menu_id = 3 and menu_id in (280, 290) order by menu_id",
    );
    assert.deepEqual(
      linked.map((l) => String(l.menu_id)),
      ["280", "290"],
    );
  });

  test("the three logs sit in their own group 日志管理 inside 系统监控, as in the seed", async () => {
    const tree = (await server.call("GET", "/api/blade-system/menu/routes", admin)).json()
      .data as MenuRoute[];
    const monitor = tree.find((n) => n.code === "monitor");
    const log = monitor?.children?.find((n) => n.code === "log");
    assert.equal(log?.path, "/monitor/log");
    assert.equal(log?.name, "日志管理");
    assert.deepEqual(
      (log?.children ?? []).map((n) => `${n.code} ${n.path}`),
      ["log_usual /monitor/log/usual", "log_api /monitor/log/api", "log_error /monitor/log/error"],
    );
    assert.deepEqual(
      (monitor?.children ?? []).filter((n) => n.code.startsWith("log_")),
      [],
    );
  });

  test("a database migrated before the log group ends as a fresh one, grants on the logs kept", async () => {
    const db = server.db;
    const tree = () =>
      db.query<{ id: string; parent_id: string; code: string }>(
        "select id, parent_id, code from sys_menu where is_deleted = 0 order by id",
      );
    const fresh = await tree();
    // Rewinds to the shape before the group: the logs straight under 系统监控.
    await db.query("update sys_menu set parent_id = 900 where id in (910, 920, 930)");
    await db.query("delete from sys_role_menu where menu_id = 1770");
    await db.query("delete from sys_top_menu_setting where menu_id = 1770");
    await db.query("delete from sys_menu where id = 1770");
    await db.query("delete from schema_migration where version = 'seed/034_menu_parents.sql'");
    const role = "990034";
    await db.query(
      "insert into sys_role_menu (id, menu_id, role_id) select 990034 + id, id, $1 from sys_menu where id in (900, 920)",
      [role],
    );

    assert.deepEqual(await migrate(db), ["seed/034_menu_parents.sql"]);
    assert.deepEqual(await tree(), fresh);
    const held = await db.query<{ code: string }>(
      "select m.code from sys_role_menu rm join sys_menu m on m.id = rm.menu_id where rm.role_id = $1 order by m.code",
      [role],
    );
    assert.deepEqual(
      held.map((h) => h.code),
      ["log", "log_api", "monitor"],
    );
    const linked = await db.query<{ menu_id: string }>(
      "select menu_id from sys_top_menu_setting where top_menu_id = 2 and menu_id = 1770",
    );
    assert.equal(linked.length, 1);
  });

  test("buttons carry the seed's snake_case codes, with the setting buttons", async () => {
    const codes = buttonCodes(
      (await server.call("GET", "/api/blade-system/menu/buttons", admin)).json().data,
    );
    for (const code of [
      "topmenu_add",
      "topmenu_setting",
      "data_scope_edit",
      "data_scope_setting",
      "api_scope_delete",
      "api_scope_setting",
      "dictbiz_add",
      "log_api_view",
      "log_usual_view",
      "log_error_view",
      "region_add",
      "region_import",
      "region_export",
    ]) {
      assert.ok(codes.includes(code), `missing ${code}`);
    }
    assert.deepEqual(
      codes.filter((c) => /^(topMenu|dataScope|apiScope|dictBiz|logApi|logUsual|logError)_/.test(c)),
      [],
    );
  });

  test("a new tenant's administrator gets the renamed menus and may set a top menu's entries", async () => {
    const t = await provisionTenant(server, admin, "家族租户");
    const codes = buttonCodes(
      (await server.call("GET", "/api/blade-system/menu/buttons", t.token)).json().data,
    );
    assert.ok(codes.includes("dictbiz_add") && codes.includes("topmenu_setting"), codes.join(","));
    const top = (
      await server.call("POST", "/api/blade-system/topmenu/submit", t.token, {
        code: "x",
        name: "X",
        sort: 1,
      })
    ).json().data;
    assert.ok(top?.id, "top menu created");
    const granted = await server.call("POST", "/api/blade-system/topmenu/grant", t.token, {
      topMenuIds: [top.id],
      menuIds: [],
    });
    assert.equal(granted.statusCode, 200, granted.body);
  });

  test("the platform tenant has a post, and its administrator holds it", async () => {
    const posts = (await server.call("GET", "/api/blade-system/post/select?tenantId=000000", admin)).json()
      .data as { id: string; postCode: string; postName: string }[];
    const ceo = posts.find((p) => p.postCode === "ceo");
    assert.equal(ceo?.postName, "首席执行官");
    const [user] = await server.db.query<{ post_id: string }>(
      "select post_id from sys_user where tenant_id = '000000' and account = 'admin'",
    );
    assert.equal(user?.post_id, ceo?.id);
  });

  for (const path of ["dict", "dict-biz"]) {
    test(`${path}/tree?code=DICT answers every dictionary, as the family's parent picker expects`, async () => {
      const whole = (await server.call("GET", `/api/blade-system/${path}/tree`, admin)).json().data as {
        title: string;
      }[];
      const res = await server.call("GET", `/api/blade-system/${path}/tree?code=DICT`, admin);
      assert.equal(res.statusCode, 200, res.body);
      const tree = res.json().data as { title: string }[];
      assert.ok(tree.length > 1, `${path}: ${tree.length} dictionaries`);
      assert.deepEqual(
        tree.map((n) => n.title),
        whole.map((n) => n.title),
      );
    });
  }

  test("ownerroom/list answers the page, as every list of the contract does", async () => {
    const site = await buildSite(server, admin, "fam");
    await created(server, admin, "ownerroom/submit", { ownerId: site.owner, roomId: site.room102 });
    const res = await server.call(
      "GET",
      `/api/blade-pms/ownerroom/list?current=1&size=1&ownerId=${site.owner}`,
      admin,
    );
    assert.equal(res.statusCode, 200, res.body);
    const page = res.json().data;
    assert.equal(page.total, 2);
    assert.equal(page.size, 1);
    assert.equal(page.current, 1);
    assert.equal(page.records.length, 1);
    assert.equal(page.records[0].ownerId, site.owner);
  });
  test("tenant/select answers a tenant administrator its own tenant, as the family's pickers expect", async () => {
    const t = await provisionTenant(server, admin, "选择租户");
    const res = await server.call("GET", "/api/blade-system/tenant/select", t.token);
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(
      (res.json().data as { tenantId: string }[]).map((row) => row.tenantId),
      [t.tenantId],
    );
    const all = (await server.call("GET", "/api/blade-system/tenant/select", admin)).json().data as {
      tenantId: string;
    }[];
    assert.ok(all.some((row) => row.tenantId === t.tenantId) && all.some((row) => row.tenantId === "000000"));
    // A user of that tenant without the administrator role and without screens still gets nothing.
    const role = await addRole(server.db, t.tenantId, "clerk");
    await addUser(server.db, {
      tenantId: t.tenantId,
      account: "clerk",
      password: "clerk-pass-1",
      roleIds: [role],
    });
    const clerk = (await server.login("clerk", "clerk-pass-1", t.tenantId)).access_token;
    assert.equal((await server.call("GET", "/api/blade-system/tenant/select", clerk)).statusCode, 403);
  });

  test("role/tree-by-id without roleId answers the caller's own tenant's role tree", async () => {
    const t = await provisionTenant(server, admin, "角色树租户");
    const titles = async (token: string, query = "") => {
      const res = await server.call("GET", `/api/blade-system/role/tree-by-id${query}`, token);
      assert.equal(res.statusCode, 200, res.body);
      return (res.json().data as { id: string }[]).map((node) => node.id).sort();
    };
    const [own] = await server.db.query<{ ids: string[] }>(
      "select array_agg(id::text order by id::text) as ids from sys_role where tenant_id = $1 and is_deleted = 0",
      [t.tenantId],
    );
    assert.deepEqual(await titles(t.token), own?.ids);
    assert.deepEqual(await titles(t.token, `?roleId=${t.roleId}`), own?.ids);
    const platform = await titles(admin);
    assert.ok(platform.length > 0);
    assert.ok(!platform.includes(t.roleId), "the platform's tree is its own tenant's");
  });

  test("the open-source Saber's user, captcha and logout paths answer as the contract's calls", async () => {
    const page = await server.call("GET", "/api/blade-user/page?current=1&size=2&account=admin", admin);
    const list = await server.call(
      "GET",
      "/api/blade-system/user/list?current=1&size=2&account=admin",
      admin,
    );
    assert.equal(list.statusCode, 200, list.body);
    assert.deepEqual(list.json(), page.json());
    const info = await server.call("GET", "/api/blade-system/user/info", admin);
    assert.deepEqual(
      info.json().data.id,
      (await server.call("GET", "/api/blade-user/info", admin)).json().data.id,
    );
    const captcha = await server.inject({ method: "GET", url: "/api/blade-auth/captcha" });
    assert.equal(captcha.statusCode, 200);
    assert.equal(captcha.json().success, true);
    assert.match(captcha.json().data.key, /^[0-9a-f]{32}$/);
    assert.match(captcha.json().data.image, /^data:image\/png;base64,/);
    // The same permissions: a tenant's user without the user screen is refused on both paths.
    const t = await provisionTenant(server, admin, "别名租户");
    const role = await addRole(server.db, t.tenantId, "clerk");
    await addUser(server.db, {
      tenantId: t.tenantId,
      account: "clerk",
      password: "clerk-pass-1",
      roleIds: [role],
    });
    const clerk = (await server.login("clerk", "clerk-pass-1", t.tenantId)).access_token;
    for (const path of ["/api/blade-user/page", "/api/blade-system/user/list", "/api/blade-user/list"]) {
      assert.equal((await server.call("GET", path, clerk)).statusCode, 403, path);
    }
    const out = await server.call("POST", "/api/blade-auth/logout", clerk);
    assert.equal(out.statusCode, 200, out.body);
    assert.equal(out.json().success, true);
    assert.equal((await server.call("GET", "/api/blade-user/info", clerk)).statusCode, 401);
  });

  test("a client carries the family's fields: redirect URI, resources, authorities, auto-approve, notes", async () => {
    const fields = {
      webServerRedirectUri: "https://app.example.com/callback",
      resourceIds: "blade-system,blade-pms",
      authorities: "ROLE_CLIENT",
      autoapprove: "true",
      additionalInformation: '{"owner":"物业"}',
    };
    const saved = await server.call("POST", "/api/blade-system/client/submit", admin, {
      clientId: "family_app",
      clientSecret: "family_app_secret_0123456789",
      scope: "all",
      authorizedGrantTypes: "refresh_token,password",
      accessTokenValidity: 3600,
      refreshTokenValidity: 604800,
      ...fields,
    });
    assert.equal(saved.statusCode, 200, saved.body);
    const [row] = await server.db.query<{ id: string }>(
      "select id from sys_client where client_id = 'family_app' and is_deleted = 0",
    );
    const detail = (await server.call("GET", `/api/blade-system/client/detail?id=${row?.id}`, admin)).json()
      .data as Record<string, unknown>;
    for (const [name, value] of Object.entries(fields)) assert.equal(detail[name], value, name);
    const tooLong = await server.call("POST", "/api/blade-system/client/submit", admin, {
      id: row?.id,
      clientId: "family_app",
      webServerRedirectUri: `https://${"x".repeat(300)}`,
    });
    assert.equal(tooLong.statusCode, 400, tooLong.body);
    assert.match(tooLong.json().msg, /webServerRedirectUri|回调地址/);
  });

  test("the API documentation entry is a full URL on the caller's origin, as the family opens such entries", async () => {
    const res = await server.inject({
      method: "GET",
      url: "/api/blade-system/menu/routes",
      headers: { authorization: BASIC, "blade-auth": `bearer ${admin}`, host: "meters.example.com:8080" },
    });
    const doc = entries(res.json().data as MenuRoute[]).find((e) => e.startsWith("api_doc "));
    assert.equal(doc, "api_doc http://meters.example.com:8080/api/docs/static/index.html");
    const page = await server.inject({ method: "GET", url: "/api/docs/static/index.html" });
    assert.ok(page.statusCode < 400, `${page.statusCode}`);
    // Console routes stay paths.
    assert.ok(entries(res.json().data as MenuRoute[]).includes("user /system/user"));
  });

  // Runs last: it rewinds this database to the shape earlier migrations left and migrates again.
  test("a database migrated before the renames ends as a fresh one, grants carried over", async () => {
    const db = server.db;
    const menus = () =>
      db.query<{ code: string; path: string }>(
        "select code, path from sys_menu where is_deleted = 0 order by code, path",
      );
    const fresh = await menus();
    for (const [oldCode, newCode, oldPath, newPath] of RENAMES) {
      await db.query(
        `update sys_menu set code = $1 || substr(code, length($2) + 1),
                path = case when path like $4 || '%' then $3 || substr(path, length($4) + 1) else path end
          where code = $2 or code like $2 || '\\_%'`,
        [oldCode, newCode, oldPath, newPath],
      );
    }
    await db.query("delete from sys_role_menu where menu_id in (266, 336, 346, 365, 366)");
    await db.query("delete from sys_menu where id in (266, 336, 346, 365, 366)");
    await db.query("update sys_user set post_id = '' where tenant_id = '000000' and account = 'admin'");
    await db.query("delete from sys_post where id = 1");
    await db.query(
      "update sys_param set param_value = 'desk,post,dictBiz,topMenu,logApi,logError,logUsual' where param_key = 'tenant.default.menuCode'",
    );
    await db.query("delete from schema_migration where version = 'seed/019_family_seed.sql'");
    const role = "990016";
    await db.query(
      "insert into sys_role_menu (id, menu_id, role_id) select 990016, id, $1 from sys_menu where code = 'topMenu_edit'",
      [role],
    );
    assert.equal((await menus()).filter((m) => m.code === "dataScope_add").length, 1, "rewound");

    assert.deepEqual(await migrate(db), ["seed/019_family_seed.sql"]);
    assert.deepEqual(await menus(), fresh);
    const held = await db.query<{ code: string }>(
      "select m.code from sys_role_menu rm join sys_menu m on m.id = rm.menu_id where rm.role_id = $1 order by m.code",
      [role],
    );
    assert.deepEqual(
      held.map((h) => h.code),
      ["topmenu_edit", "topmenu_setting"],
    );
    const [param] = await db.query<{ param_value: string }>(
      "select param_value from sys_param where param_key = 'tenant.default.menuCode'",
    );
    assert.equal(param?.param_value, "desk,post,dictbiz,topmenu,log_api,log_error,log_usual");
    const [admin] = await db.query<{ post_id: string }>(
      "select post_id from sys_user where tenant_id = '000000' and account = 'admin'",
    );
    assert.equal(admin?.post_id, "1");
  });
});
