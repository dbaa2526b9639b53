import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { MenuRoute, TreeNode } from "@meterline/contracts";
import { nextId } from "../src/db/ids.ts";
import { addUser } from "./fixtures.ts";
import { startTestServer, type TestServer } from "./helpers.ts";

const codes = (nodes: { code: string; children?: unknown[] }[]): string[] =>
  nodes.flatMap((n) => [n.code, ...codes((n.children ?? []) as { code: string }[])]);
const ids = (nodes: TreeNode[]): string[] => nodes.flatMap((n) => [n.id, ...ids(n.children ?? [])]);

describe("roles, grants and data scopes", () => {
  let server: TestServer;
  let admin: string;
  before(async () => {
    server = await startTestServer();
    admin = (await server.login()).access_token;
  });
  after(() => server.close());

  const menuId = async (code: string) =>
    (await server.db.query<{ id: string }>("select id from sys_menu where code = $1", [code]))[0]!.id;

  test("a role granted a few menus and buttons gives its user exactly those", async () => {
    const role = (
      await server.call("POST", "/api/blade-system/role/submit", admin, {
        roleName: "岗位专员",
        roleAlias: "postClerk",
      })
    ).json().data.id;
    const grantTree = (await server.call("GET", "/api/blade-system/menu/grant-tree", admin)).json().data;
    assert.ok(ids(grantTree.menu).includes(await menuId("post_add")));
    // The tree sends fully checked nodes only: the screen and two of its buttons, not the "system" parent.
    const menuIds = [await menuId("post"), await menuId("post_add"), await menuId("post_view")];
    const grant = await server.call("POST", "/api/blade-system/role/grant", admin, {
      roleIds: [role],
      menuIds,
      dataScopeIds: [],
      apiScopeIds: [],
    });
    assert.equal(grant.statusCode, 200, grant.body);
    const keys = (
      await server.call("GET", `/api/blade-system/menu/role-tree-keys?roleIds=${role}`, admin)
    ).json().data;
    assert.deepEqual([...keys.menu].sort(), [...menuIds].sort());

    await addUser(server.db, { tenantId: "000000", account: "clerk", password: "pw-clerk", roleIds: [role] });
    const clerk = (await server.login("clerk", "pw-clerk")).access_token;
    const routes = (await server.call("GET", "/api/blade-system/menu/routes", clerk)).json()
      .data as MenuRoute[];
    assert.deepEqual(codes(routes), ["system", "post"]);
    const buttons = (await server.call("GET", "/api/blade-system/menu/buttons", clerk)).json().data;
    assert.deepEqual(codes(buttons[0].children), ["post_add", "post_view"]);
    // The console's trimmed form: the same tree, each node its code alone.
    const trimmed = (await server.call("GET", "/api/blade-system/menu/buttons?fields=code", clerk)).json()
      .data;
    assert.deepEqual(trimmed, [
      { code: buttons[0].code, children: [{ code: "post_add" }, { code: "post_view" }] },
    ]);
    const unknownFields = await server.call("GET", "/api/blade-system/menu/buttons?fields=name", clerk);
    assert.equal(unknownFields.statusCode, 400);
    assert.match(unknownFields.json().msg, /fields/);
    // The server enforces the same: adding works, deleting does not.
    const added = await server.call("POST", "/api/blade-system/post/submit", clerk, {
      category: 1,
      postCode: "c1",
      postName: "专员",
      sort: 1,
    });
    assert.equal(added.statusCode, 200, added.body);
    const removed = await server.call(
      "POST",
      `/api/blade-system/post/remove?ids=${added.json().data.id}`,
      clerk,
    );
    assert.equal(removed.statusCode, 403);
    // ...and it cannot grant itself more than it holds.
    const escalate = await server.call("POST", "/api/blade-system/role/grant", clerk, {
      roleIds: [role],
      menuIds: [await menuId("menu")],
    });
    assert.equal(escalate.statusCode, 403);
  });

  test("a parent role's grant trims its child roles", async () => {
    const parent = (
      await server.call("POST", "/api/blade-system/role/submit", admin, {
        roleName: "父",
        roleAlias: "parentRole",
      })
    ).json().data.id;
    const child = (
      await server.call("POST", "/api/blade-system/role/submit", admin, {
        roleName: "子",
        roleAlias: "childRole",
        parentId: parent,
      })
    ).json().data.id;
    const both = [await menuId("post"), await menuId("notice")];
    await server.call("POST", "/api/blade-system/role/grant", admin, { roleIds: [parent], menuIds: both });
    await server.call("POST", "/api/blade-system/role/grant", admin, { roleIds: [child], menuIds: both });
    await server.call("POST", "/api/blade-system/role/grant", admin, {
      roleIds: [parent],
      menuIds: [both[0]],
    });
    const keys = (
      await server.call("GET", `/api/blade-system/menu/role-tree-keys?roleIds=${child}`, admin)
    ).json().data;
    assert.deepEqual(keys.menu, [both[0]]);
    const loop = await server.call("POST", "/api/blade-system/role/submit", admin, {
      id: parent,
      roleName: "父",
      roleAlias: "parentRole",
      parentId: child,
    });
    assert.equal(loop.statusCode, 400);
  });

  test("role/tree-by-id answers the tree of the tenant that owns the role", async () => {
    const tenant = (
      await server.call("POST", "/api/blade-system/tenant/submit", admin, { tenantName: "树租户" })
    ).json().data;
    const [foreign] = await server.db.query<{ id: string }>("select id from sys_role where tenant_id = $1", [
      tenant.tenantId,
    ]);
    const tree = (
      await server.call("GET", `/api/blade-system/role/tree-by-id?roleId=${foreign!.id}`, admin)
    ).json().data as TreeNode[];
    assert.deepEqual(ids(tree), [foreign!.id]);
    const own = (await server.call("GET", "/api/blade-system/role/tree-by-id?roleId=2", admin)).json()
      .data as TreeNode[];
    assert.ok(ids(own).includes("1") && ids(own).includes("2") && !ids(own).includes(foreign!.id));
    // A tenant's admin cannot reach the platform's roles by id; without an id (the family's 角色 →
    // 新增 sends none) it gets its own tenant's tree.
    const tenantAdmin = (await server.login("admin", tenant.password, tenant.tenantId)).access_token;
    const across = await server.call("GET", "/api/blade-system/role/tree-by-id?roleId=2", tenantAdmin);
    assert.equal(across.statusCode, 404);
    const missing = await server.call("GET", "/api/blade-system/role/tree-by-id", tenantAdmin);
    assert.deepEqual(ids(missing.json().data as TreeNode[]), [foreign!.id]);
  });

  test("an 'own dept' data scope shows a user only its department's rows", async () => {
    const deptA = (
      await server.call("POST", "/api/blade-system/dept/submit", admin, { deptName: "甲部", deptCategory: 2 })
    ).json().data.id;
    const deptB = (
      await server.call("POST", "/api/blade-system/dept/submit", admin, { deptName: "乙部", deptCategory: 2 })
    ).json().data.id;
    const scope = (
      await server.call("POST", "/api/blade-system/data-scope/submit", admin, {
        menuId: await menuId("notice"),
        resourceCode: "notice",
        scopeName: "本部门通知",
        scopeColumn: "createDept",
        scopeType: 3,
      })
    ).json().data.id;
    const role = (
      await server.call("POST", "/api/blade-system/role/submit", admin, {
        roleName: "通知员",
        roleAlias: "noticer",
      })
    ).json().data.id;
    const noticeMenus = [await menuId("notice"), await menuId("notice_add"), await menuId("notice_view")];
    await server.call("POST", "/api/blade-system/role/grant", admin, {
      roleIds: [role],
      menuIds: noticeMenus,
      dataScopeIds: [scope],
    });
    const ua = nextId();
    const ub = nextId();
    for (const [id, account, dept] of [
      [ua, "ua", deptA],
      [ub, "ub", deptB],
    ] as const) {
      await addUser(server.db, { tenantId: "000000", account, password: "pw-scope", roleIds: [role] });
      await server.db.query("update sys_user set dept_id = $1 where account = $2", [dept, account]);
      void id;
    }
    const a = (await server.login("ua", "pw-scope")).access_token;
    const b = (await server.login("ub", "pw-scope")).access_token;
    const write = (token: string, title: string) =>
      server.call("POST", "/api/blade-desk/notice/submit", token, {
        title,
        category: 1,
        releaseTime: "2026-11-22 10:00:00",
      });
    const fromA = (await write(a, "甲部的通知")).json().data.id;
    await write(b, "乙部的通知");
    const seenByA = (await server.call("GET", "/api/blade-desk/notice/list", a)).json().data.records;
    assert.deepEqual(
      seenByA.map((r: { title: string }) => r.title),
      ["甲部的通知"],
    );
    assert.equal((await server.call("GET", `/api/blade-desk/notice/detail?id=${fromA}`, b)).statusCode, 404);
    // The administrator is not narrowed.
    const all = (await server.call("GET", "/api/blade-desk/notice/list", admin)).json().data.records;
    assert.ok(all.length >= 2);
  });

  test("a custom data scope outside the fixed vocabulary shows nothing rather than anything", async () => {
    const scope = (
      await server.call("POST", "/api/blade-system/data-scope/submit", admin, {
        menuId: await menuId("post"),
        resourceCode: "post",
        scopeName: "危险",
        scopeType: 5,
        scopeValue: "1=1 or true",
      })
    ).json().data.id;
    const role = (
      await server.call("POST", "/api/blade-system/role/submit", admin, {
        roleName: "受限",
        roleAlias: "limited",
      })
    ).json().data.id;
    await server.call("POST", "/api/blade-system/role/grant", admin, {
      roleIds: [role],
      menuIds: [await menuId("post"), await menuId("post_view")],
      dataScopeIds: [scope],
    });
    await addUser(server.db, { tenantId: "000000", account: "limited", password: "pw-lim", roleIds: [role] });
    const token = (await server.login("limited", "pw-lim")).access_token;
    const page = (await server.call("GET", "/api/blade-system/post/list", token)).json().data;
    assert.equal(page.total, 0);
  });

  test("an API scope narrows a resource's routes to the granted paths", async () => {
    const rule = (
      await server.call("POST", "/api/blade-system/api-scope/submit", admin, {
        menuId: await menuId("notice"),
        resourceCode: "notice",
        scopeName: "只可列表",
        scopePath: "/api/blade-desk/notice/list",
        scopeType: 2,
      })
    ).json().data.id;
    const grantRole = async (alias: string, apiScopeIds: string[]) => {
      const role = (
        await server.call("POST", "/api/blade-system/role/submit", admin, {
          roleName: alias,
          roleAlias: alias,
        })
      ).json().data.id;
      await server.call("POST", "/api/blade-system/role/grant", admin, {
        roleIds: [role],
        menuIds: [await menuId("notice"), await menuId("notice_view"), await menuId("notice_add")],
        apiScopeIds,
      });
      await addUser(server.db, { tenantId: "000000", account: alias, password: "pw-api", roleIds: [role] });
      return (await server.login(alias, "pw-api")).access_token;
    };
    const lister = await grantRole("lister", [rule]);
    const plain = await grantRole("plainNotice", []);
    assert.equal((await server.call("GET", "/api/blade-desk/notice/list", lister)).statusCode, 200);
    const add = await server.call("POST", "/api/blade-desk/notice/submit", lister, {
      title: "t",
      category: 1,
      releaseTime: "2026-11-22 10:00:00",
    });
    assert.equal(add.statusCode, 403);
    assert.equal((await server.call("GET", "/api/blade-desk/notice/list", plain)).statusCode, 403);
    // The administrator is never narrowed.
    assert.equal((await server.call("GET", "/api/blade-desk/notice/detail?id=1", admin)).statusCode, 404);
  });
});
