import { type ResourceDef, writePaths } from "@meterline/contracts";
import type { FastifyRequest } from "fastify";
import { ok } from "../contract/envelope.ts";
import { badRequest, missingParam, notFound } from "../contract/errors.ts";
import { idList, optionalId, readParams } from "../contract/params.ts";
import type { Queryable } from "../db/client.ts";
import { isAdministrator } from "../modules/auth/current-user.ts";
import type { Column } from "./columns.ts";
import { NOT_FOUND_MESSAGE, type ResourceContext } from "./context.ts";
import { assertDictionaryValues } from "./dictionary-check.ts";
import type { FieldCipher } from "./field-cipher.ts";
import { readInput } from "./input.ts";
import { requirePermission } from "./permissions.ts";
import { assertNotReferenced, assertReferences } from "./references.ts";
import { visibleRows } from "./scope.ts";
import { ident, SqlParams } from "./sql.ts";
import { assertUnique, ResourceStore } from "./store.ts";
import { applyTreeRules } from "./tree-rules.ts";

/**
 * Writes, each in one transaction: `submit` (create without id, update with one) or the `save` /
 * `update` pair, and `remove` (or `delete`), as the definition's verbs say.
 */
export function registerWriteRoutes(r: ResourceContext) {
  const { app, def, db, codes, hooks, base, tags, timeZone, cipher } = r;
  const verbs = def.writeVerbs ?? ["submit"];
  const paths = writePaths(def);

  const create = async (request: FastifyRequest, input: Record<string, unknown>) => {
    const user = await requirePermission(db, request, [codes.add], def.guard);
    const values = encryptValues(readInput(def, input, "create", timeZone), cipher);
    return db.transaction(async (tx) => {
      const store = new ResourceStore(tx, def);
      const ctx = { ...r.hookContext(request), db: tx };
      const tenantId = await targetTenant(tx, def, request, input);
      await hooks.beforeWrite?.(ctx, values);
      await applyTreeRules(tx, def, values, { tenantId });
      await assertDictionaryValues(tx, values, tenantId);
      await assertReferences(tx, def, values, tenantId);
      await assertUnique(store, values, tenantId);
      const id = await store.insert(values, user, tenantId);
      await hooks.afterWrite?.(ctx, id, "create");
      return ok({ id });
    });
  };

  const update = async (request: FastifyRequest, id: string, input: Record<string, unknown>) => {
    const user = await requirePermission(db, request, [codes.edit], def.guard);
    const values = encryptValues(readInput(def, input, "update", timeZone), cipher);
    // Visibility is settled before the transaction: it may read grants, which must not wait on it.
    const sql = new SqlParams();
    const visibility = await r.visible(request, sql);
    return db.transaction(async (tx) => {
      const store = new ResourceStore(tx, def);
      const ctx = { ...r.hookContext(request), db: tx };
      const [visible] = await store.visibleIds([id], visibility, sql);
      if (!visible) throw notFound(NOT_FOUND_MESSAGE);
      await hooks.beforeWrite?.(ctx, values, id);
      const owner = def.tenantScoped ? await tenantOf(tx, def, id) : undefined;
      const moveSubtree = await applyTreeRules(tx, def, values, { tenantId: owner, id });
      await assertDictionaryValues(tx, values, owner ?? user.tenantId);
      await assertReferences(tx, def, values, owner ?? user.tenantId, async (column) =>
        (await store.stored(id, [column])).get(column),
      );
      await assertUnique(store, values, owner, id);
      await store.update(id, values, user, (s) => visibleRows(def, user, s));
      await moveSubtree?.();
      await hooks.afterWrite?.(ctx, id, "update");
      return ok({ id });
    });
  };

  const bodyOf = (request: FastifyRequest) => {
    const body = request.body;
    if (!body || typeof body !== "object" || Array.isArray(body)) throw badRequest("body: 需要 JSON 对象");
    const input = body as Record<string, unknown>;
    const id =
      input.id === undefined || input.id === "" || input.id === null ? undefined : optionalId(input, "id");
    return { input, id };
  };

  if (verbs.includes("submit")) {
    app.post(
      `${base}/submit`,
      { schema: { tags, summary: `Create (no id) or update ${def.name}` } },
      async (request) => {
        // Permission before validation: a caller who may not write learns nothing from the checks.
        await requirePermission(db, request, [codes.add, codes.edit], def.guard);
        const { input, id } = bodyOf(request);
        if (!id && def.rowsCreatedByServer)
          throw badRequest("id: 此记录由系统写入,不能手工新增;提交须带 id,只修改已有记录的备注等字段");
        return id ? update(request, id, input) : create(request, input);
      },
    );
  }
  if (verbs.includes("save")) {
    app.post(`${base}/save`, { schema: { tags, summary: `Create ${def.name}` } }, async (request) => {
      await requirePermission(db, request, [codes.add], def.guard);
      const { input, id } = bodyOf(request);
      if (id) throw badRequest("id: 新增时不能指定 id");
      return create(request, input);
    });
  }
  if (verbs.includes("update")) {
    app.post(`${base}/update`, { schema: { tags, summary: `Update ${def.name}` } }, async (request) => {
      await requirePermission(db, request, [codes.edit], def.guard);
      const { input, id } = bodyOf(request);
      if (!id) throw missingParam("id");
      return update(request, id, input);
    });
  }

  app.post(
    `${base}/${paths.remove}`,
    { schema: { tags, summary: `Remove ${def.name} by ids (CSV)` } },
    async (request) => {
      const user = await requirePermission(db, request, [codes.remove], def.guard);
      const ids = idList(readParams(request), "ids");
      const sql = new SqlParams();
      const visibility = await r.visible(request, sql);
      return db.transaction(async (tx) => {
        const store = new ResourceStore(tx, def);
        const visible = await store.visibleIds(ids, visibility, sql);
        // All or nothing: one id the caller cannot see fails the whole call and changes no row.
        if (visible.length !== new Set(ids).size) throw notFound(NOT_FOUND_MESSAGE);
        if (def.tree && (await store.hasChildren(ids))) throw badRequest("请先删除子节点!");
        // The resource's own reasons (an open account, money held) say more than "still linked".
        await hooks.beforeRemove?.({ ...r.hookContext(request), db: tx }, ids);
        await assertNotReferenced(tx, def, ids);
        await store.remove(ids, user);
        return ok({});
      });
    },
  );
}

/** Encrypted fields are stored as cipher text; the plain value never reaches the table. */
export function encryptValues(values: Map<Column, unknown>, cipher: FieldCipher): Map<Column, unknown> {
  for (const [column, value] of values) {
    if (column.field.encrypted && typeof value === "string" && value !== "")
      values.set(column, cipher.encrypt(value));
  }
  return values;
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
  if (!def.tenantScoped || def.tenantStrict || !asked || asked === user.tenantId || !isAdministrator(user)) {
    return user.tenantId;
  }
  const rows = await db.query("select 1 from sys_tenant where tenant_id = $1 and is_deleted = 0", [asked]);
  if (rows.length === 0) throw badRequest(`tenantId: 租户 [${asked}] 不存在`);
  return asked;
}

async function tenantOf(db: Queryable, def: ResourceDef, id: string): Promise<string> {
  const rows = await db.query<{ tenant_id: string }>(
    `select tenant_id from ${ident(def.table)} where id = $1`,
    [id],
  );
  return rows[0]?.tenant_id ?? "";
}
