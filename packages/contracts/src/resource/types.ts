/**
 * The declarative definition of a plain resource. One definition drives the server's CRUD routes,
 * validation, tenant and data-scope filters and table schema, and the console's table, search,
 * form, permissions and translations (design §4).
 */

export type FieldType =
  | "string"
  | "text"
  | "richtext"
  | "int"
  | "decimal"
  | "datetime"
  | "date"
  | "id"
  | "idList"
  | "image";

export interface FieldDef {
  type: FieldType;
  /** Database column; snake_case of the field name by default. */
  column?: string;
  required?: boolean;
  maxLength?: number;
  min?: number;
  max?: number;
  /** Decimal places kept by a `decimal` field (exact, stored as numeric). */
  scale?: number;
  /** A regular expression the value must match, and the i18n key of the message when it does not. */
  pattern?: { regex: string; message: string };
  /** System dictionary (global) whose keys are the allowed values. */
  dict?: string;
  /** Business dictionary (per tenant) whose keys are the allowed values. */
  dictBiz?: string;
  /** Another resource this field points at; the console offers a select of its rows. */
  ref?: { resource: string; label: string; multiple?: boolean };
  /**
   * A link whose resource depends on another field's value: a room meter's `meterId` names an
   * electric meter when `energyType` is 1 and a water meter when it is 2.
   */
  refBy?: { field: string; resources: Record<string, { resource: string; label: string }> };
  /** How the list call filters on this field, and whether the console's search form shows it. */
  search?: "like" | "equal" | "range";
  /** Shown as a table column (default true). */
  list?: boolean;
  /** Shown in the add / edit form (default true). */
  form?: boolean;
  /** Set at creation, then fixed (codes, keys). */
  readOnlyOnEdit?: boolean;
  /**
   * Unique among live rows of the same tenant (or globally for untenanted resources); a list names
   * the other fields that form the key with this one, e.g. a dictionary key within its code.
   */
  unique?: boolean | readonly string[];
  default?: string | number;
  /** Never sent to any client (hashes, secrets). */
  secret?: boolean;
  /**
   * Stored encrypted with the server's key and sent masked (last four characters); an update that
   * sends the mask back, or nothing, keeps the stored value (payment keys).
   */
  encrypted?: boolean;
  /** Form width in 24ths (default 12). */
  span?: number;
  /** Table column width in pixels. */
  width?: number;
}

export type ListVerb = "list" | "page";
export type ExtraVerb =
  | "select"
  /** An unpaged list beside a paged `page` (ownerGroup/list). */
  | "list"
  /** A second paged list, the same as `page` (waterdataread/pageNew, waterdatadaily/pageNew). */
  | "pageNew"
  /** `list` answering the page, the same as `page` (ownerroom/list: spec §7 lists read records and total). */
  | "listPage"
  | "tree"
  /** The tree of the tenant that owns the row named by `<name>Id` (role/tree-by-id?roleId=). */
  | "tree-by-id"
  | "lazy-list"
  | "lazy-tree"
  | "lazy-menu-list"
  | "menu-list"
  /**
   * The ids of every row matching a list search (`matching-ids?<search>` → { total, ids }), so a
   * batch can act on "all N matching" rather than the ticked rows of one page.
   */
  | "matching-ids";

export interface ResourceDef {
  /** Key of the resource: i18n `resource.<name>`, and its menu code unless `menuCode` says otherwise. */
  name: string;
  /**
   * Code of the resource's menu and prefix of its permission codes (`<code>_add` and so on) where
   * the family's seed spells it differently from the name (contract §19: `dictbiz`, `data_scope`).
   */
  menuCode?: string;
  table: string;
  /** `/api/<service>/<path>/...` */
  service: string;
  path: string;
  /** Verb of the paged list the console calls. */
  listVerb: ListVerb;
  extraVerbs?: readonly ExtraVerb[];
  tenantScoped: boolean;
  /** Tenant-scoped even for the platform administrator (business dictionaries, top menus: contract §9.1). */
  tenantStrict?: boolean;
  /** Rows are written by the server itself (logs): no submit or remove routes. */
  readOnly?: boolean;
  /**
   * Rows are created by the server (commands to meters): submit only edits an existing row (with an
   * id, the fields not marked `form: false`), and the screen has no add button.
   */
  rowsCreatedByServer?: boolean;
  /** submit and remove carry domain rules and live in a module (tenant provisioning, users). */
  moduleWrites?: boolean;
  /**
   * Write calls of the spec that an append-only resource refuses by design, each with the message
   * (Chinese, the console's default) saying why and what to do instead. The server answers them
   * 400 with it, after the screen's permission check, rather than 404 as an unknown call.
   */
  refusedWrites?: { readonly submit?: string; readonly remove?: string };
  /**
   * Write paths besides the usual `submit` (create without id, update with one): `save` creates
   * only and `update` updates only, as some PMS resources are called (spec §7). Default `["submit"]`.
   */
  writeVerbs?: readonly ("submit" | "save" | "update")[];
  /** The remove path's last segment: `remove`, or `delete` where the spec says so (collector). */
  removeVerb?: "remove" | "delete";
  /** Remove sets is_deleted = 1 instead of deleting. */
  softDelete: boolean;
  /** Has the audit columns (create_user, create_dept, create_time, update_user, update_time, status). */
  audit: boolean;
  /**
   * A tree resource: its parent field, the field shown as the node title, whether it keeps
   * ancestors, and equality filters of its picker verbs (`tree`, `menu-list`, `lazy-menu-list`).
   */
  tree?: {
    parent: string;
    title: string;
    ancestors?: boolean;
    pickerFilter?: Record<string, string | number>;
    /**
     * Query parameters the `tree` verb ignores as the family does: its consoles call
     * `dict/tree?code=DICT` for the parent picker and expect every dictionary.
     */
    treeIgnores?: readonly string[];
  };
  fields: Record<string, FieldDef>;
  /** Default order of lists. */
  sort?: readonly { field: string; desc?: boolean }[];
  /**
   * Indexes besides those of links and unique keys, for the orders and filters a large table is
   * read by (field names; the tenant column leads each on a tenant-scoped resource).
   */
  indexes?: readonly (readonly string[])[];
  /** Who may use it beyond the permission codes: the platform administrator only, or any admin. */
  guard?: "administrator" | "admin";
  /** Apply the data-scope rules granted to the caller's roles to reads. */
  dataScope?: boolean;
  /**
   * Menu codes of screens that use this resource's pickers (select, tree, lazy-tree) without a
   * `ref` field saying so (a screen laid out beside the area tree). Screens whose definitions
   * link here by `ref` or `refBy` are found by themselves (see pickerCodesOf).
   */
  pickerUsers?: readonly string[];
  /**
   * The family's own guard on the pickers (contract §8.2: `tenant/select`, `role/tree`, `dept/*`
   * are guarded by the administrator roles): a holder of the `admin` role passes them without the
   * screens' codes, so the family's consoles fill their tenant, role and dept pickers for a tenant
   * administrator. Everyone else still needs a screen that picks them.
   */
  pickerGuard?: "admin";
  /**
   * How a page counts its total. Exact by default: a `count(*)` of the whole search. A table that
   * grows without end (readings, commands, logs) declares `{ bounded: cap }`: the count stops `cap`
   * rows past the page, so a search that matches fewer rows is still counted exactly and a larger
   * one answers a lower bound (`totalExact: false`) that still lets the pager move on.
   */
  count?: CountPolicy;
}

/** See `ResourceDef.count`. */
export type CountPolicy = "exact" | { bounded: number };

/**
 * The count of the tables that grow by the minute (readings, daily usage, commands, logs): up to
 * 2,000 rows past the page, so a filtered search (one meter, one day) is still counted exactly and
 * an unfiltered first page costs about what a filtered one does.
 */
export const LARGE_TABLE_COUNT = { bounded: 2000 } as const satisfies CountPolicy;

export const snakeCase = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
export const columnOf = (name: string, field: FieldDef) => field.column ?? snakeCase(name);

/** The code of a resource's menu (its screen), which also prefixes its permission codes. */
export const menuCodeOf = (def: Pick<ResourceDef, "name" | "menuCode">) => def.menuCode ?? def.name;

/** Permission codes of a resource, as button codes of the menu table (`<menu>_<alias>`). */
export function permissionCodes(def: Pick<ResourceDef, "name" | "menuCode">) {
  const code = menuCodeOf(def);
  return {
    view: `${code}_view`,
    add: `${code}_add`,
    edit: `${code}_edit`,
    remove: `${code}_delete`,
    exportRows: `${code}_export`,
    importRows: `${code}_import`,
  } as const;
}

/** Codes that let a caller see a resource's screen and read its rows: the menu or any of its buttons. */
export function readCodesOf(def: Pick<ResourceDef, "name" | "menuCode">): string[] {
  const codes = permissionCodes(def);
  return [menuCodeOf(def), codes.view, codes.add, codes.edit, codes.remove];
}

/**
 * Field names the console's forms cannot carry: a form control's id becomes a property of its
 * <form> element, and these shadow properties the browser and antd read (`form.nodeName` turned
 * into an input breaks antd's focus handling as soon as a dialog opens).
 */
const FORM_PROPERTY_NAMES = new Set([
  "nodeName",
  "nodeType",
  "tagName",
  "parentNode",
  "ownerDocument",
  "children",
  "style",
  "className",
]);

/** Checks a definition once, where it is declared, so mistakes fail at start rather than at request time. */
export function defineResource<const T extends ResourceDef>(def: T): T {
  if (!/^[a-z][a-zA-Z0-9]*$/.test(def.name)) throw new Error(`resource name ${def.name}`);
  if (def.menuCode !== undefined && !/^[a-z][a-z0-9_]*$/.test(def.menuCode))
    throw new Error(`${def.name}: menu code ${def.menuCode}`);
  for (const [name, field] of Object.entries(def.fields)) {
    if (!/^[a-z][a-zA-Z0-9]*$/.test(name)) throw new Error(`${def.name}.${name}: field names are camelCase`);
    if (FORM_PROPERTY_NAMES.has(name))
      throw new Error(`${def.name}.${name}: shadows a property of the form element`);
    if (field.dict && field.dictBiz) throw new Error(`${def.name}.${name}: dict or dictBiz, not both`);
    if (field.refBy && !def.fields[field.refBy.field])
      throw new Error(`${def.name}.${name}: refBy field ${field.refBy.field}`);
  }
  if (def.refusedWrites && !def.readOnly && !def.moduleWrites)
    throw new Error(`${def.name}: refusedWrites would shadow the engine's writes`);
  const verbs = def.writeVerbs ?? ["submit"];
  if (!verbs.includes("submit") && !(verbs.includes("save") && verbs.includes("update")))
    throw new Error(`${def.name}: writeVerbs need submit, or save and update`);
  for (const index of def.indexes ?? [])
    for (const name of index) if (!def.fields[name]) throw new Error(`${def.name}: index field ${name}`);
  if (typeof def.count === "object" && !(Number.isInteger(def.count.bounded) && def.count.bounded > 0))
    throw new Error(`${def.name}: count cap ${def.count.bounded}`);
  if (def.tree && !def.fields[def.tree.parent])
    throw new Error(`${def.name}: tree parent ${def.tree.parent}`);
  for (const s of def.sort ?? []) {
    if (!def.fields[s.field] && !["id", "createTime", "updateTime"].includes(s.field)) {
      throw new Error(`${def.name}: sort field ${s.field}`);
    }
  }
  return def;
}

/** The verbs the console calls to create, update and remove rows of a resource. */
export function writePaths(def: Pick<ResourceDef, "writeVerbs" | "removeVerb">) {
  const verbs = def.writeVerbs ?? ["submit"];
  return {
    create: verbs.includes("submit") ? "submit" : "save",
    update: verbs.includes("submit") ? "submit" : "update",
    remove: def.removeVerb ?? "remove",
  } as const;
}

/** `/api/<service>/<path>`; users live directly under their service (`/api/blade-user/page`). */
export const resourceBase = (def: Pick<ResourceDef, "service" | "path">) =>
  def.path ? `/api/${def.service}/${def.path}` : `/api/${def.service}`;

/**
 * Whether the platform administrator reads this resource across tenants, and so is shown whose each
 * row is (a tenant column and a tenant filter): tenant-scoped, not tenant-strict, and not the tenant
 * table itself (whose rows are tenants and carry their own name).
 */
export const crossesTenants = (def: Pick<ResourceDef, "tenantScoped" | "tenantStrict" | "fields">) =>
  def.tenantScoped && !def.tenantStrict && !def.fields.tenantName;

/** A tenant code as stored (sys_tenant.tenant_id, varchar(12)): letters and digits. */
export const TENANT_CODE = /^[0-9A-Za-z]{1,12}$/;
