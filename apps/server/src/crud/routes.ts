import { permissionCodes, type ResourceDef, type TreeNode } from "@meterline/contracts";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { ok, page } from "../contract/envelope.ts";
import { badRequest, notFound } from "../contract/errors.ts";
import { idList, optionalId, paging, readParams } from "../contract/params.ts";
import type { Db, Queryable } from "../db/client.ts";
import { columnByName } from "./columns.ts";
import { assertDictionaryValues } from "./dictionary-check.ts";
import { listFilters } from "./filters.ts";
import type { HookContext, ResourceHooks } from "./hooks.ts";
import { readInput } from "./input.ts";
import { requirePermission } from "./permissions.ts";
import { visibleRows } from "./scope.ts";
import { type Row, serializeRow } from "./serialize.ts";
import { ident, SqlParams } from "./sql.ts";
import { assertUnique, ResourceStore } from "./store.ts";
import { forestOf, treeNodes } from "./tree.ts";

export interface EngineOptions {
  db: Db;
  timeZone: string;
  hooks?: ResourceHooks;
}

export const NOT_FOUND_MESSAGE = "数据不存在或无权访问";
const SELECT_LIMIT = 2000;

/** Registers the Blade-shaped routes of one plain resource (design §4). */
export async function registerResource(app: FastifyInstance, def: ResourceDef, options: EngineOptions) {
  const { db, timeZone, hooks = {} } = options;
  const store = new ResourceStore(db, def);
  const codes = permissionCodes(def);
  const readCodes = [def.name, codes.view, codes.add, codes.edit, codes.remove];
  const base = `/api/${def.service}/${def.path}`;
  const tags = [def.name];

  const context = (request: FastifyRequest): HookContext => ({ db, def, user: request.user! });
  const out = async (request: FastifyRequest, rows: Row[]) => {
    const serialized = rows.map((row) => serializeRow(def, row, timeZone));
    await hooks.decorate?.(context(request), serialized);
    return serialized;
  };
  const query = (request: FastifyRequest, params: Record<string, unknown>) => {
    const sql = new SqlParams();
    const tenantId = typeof params.tenantId === "string" ? params.tenantId : undefined;
    const conditions = [
      ...visibleRows(def, request.user!, sql, { tenantId }),
      ...listFilters(def, params, sql, timeZone),
    ];
    return { sql, conditions };
  };

  app.get(`${base}/${def.listVerb}`, { schema: { tags, summary: `List ${def.name}` } }, async (request) => {
    await requirePermission(db, request, readCodes, def.guard);
    const params = readParams(request);
    if (def.tree) return ok(forestOf(def, await out(request, await store.list(query(request, params)))));
    const { current, size, offset } = paging(params);
    const q = query(request, params);
    const total = await store.count(q);
    const rows = await store.list({ ...q, limit: size, offset });
    return ok(page(await out(request, rows), total, current, size));
  });

  app.get(`${base}/detail`, { schema: { tags, summary: `One ${def.name} by id` } }, async (request) => {
    await requirePermission(db, request, readCodes, def.guard);
    const id = optionalId(readParams(request), "id");
    if (!id) throw badRequest("缺少必要的请求参数: id");
    const sql = new SqlParams();
    const conditions = [`t.id = ${sql.bind(id)}`, ...visibleRows(def, request.user!, sql)];
    const [row] = await out(request, await store.list({ sql, conditions }));
    if (!row) throw notFound(NOT_FOUND_MESSAGE);
    return ok(row);
  });

  app.post(
    `${base}/submit`,
    { schema: { tags, summary: `Create (no id) or update ${def.name}` } },
    async (request) => {
      const body = (request.body ?? {}) as Record<string, unknown>;
      if (typeof body !== "object" || Array.isArray(body)) throw badRequest("body: 需要 JSON 对象");
      const id =
        body.id === undefined || body.id === "" || body.id === null ? undefined : optionalId(body, "id");
      const user = await requirePermission(db, request, [id ? codes.edit : codes.add], def.guard);
      const values = readInput(def, body, id ? "update" : "create", timeZone);
      return db.transaction(async (tx) => {
        const txStore = new ResourceStore(tx, def);
        const ctx = { ...context(request), db: tx };
        if (!id) {
          const tenantId = await targetTenant(tx, def, request, body);
          await hooks.beforeWrite?.(ctx, values);
          await assertDictionaryValues(tx, values, tenantId);
          await assertUnique(txStore, values, tenantId);
          return ok({ id: await txStore.insert(values, user, tenantId) });
        }
        const sql = new SqlParams();
        const [visible] = await txStore.visibleIds([id], visibleRows(def, user, sql), sql);
        if (!visible) throw notFound(NOT_FOUND_MESSAGE);
        await hooks.beforeWrite?.(ctx, values, id);
        const owner = def.tenantScoped ? await tenantOf(tx, def.table, id) : undefined;
        await assertDictionaryValues(tx, values, owner ?? user.tenantId);
        await assertUnique(txStore, values, owner, id);
        await txStore.update(id, values, user, (s) => visibleRows(def, user, s));
        return ok({ id });
      });
    },
  );

  app.post(
    `${base}/remove`,
    { schema: { tags, summary: `Remove ${def.name} by ids (CSV)` } },
    async (request) => {
      const user = await requirePermission(db, request, [codes.remove], def.guard);
      const ids = idList(readParams(request), "ids");
      return db.transaction(async (tx) => {
        const txStore = new ResourceStore(tx, def);
        const sql = new SqlParams();
        const visible = await txStore.visibleIds(ids, visibleRows(def, user, sql), sql);
        // All or nothing: one id the caller cannot see fails the whole call and changes no row.
        if (visible.length !== new Set(ids).size) throw notFound(NOT_FOUND_MESSAGE);
        if (def.tree && (await txStore.hasChildren(ids))) throw badRequest("请先删除子节点!");
        await hooks.beforeRemove?.({ ...context(request), db: tx }, ids);
        await txStore.remove(ids, user);
        return ok({});
      });
    },
  );

  if (def.extraVerbs?.includes("select")) {
    app.get(
      `${base}/select`,
      { schema: { tags, summary: `All ${def.name} rows of a tenant, for pickers` } },
      async (request) => {
        const params = readParams(request);
        const q = query(request, params);
        return ok(await out(request, await store.list({ ...q, limit: SELECT_LIMIT, offset: 0 })));
      },
    );
  }

  if (def.tree && def.extraVerbs?.includes("tree")) {
    app.get(
      `${base}/tree`,
      { schema: { tags, summary: `${def.name} as a tree of nodes` } },
      async (request) => {
        const rows = await out(request, await store.list(query(request, readParams(request))));
        return ok<TreeNode[]>(treeNodes(def, rows));
      },
    );
  }

  if (def.tree && def.extraVerbs?.includes("lazy-list")) {
    app.get(
      `${base}/lazy-list`,
      { schema: { tags, summary: `One level of ${def.name}` } },
      async (request) => {
        await requirePermission(db, request, readCodes, def.guard);
        const params = readParams(request);
        const parentId = optionalId(params, "parentId") ?? (Object.keys(params).length ? undefined : "0");
        const q = query(request, params);
        const parent = columnByName(def, def.tree!.parent)!;
        if (parentId !== undefined) q.conditions.push(`t.${ident(parent.column)} = ${q.sql.bind(parentId)}`);
        const rows = await out(request, await store.list(q));
        const ids = rows.map((r) => String(r.id));
        const parents = new Set(ids.length ? await store.childParents(ids) : []);
        return ok(rows.map((r) => ({ ...r, hasChildren: parents.has(String(r.id)) })));
      },
    );
  }
}

/** The tenant a new row belongs to: the caller's, or one the platform administrator names. */
async function targetTenant(
  db: Queryable,
  def: ResourceDef,
  request: FastifyRequest,
  body: Record<string, unknown>,
): Promise<string> {
  const user = request.user!;
  const asked = typeof body.tenantId === "string" && body.tenantId ? body.tenantId : undefined;
  if (!def.tenantScoped || !asked || asked === user.tenantId || !user.roleAliases.includes("administrator")) {
    return user.tenantId;
  }
  const rows = await db.query("select 1 from sys_tenant where tenant_id = $1 and is_deleted = 0", [asked]);
  if (rows.length === 0) throw badRequest(`tenantId: 租户 [${asked}] 不存在`);
  return asked;
}

async function tenantOf(db: Queryable, table: string, id: string): Promise<string> {
  const rows = await db.query<{ tenant_id: string }>(`select tenant_id from "${table}" where id = $1`, [id]);
  return rows[0]?.tenant_id ?? "";
}
