/**
 * The calls the family's two consoles make on their system screens, as data.
 *
 * - `oss`: the open-source Saber 4.9 (github.com/chillzhuang/Saber), read from its `src/api/**`
 *   modules and the `dicUrl`s of its `src/views/**` screens; `from` names that file.
 * - `bx`: the BladeX "Saber commercial" 2.8.1 console, whose sources are not public: its calls as
 *   the contract lists them (§10, §10.11, §17), `from` naming the contract's section.
 *
 * `screen` is the menu code of the screen making the call: a tenant administrator (who holds the
 * family's tenant menus, `tenant.default.menuCode`) is only expected to reach its own screens' calls;
 * `null` marks calls any signed-in console makes (sign-in, menus, profile).
 * `shape` is what the contract says `data` holds. Ids in `{…}` are filled from earlier answers.
 */
export type Shape =
  | "page" // { records, total, size, current, pages }
  | "tree" // TreeNode forest: id, parentId, title, key, value, children when there are any
  | "forest" // VO forest: rows with children
  | "list" // a flat array of rows
  | "object" // one row or record
  | "bare" // an answer outside the envelope (the BladeX captcha, contract §5.5)
  | "keys" // { menu: [ids…], … }
  | "grant-tree"; // { menu: [TreeNode], dataScope: [TreeNode], apiScope: [TreeNode] }

export interface FamilyCall {
  console: "oss" | "bx";
  from: string;
  screen: string | null;
  method: "GET" | "POST";
  /** Path under /api with its query; `{name}` is replaced by an id of the fixture. */
  path: string;
  shape: Shape;
  /** Only the platform administrator may call it (contract §8.2); a tenant administrator gets 403. */
  administratorOnly?: boolean;
  /** The JSON body of a POST; `{name}` replaced likewise. */
  body?: Record<string, unknown>;
}

const get = (
  console: FamilyCall["console"],
  from: string,
  screen: string | null,
  path: string,
  shape: Shape,
  administratorOnly = false,
): FamilyCall => ({ console, from, screen, method: "GET", path, shape, administratorOnly });

const OSS_USER = "src/api/system/user.js";
const OSS_DEPT = "src/api/system/dept.js";
const OSS_ROLE = "src/api/system/role.js";
const OSS_POST = "src/api/system/post.js";
const OSS_MENU = "src/api/system/menu.js";
const OSS_DICT = "src/api/system/dict.js";
const OSS_TENANT = "src/api/system/tenant.js";
const OSS_TOPMENU = "src/api/system/topmenu.js";
const OSS_SCOPE = "src/api/system/scope.js";
const OSS_CLIENT = "src/api/system/client.js";
const OSS_PARAM = "src/api/system/param.js";
const OSS_REGION = "src/api/base/region.js";
const OSS_NOTICE = "src/api/desk/notice.js";
const OSS_LOGS = "src/api/logs.js";
const OSS_LOGIN = "src/api/user.js";

export const FAMILY_CALLS: readonly FamilyCall[] = [
  // Open-source Saber 4.9.
  get("oss", OSS_LOGIN, null, "/blade-auth/captcha", "object"),
  get("oss", OSS_LOGIN, null, "/blade-system/menu/buttons", "forest"),
  get("oss", OSS_MENU, null, "/blade-system/menu/routes", "forest"),
  get("oss", OSS_MENU, null, "/blade-system/menu/top-menu", "list"),
  get("oss", OSS_USER, null, "/blade-system/user/info", "object"),
  get("oss", OSS_USER, "user", "/blade-system/user/list?current=1&size=10", "page"),
  get("oss", OSS_USER, "user", "/blade-system/user/detail?id={user}", "object"),
  get("oss", "src/views/system/user.vue", "user", "/blade-system/tenant/select", "list"),
  get("oss", OSS_DEPT, "dept", "/blade-system/dept/list", "forest"),
  get("oss", OSS_DEPT, "dept", "/blade-system/dept/detail?id={dept}", "object"),
  get("oss", OSS_DEPT, "user", "/blade-system/dept/tree", "tree"),
  get("oss", "src/views/system/dept.vue", "dept", "/blade-system/tenant/select", "list"),
  get("oss", OSS_ROLE, "role", "/blade-system/role/list", "forest"),
  get("oss", OSS_ROLE, "role", "/blade-system/menu/grant-tree", "grant-tree"),
  get("oss", OSS_ROLE, "role", "/blade-system/menu/role-tree-keys?roleIds={role}", "keys"),
  get("oss", OSS_ROLE, "role", "/blade-system/role/tree", "tree"),
  get("oss", "src/views/authority/role.vue", "role", "/blade-system/tenant/select", "list"),
  get("oss", OSS_POST, "post", "/blade-system/post/list?current=1&size=10", "page"),
  get("oss", OSS_POST, "user", "/blade-system/post/select", "list"),
  get("oss", OSS_POST, "post", "/blade-system/post/detail?id={post}", "object"),
  get("oss", "src/views/system/post.vue", "post", "/blade-system/tenant/select", "list"),
  get("oss", "src/views/system/post.vue", "post", "/blade-system/dict/dictionary?code=post_category", "list"),
  get("oss", OSS_MENU, "menu", "/blade-system/menu/list", "forest", true),
  get("oss", OSS_MENU, "menu", "/blade-system/menu/detail?id={menu}", "object", true),
  get("oss", OSS_MENU, "menu", "/blade-system/menu/lazy-menu-list?parentId=0", "list", true),
  get("oss", "src/views/system/menu.vue", "menu", "/blade-system/menu/tree", "tree", true),
  get("oss", OSS_DICT, "dict", "/blade-system/dict/list", "forest", true),
  get("oss", OSS_DICT, "dict", "/blade-system/dict/detail?id={dict}", "object", true),
  get("oss", OSS_DICT, "dict", "/blade-system/dict/tree?code=DICT", "tree", true),
  get("oss", OSS_TENANT, "tenant", "/blade-system/tenant/list?current=1&size=10", "page", true),
  get("oss", OSS_TOPMENU, "topmenu", "/blade-system/topmenu/list?current=1&size=10", "page"),
  get("oss", OSS_TOPMENU, "topmenu", "/blade-system/menu/grant-top-tree", "grant-tree"),
  get("oss", OSS_TOPMENU, "topmenu", "/blade-system/menu/top-tree-keys?topMenuIds={topMenu}", "keys"),
  get("oss", OSS_TOPMENU, "topmenu", "/blade-system/topmenu/detail?id={topMenu}", "object"),
  get(
    "oss",
    OSS_SCOPE,
    "data_scope",
    "/blade-system/data-scope/list?menuId={menu}&current=1&size=10",
    "page",
    true,
  ),
  get(
    "oss",
    OSS_SCOPE,
    "api_scope",
    "/blade-system/api-scope/list?menuId={menu}&current=1&size=10",
    "page",
    true,
  ),
  get(
    "oss",
    "src/views/authority/datascope.vue",
    "data_scope",
    "/blade-system/dict/dictionary?code=data_scope_type",
    "list",
  ),
  get("oss", OSS_CLIENT, "client", "/blade-system/client/list?current=1&size=10", "page", true),
  get("oss", OSS_CLIENT, "client", "/blade-system/client/detail?id={client}", "object", true),
  get("oss", OSS_PARAM, "param", "/blade-system/param/list?current=1&size=10", "page", true),
  get("oss", OSS_REGION, "region", "/blade-system/region/lazy-tree?parentCode=00", "tree", true),
  get("oss", "src/views/base/region.vue", "region", "/blade-system/region/select?code=00", "list", true),
  get("oss", OSS_NOTICE, "notice", "/blade-desk/notice/list?current=1&size=10", "page"),
  get("oss", "src/views/desk/notice.vue", "notice", "/blade-system/dict/dictionary?code=notice", "list"),
  get("oss", OSS_LOGS, "log_usual", "/blade-log/usual/list?current=1&size=10", "page"),
  get("oss", OSS_LOGS, "log_api", "/blade-log/api/list?current=1&size=10", "page"),
  get("oss", OSS_LOGS, "log_error", "/blade-log/error/list?current=1&size=10", "page"),

  // BladeX Saber 2.8.1, by the contract.
  get("bx", "§5.5", null, "/blade-auth/oauth/captcha", "bare"),
  get("bx", "§10.1", null, "/blade-user/info", "object"),
  get("bx", "§10.1", "user", "/blade-user/page?current=1&size=10", "page"),
  get("bx", "§10.1", "user", "/blade-user/list?current=1&size=10", "page"),
  get("bx", "§10.1", "user", "/blade-user/detail?id={user}", "object"),
  get("bx", "§10.11", "user", "/blade-system/tenant/select", "list"),
  get("bx", "§10.11", "user", "/blade-system/role/tree", "tree"),
  get("bx", "§10.11", "user", "/blade-system/dept/tree", "tree"),
  get("bx", "§10.11", "user", "/blade-system/post/select", "list"),
  get("bx", "§10.2", "dept", "/blade-system/dept/lazy-list?parentId=0", "list"),
  get("bx", "§10.2", "dept", "/blade-system/dept/lazy-tree?parentId=0", "tree"),
  get("bx", "§10.2", "dept", "/blade-system/dept/select", "list"),
  get("bx", "§10.11", "dept", "/blade-system/tenant/select", "list"),
  get("bx", "§8.1", "role", "/blade-system/role/tree-by-id?roleId={role}", "tree"),
  get("bx", "§8.1", "role", "/blade-system/role/tree-by-id", "tree"),
  get("bx", "§10.11", "role", "/blade-system/tenant/select", "list"),
  get("bx", "§10.11", "post", "/blade-system/tenant/select", "list"),
  get("bx", "§10.4", "dict", "/blade-system/dict/parent-list?current=1&size=10", "page", true),
  get("bx", "§10.4", "dict", "/blade-system/dict/child-list?parentId={dict}", "list", true),
  get("bx", "§10.5", "dictbiz", "/blade-system/dict-biz/parent-list?current=1&size=10", "page"),
  get("bx", "§10.5", "dictbiz", "/blade-system/dict-biz/tree?code=DICT", "tree"),
  get("bx", "§10.5", "dictbiz", "/blade-system/dict-biz/dictionary?code=sex", "list"),
  get("bx", "§7.5", "menu", "/blade-system/menu/lazy-list?parentId=0", "list", true),
  get("bx", "§7.5", "menu", "/blade-system/menu/menu-list", "forest", true),
  get("bx", "§9.2", "tenant", "/blade-system/tenant/detail?id={tenant}", "object", true),
  get("bx", "§10.6", "param", "/blade-system/param/list?current=1&size=10", "page", true),
  get("bx", "§12.2", "oss", "/blade-resource/oss/list?current=1&size=10", "page"),
  get("bx", "§12.3", "sms", "/blade-resource/sms/list?current=1&size=10", "page"),
  get("bx", "§12.4", "attach", "/blade-resource/attach/list?current=1&size=10", "page"),
];
