import { defineResource } from "../resource/types.ts";

/** Departments (contract §10.2): a per-tenant tree that keeps each node's ancestor ids. */
export const dept = defineResource({
  name: "dept",
  table: "sys_dept",
  service: "blade-system",
  path: "dept",
  listVerb: "list",
  extraVerbs: ["tree", "lazy-list", "lazy-tree", "select"],
  tenantScoped: true,
  softDelete: true,
  audit: false,
  guard: "admin",
  pickerGuard: "admin",
  tree: { parent: "parentId", title: "deptName", ancestors: true },
  fields: {
    parentId: { type: "id", default: "0", ref: { resource: "dept", label: "deptName" } },
    ancestors: { type: "string", maxLength: 2000, form: false, list: false },
    deptName: { type: "string", required: true, maxLength: 45, search: "like" },
    fullName: { type: "string", maxLength: 45, search: "like" },
    deptCategory: { type: "int", required: true, dict: "org_category", default: 2 },
    sort: { type: "int", required: true, min: 0, max: 100000, default: 1 },
    remark: { type: "text", maxLength: 255, list: false, span: 24 },
  },
  sort: [{ field: "sort" }, { field: "id" }],
});

/** Roles (contract §8.1): a per-tenant tree; aliases are what permission checks read. */
export const role = defineResource({
  name: "role",
  table: "sys_role",
  service: "blade-system",
  path: "role",
  listVerb: "list",
  extraVerbs: ["tree", "tree-by-id"],
  tenantScoped: true,
  softDelete: true,
  audit: false,
  guard: "admin",
  pickerGuard: "admin",
  tree: { parent: "parentId", title: "roleName" },
  fields: {
    parentId: { type: "id", default: "0", ref: { resource: "role", label: "roleName" } },
    roleName: { type: "string", required: true, maxLength: 255, search: "like" },
    roleAlias: {
      type: "string",
      required: true,
      maxLength: 255,
      search: "like",
      pattern: { regex: "^[A-Za-z][\\w-]*$", message: "alias" },
    },
    sort: { type: "int", required: true, min: 0, max: 100000, default: 1 },
  },
  sort: [{ field: "sort" }, { field: "id" }],
});

/**
 * Menus and buttons (contract §7.1, §7.5): one global tree. Category 1 entries are screens, category 2
 * are buttons whose codes are the permission codes.
 */
export const menu = defineResource({
  name: "menu",
  table: "sys_menu",
  service: "blade-system",
  path: "menu",
  listVerb: "list",
  extraVerbs: ["tree", "lazy-list", "lazy-menu-list", "menu-list"],
  tenantScoped: false,
  softDelete: true,
  audit: false,
  guard: "administrator",
  tree: { parent: "parentId", title: "name", pickerFilter: { category: 1 } },
  fields: {
    parentId: { type: "id", default: "0", ref: { resource: "menu", label: "name" } },
    code: { type: "string", required: true, maxLength: 255, search: "like", unique: true },
    name: { type: "string", required: true, maxLength: 255, search: "like" },
    alias: { type: "string", required: true, maxLength: 255, default: "menu", search: "like" },
    path: { type: "string", maxLength: 255 },
    source: { type: "string", maxLength: 255 },
    sort: { type: "int", required: true, min: 0, max: 100000, default: 1 },
    category: { type: "int", required: true, dict: "menu_category", default: 1 },
    action: { type: "int", required: true, dict: "button_func", default: 0 },
    isOpen: { type: "int", required: true, min: 1, max: 2, default: 1 },
    remark: { type: "text", maxLength: 255, list: false, span: 24 },
  },
  sort: [{ field: "sort" }, { field: "id" }],
});

/**
 * Data-scope rules (contract §8.4), attached to a menu and named by the resource they narrow. The
 * custom type takes a predicate from a fixed vocabulary, never SQL text:
 * `{"field":"createUser","op":"in","value":"$userId"}` with ops in / eq and the values $userId,
 * $deptIds, $tenantId or a literal.
 */
export const dataScope = defineResource({
  name: "dataScope",
  menuCode: "data_scope",
  table: "sys_scope_data",
  service: "blade-system",
  path: "data-scope",
  listVerb: "list",
  tenantScoped: false,
  softDelete: true,
  audit: true,
  guard: "administrator",
  fields: {
    menuId: { type: "id", required: true, search: "equal", ref: { resource: "menu", label: "name" } },
    resourceCode: { type: "string", required: true, maxLength: 255, search: "like" },
    scopeName: { type: "string", required: true, maxLength: 255, search: "like" },
    scopeColumn: { type: "string", maxLength: 255, default: "createDept" },
    scopeType: { type: "int", required: true, dict: "data_scope_type", search: "equal" },
    scopeValue: { type: "text", maxLength: 2000, list: false, span: 24 },
    remark: { type: "text", maxLength: 255, list: false, span: 24 },
  },
});

/** API-scope rules (contract §8.5): a route path prefix or permission code a role may call. */
export const apiScope = defineResource({
  name: "apiScope",
  menuCode: "api_scope",
  table: "sys_scope_api",
  service: "blade-system",
  path: "api-scope",
  listVerb: "list",
  tenantScoped: false,
  softDelete: true,
  audit: true,
  guard: "administrator",
  fields: {
    menuId: { type: "id", required: true, search: "equal", ref: { resource: "menu", label: "name" } },
    resourceCode: { type: "string", required: true, maxLength: 255, search: "like" },
    scopeName: { type: "string", required: true, maxLength: 255, search: "like" },
    scopePath: { type: "string", required: true, maxLength: 255, search: "like" },
    scopeType: { type: "int", required: true, dict: "api_scope_type", search: "equal" },
    remark: { type: "text", maxLength: 255, list: false, span: 24 },
  },
});
