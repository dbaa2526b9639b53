import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { MenuRoute } from "@meterline/contracts";
import { provisionTenant } from "./fixtures.ts";
import { startTestServer, type TestServer } from "./helpers.ts";
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
});
