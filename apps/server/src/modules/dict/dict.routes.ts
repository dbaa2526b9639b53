import { menuCodeOf, permissionCodes, type ResourceDef, resources } from "@meterline/contracts";
import type { FastifyInstance } from "fastify";
import { ok, page } from "../../contract/envelope.ts";
import { optionalId, paging, readParams, requiredString } from "../../contract/params.ts";
import { addDictionaryNames } from "../../crud/dictionary-names.ts";
import { listFilters } from "../../crud/filters.ts";
import { requirePermission } from "../../crud/permissions.ts";
import { visibleRows } from "../../crud/scope.ts";
import { serializeRow } from "../../crud/serialize.ts";
import { SqlParams } from "../../crud/sql.ts";
import { ResourceStore } from "../../crud/store.ts";
import { forestOf } from "../../crud/tree.ts";
import type { Db } from "../../db/client.ts";
import type { CurrentUser } from "../auth/current-user.ts";

/**
 * The dictionary calls beyond plain CRUD (contract §10.4–10.5): items of a code for selects, the
 * parent and child lists of the two-pane screens. The same routes serve system and business
 * dictionaries; the business ones stay inside the caller's tenant.
 */
export async function dictRoutes(app: FastifyInstance, opts: { db: Db; timeZone: string }) {
  for (const def of [resources.dict, resources.dictBiz] as ResourceDef[]) {
    const store = new ResourceStore(opts.db, def);
    const base = `/api/${def.service}/${def.path}`;
    const tags = [def.name];
    /** Rows as the contract sends them, with the names of their dictionary-backed fields. */
    const serialize = async (user: CurrentUser, rows: Record<string, unknown>[]) => {
      const out = rows.map((r) => serializeRow(def, r, opts.timeZone));
      await addDictionaryNames(opts.db, def, out, user);
      return out;
    };
    const itemsOf = async (user: CurrentUser, code: string) => {
      const sql = new SqlParams();
      const conditions = [
        ...visibleRows(def, user, sql),
        `t.code = ${sql.bind(code)}`,
        "t.parent_id > 0",
        "t.is_sealed = 0",
      ];
      return serialize(user, await store.list({ sql, conditions }));
    };

    app.get(
      `${base}/dictionary`,
      { config: { apiScope: false }, schema: { tags, summary: "Items of one dictionary, for selects" } },
      async (request) => ok(await itemsOf(request.user!, requiredString(readParams(request), "code"))),
    );

    app.get(
      `${base}/dictionary-tree`,
      { config: { apiScope: false }, schema: { tags, summary: "Items of one dictionary as a tree" } },
      async (request) =>
        ok(forestOf(def, await itemsOf(request.user!, requiredString(readParams(request), "code")))),
    );

    app.get(
      `${base}/parent-list`,
      { schema: { tags, summary: "Page of dictionaries (root rows)" } },
      async (request) => {
        await requirePermission(opts.db, request, [menuCodeOf(def), permissionCodes(def).view], def.guard);
        const params = readParams(request);
        const { current, size, offset } = paging(params);
        const sql = new SqlParams();
        const conditions = [
          ...visibleRows(def, request.user!, sql),
          ...listFilters(def, params, sql, opts.timeZone),
          "t.parent_id = 0",
        ];
        const total = await store.count({ sql, conditions });
        const rows = await store.list({ sql, conditions, limit: size, offset });
        return ok(page(await serialize(request.user!, rows), total, current, size));
      },
    );

    app.get(
      `${base}/child-list`,
      { schema: { tags, summary: "Items of the dictionary with this root id" } },
      async (request) => {
        await requirePermission(opts.db, request, [menuCodeOf(def), permissionCodes(def).view], def.guard);
        const params = readParams(request);
        const parentId = optionalId(params, "parentId");
        if (!parentId || parentId.startsWith("-")) return ok([]);
        const sql = new SqlParams();
        const rootConditions = [...visibleRows(def, request.user!, sql), `t.id = ${sql.bind(parentId)}`];
        const [root] = await store.list({ sql, conditions: rootConditions });
        if (!root) return ok([]);
        const items = new SqlParams();
        const conditions = [
          ...visibleRows(def, request.user!, items),
          ...listFilters(def, { ...params, code: undefined }, items, opts.timeZone),
          `t.code = ${items.bind(root.code)}`,
          "t.parent_id <> 0",
        ];
        return ok(
          forestOf(def, await serialize(request.user!, await store.list({ sql: items, conditions }))),
        );
      },
    );
  }
}
