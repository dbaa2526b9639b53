import assert from "node:assert/strict";
import { test } from "node:test";
import type { MenuRoute } from "@meterline/contracts";
import {
  ancestorKeys,
  findLeaf,
  isExternalPath,
  menuLeaves,
  normalizeMenus,
  permissionFlags,
  safeUrl,
  searchLeaves,
} from "../src/layout/menu-model.ts";

function route(id: string, path: string, extra: Partial<MenuRoute> = {}): MenuRoute {
  return {
    id,
    parentId: "0",
    code: `c${id}`,
    name: `Menu ${id}`,
    alias: "menu",
    path,
    source: "",
    sort: 1,
    category: 1,
    action: 0,
    isOpen: 1,
    remark: "",
    ...extra,
  };
}

const tree: MenuRoute[] = [
  route("1", "/wel", {
    children: [route("11", "/wel/index", { name: "首页" }), route("12", "/wel/dashboard")],
  }),
  route("2", "/meter"),
  route("3", "/report/index"),
  route("4", "/monitor", {
    children: [
      route("41", "http://example.com/docs", { code: "api_doc", name: "接口文档" }),
      route("42", "https://example.com/new", { isOpen: 2 }),
      route("43", "/static/help.html"),
      route("44", "/x/page", { query: { target: "_blank" } }),
    ],
  }),
  route("5", "/admin", { meta: { roles: ["administrator"] } }),
  route("6", "/all", { meta: { roles: [] } }),
];

test("a top-level leaf gets '/index' appended, unless external or already there", () => {
  const items = normalizeMenus(tree, ["administrator"]);
  assert.equal(items[1]?.path, "/meter/index");
  assert.equal(items[2]?.path, "/report/index");
  assert.equal(items[0]?.children[0]?.path, "/wel/index");
  assert.equal(items[0]?.children[1]?.path, "/wel/dashboard");
});

test("external entries open in the iframe route or a new window", () => {
  const monitor = normalizeMenus(tree, [])[3]?.children ?? [];
  assert.deepEqual(
    monitor.map((item) => [item.target, item.path, item.href]),
    [
      ["iframe", "/myiframe/api_doc", "http://example.com/docs"],
      ["window", "https://example.com/new", "https://example.com/new"],
      ["iframe", "/myiframe/c43", "/static/help.html"],
      ["window", "/x/page", ""],
    ],
  );
  assert.equal(monitor[0]?.keepAlive, true);
  assert.equal(isExternalPath("/wel/index"), false);
});

test("entries whose roles exclude the user are hidden; empty or absent roles show", () => {
  const codes = (roles: string[]) => normalizeMenus(tree, roles).map((item) => item.code);
  assert.deepEqual(codes(["administrator"]), ["c1", "c2", "c3", "c4", "c5", "c6"]);
  assert.deepEqual(codes(["user"]), ["c1", "c2", "c3", "c4", "c6"]);
});

test("leaves, lookup by path and the groups to unfold", () => {
  const items = normalizeMenus(tree, []);
  assert.equal(menuLeaves(items).length, 9);
  assert.equal(findLeaf(items, "/myiframe/api_doc")?.code, "api_doc");
  assert.equal(findLeaf(items, "https://example.com/new"), undefined);
  assert.deepEqual(ancestorKeys(items, "/wel/dashboard"), ["1"]);
  assert.deepEqual(ancestorKeys(items, "/nowhere"), []);
});

test("menu search matches the start of a name, case-insensitively", () => {
  const items = normalizeMenus(tree, []);
  const byName = (text: string) => searchLeaves(items, text, (item) => item.name).map((item) => item.id);
  assert.deepEqual(byName("menu 1"), ["12"]);
  assert.deepEqual(byName("MENU 4"), ["42", "43", "44"]);
  assert.deepEqual(byName("接口"), ["41"]);
  assert.deepEqual(byName("enu"), []);
});

test("only http(s) and same-site paths may be framed or opened", () => {
  assert.equal(safeUrl("/api/docs"), "/api/docs");
  assert.equal(safeUrl("https://x.y/z"), "https://x.y/z");
  assert.equal(safeUrl("javascript:alert(1)"), null);
  assert.equal(safeUrl("//evil.example/x"), null);
  assert.equal(safeUrl("data:text/html,hi"), null);
});

test("every leaf button code becomes a true flag", () => {
  const leaf = (code: string) => ({ ...route(code, ""), code });
  const flags = permissionFlags([
    { ...route("m", ""), children: [leaf("user_add"), leaf("user_delete")] },
    leaf("x"),
  ]);
  assert.deepEqual(flags, { user_add: true, user_delete: true, x: true });
});

test("labels use the menu's meta.i18n key, else menu.<code>", () => {
  const [plain, custom] = normalizeMenus(
    [route("7", "/a"), route("8", "/b", { meta: { i18n: "menu.custom" } })],
    [],
  );
  assert.equal(plain?.i18n, "menu.c7");
  assert.equal(custom?.i18n, "menu.custom");
});
