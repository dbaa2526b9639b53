import { permissionCodes, resourceBase, resources } from "@meterline/contracts";
import type { FastifyInstance } from "fastify";
import { ok } from "../../contract/envelope.ts";
import { badRequest, notFound } from "../../contract/errors.ts";
import { idList, optionalId, readParams } from "../../contract/params.ts";
import { columnByName } from "../../crud/columns.ts";
import { NOT_FOUND_MESSAGE } from "../../crud/context.ts";
import { readInput } from "../../crud/input.ts";
import { requirePermission } from "../../crud/permissions.ts";
import { visibleRows } from "../../crud/scope.ts";
import { SqlParams } from "../../crud/sql.ts";
import { assertUnique, ResourceStore } from "../../crud/store.ts";
import type { Db, Queryable } from "../../db/client.ts";
import { type CurrentUser, isAdministrator } from "../auth/current-user.ts";
import { paramHooks } from "./param.hooks.ts";
import { PLATFORM_TENANT } from "./param-values.ts";

const def = resources.param;
const codes = permissionCodes(def);
const base = resourceBase(def);
const platformWide = columnByName(def, "platformWide")!;
const paramKey = columnByName(def, "paramKey")!;

interface StoredParam {
  id: string;
  tenant_id: string;
  param_key: string;
  param_name: string;
  param_value: string;
  remark: string | null;
}

/** Rows the caller may touch: the platform's for its administrator, else what its tenant sees. */
const visible = (caller: CurrentUser, sql: SqlParams) =>
  visibleRows(def, caller, sql, { tenantRows: paramHooks.tenantRows });

async function storedParams(db: Queryable, caller: CurrentUser, ids: string[]): Promise<StoredParam[]> {
  const sql = new SqlParams();
  const where = [...visible(caller, sql), `t.id = any(${sql.bind(ids)}::bigint[])`];
  return db.query<StoredParam>(
    `select t.id::text as id, t.tenant_id, t.param_key, t.param_name, t.param_value, t.remark
       from sys_param t where ${where.join(" and ")}`,
    sql.values,
  );
}

async function isPlatformWide(db: Queryable, key: unknown): Promise<boolean> {
  const rows = await db.query(
    "select 1 from sys_param where param_key = $1 and tenant_id = $2 and platform_wide = 1 and is_deleted = 0",
    [String(key), PLATFORM_TENANT],
  );
  return rows.length > 0;
}

/**
 * Parameter writes. The platform administrator edits the platform's rows (defaults and
 * platform-wide values). A tenant edits its own values: editing a default it has not overridden
 * stores the tenant's own row of that key and leaves the default as it was.
 */
export async function paramRoutes(app: FastifyInstance, opts: { db: Db; timeZone: string }) {
  const { db, timeZone } = opts;
  const tags = [def.name];

  const create = async (tx: Queryable, caller: CurrentUser, input: Record<string, unknown>) => {
    const values = readInput(def, input, "create", timeZone);
    if (!isAdministrator(caller)) {
      values.set(platformWide, 0);
      if (await isPlatformWide(tx, values.get(paramKey)))
        throw badRequest(`paramKey: [${String(values.get(paramKey))}] 为平台统一参数,仅平台管理员可设置`);
    }
    const store = new ResourceStore(tx, def);
    await assertUnique(store, values, caller.tenantId);
    return store.insert(values, caller, caller.tenantId);
  };

  const update = async (tx: Queryable, caller: CurrentUser, id: string, input: Record<string, unknown>) => {
    const [row] = await storedParams(tx, caller, [id]);
    if (!row) throw notFound(NOT_FOUND_MESSAGE);
    if (!isAdministrator(caller) && row.tenant_id !== caller.tenantId) {
      // The tenant's first value of a default: a row of its own with the default's key.
      const { param_name: paramName, param_value: paramValue, remark } = row;
      return create(tx, caller, { paramName, paramValue, remark, ...input, paramKey: row.param_key });
    }
    const values = readInput(def, input, "update", timeZone);
    if (!isAdministrator(caller)) values.delete(platformWide);
    await new ResourceStore(tx, def).update(id, values, caller, (sql) => visible(caller, sql));
    return id;
  };

  app.post(
    `${base}/submit`,
    {
      schema: {
        tags,
        summary: "Create (no id) or update a parameter; a tenant's edit of a default makes its own value",
      },
    },
    async (request) => {
      await requirePermission(db, request, [codes.add, codes.edit]);
      const body = request.body;
      if (!body || typeof body !== "object" || Array.isArray(body)) throw badRequest("body: 需要 JSON 对象");
      const input = body as Record<string, unknown>;
      const blank = input.id === undefined || input.id === null || input.id === "";
      const id = blank ? undefined : optionalId(input, "id");
      const caller = await requirePermission(db, request, [id ? codes.edit : codes.add]);
      const saved = await db.transaction((tx) =>
        id ? update(tx, caller, id, input) : create(tx, caller, input),
      );
      return ok({ id: saved });
    },
  );

  app.post(
    `${base}/remove`,
    { schema: { tags, summary: "Remove parameters by ids (CSV)" } },
    async (request) => {
      const caller = await requirePermission(db, request, [codes.remove]);
      const ids = idList(readParams(request), "ids");
      return db.transaction(async (tx) => {
        const rows = await storedParams(tx, caller, ids);
        // All or nothing: one id the caller cannot see fails the whole call and changes no row.
        if (rows.length !== new Set(ids).size) throw notFound(NOT_FOUND_MESSAGE);
        if (rows.some((row) => row.tenant_id !== caller.tenantId))
          throw badRequest("ids: 平台默认参数不可删除,修改即为本租户设置");
        await new ResourceStore(tx, def).remove(ids, caller);
        return ok({});
      });
    },
  );
}
