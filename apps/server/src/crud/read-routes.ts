import { ok, page } from "../contract/envelope.ts";
import { badParam, notFound } from "../contract/errors.ts";
import { optionalId, paging, readParams } from "../contract/params.ts";
import { NOT_FOUND_MESSAGE, type ResourceContext } from "./context.ts";
import { requirePermission } from "./permissions.ts";
import { SqlParams } from "./sql.ts";
import { forestOf } from "./tree.ts";

const SELECT_LIMIT = 2000;

/** list (a page, or the whole forest of a tree resource), detail, and select for pickers. */
export function registerReadRoutes(r: ResourceContext) {
  const { app, def, db, store, base, tags } = r;

  app.get(`${base}/${def.listVerb}`, { schema: { tags, summary: `List ${def.name}` } }, async (request) => {
    await requirePermission(db, request, r.readCodes, def.guard);
    const params = readParams(request);
    if (def.tree)
      return ok(forestOf(def, await r.out(request, await store.list(await r.query(request, params)))));
    const { current, size, offset } = paging(params);
    const q = await r.query(request, params);
    const total = await store.count(q);
    const rows = await store.list({ ...q, limit: size, offset });
    return ok(page(await r.out(request, rows), total, current, size));
  });

  app.get(`${base}/detail`, { schema: { tags, summary: `One ${def.name} by id` } }, async (request) => {
    await requirePermission(db, request, r.readCodes, def.guard);
    const id = optionalId(readParams(request), "id");
    if (!id) throw badParam("id");
    const sql = new SqlParams();
    const conditions = [`t.id = ${sql.bind(id)}`, ...(await r.visible(request, sql))];
    const [row] = await r.out(request, await store.list({ sql, conditions }));
    if (!row) throw notFound(NOT_FOUND_MESSAGE);
    return ok(row);
  });

  if (def.extraVerbs?.includes("select")) {
    const summary = `All ${def.name} rows of a tenant, for pickers`;
    app.get(`${base}/select`, { schema: { tags, summary } }, async (request) => {
      const q = await r.query(request, readParams(request));
      return ok(await r.out(request, await store.list({ ...q, limit: SELECT_LIMIT, offset: 0 })));
    });
  }
}
