import type { FastifyRequest } from "fastify";
import { ok, page } from "../contract/envelope.ts";
import { badParam, notFound } from "../contract/errors.ts";
import { optionalId, paging, readParams } from "../contract/params.ts";
import { columnsOf } from "./columns.ts";
import { NOT_FOUND_MESSAGE, type ResourceContext } from "./context.ts";
import { listFilters } from "./filters.ts";
import { requirePermission } from "./permissions.ts";
import { SqlParams } from "./sql.ts";
import { showsTenant } from "./tenant-column.ts";
import { forestOf } from "./tree.ts";

const SELECT_LIMIT = 2000;
/** The most rows one "all matching" batch may name; a wider search is narrowed first. */
export const MATCHING_LIMIT = 5000;

/** list (a page, or the whole forest of a tree resource), detail, and select for pickers. */
export function registerReadRoutes(r: ResourceContext) {
  const { app, def, db, store, base, tags } = r;

  const listed = async (request: FastifyRequest) => {
    await requirePermission(db, request, r.readCodes, def.guard);
    const params = readParams(request);
    if (def.tree)
      return ok(forestOf(def, await r.out(request, await store.list(await r.query(request, params)))));
    const { current, size, offset } = paging(params);
    const q = await r.query(request, params);
    const { rows, total, exact } = await store.pageWithTotal(q, size, offset);
    // Only resources with a bounded count say whether theirs is exact; the others always are.
    const totalExact = def.count && def.count !== "exact" ? exact : undefined;
    return ok(page(await r.out(request, rows), total, current, size, totalExact));
  };
  app.get(`${base}/${def.listVerb}`, { schema: { tags, summary: `List ${def.name}` } }, listed);
  if (def.extraVerbs?.includes("listPage") && def.listVerb !== "list")
    app.get(`${base}/list`, { schema: { tags, summary: `List ${def.name} (the page as list)` } }, listed);
  if (def.extraVerbs?.includes("pageNew"))
    app.get(
      `${base}/pageNew`,
      { schema: { tags, summary: `List ${def.name} (the page under its other name)` } },
      listed,
    );

  app.get(
    `${base}/detail`,
    {
      schema: { tags, summary: `One ${def.name} by id, or by the fields given (Blade's detail by example)` },
    },
    async (request) => {
      await requirePermission(db, request, r.readCodes, def.guard);
      const params = readParams(request);
      const id = optionalId(params, "id");
      const sql = new SqlParams();
      const filters = listFilters(def, params, sql, r.timeZone);
      if (!id && filters.length === 0) throw badParam("id");
      const conditions = [...(await r.visible(request, sql)), ...filters];
      if (id) conditions.push(`t.id = ${sql.bind(id)}`);
      const tenantName = showsTenant(def, request.user!);
      const [row] = await r.out(
        request,
        await store.list({ sql, conditions, limit: 1, offset: 0, tenantName, labels: true }),
      );
      if (!row) throw notFound(NOT_FOUND_MESSAGE);
      return ok(row);
    },
  );

  if (def.extraVerbs?.includes("list") && def.listVerb !== "list") {
    app.get(
      `${base}/list`,
      { schema: { tags, summary: `Every ${def.name} row of the search, unpaged` } },
      async (request) => {
        await requirePermission(db, request, r.readCodes, def.guard);
        const q = await r.query(request, readParams(request));
        return ok(await r.out(request, await store.list({ ...q, limit: SELECT_LIMIT, offset: 0 })));
      },
    );
  }

  if (def.extraVerbs?.includes("matching-ids")) {
    // The same visibility and filters as the list: a batch over "all matching" can name no row the
    // caller could not have listed. Over the limit, no ids: the console asks for a narrower search.
    app.get(
      `${base}/matching-ids`,
      { schema: { tags, summary: `Ids of every ${def.name} row matching a search (batches)` } },
      async (request) => {
        await requirePermission(db, request, r.readCodes, def.guard);
        const q = await r.query(request, readParams(request));
        const total = await store.count(q);
        // The definition's first field names a row (a meter's number), so the batch can show it.
        const naming = columnsOf(def).find((c) => !c.system) ?? columnsOf(def)[0]!;
        const rows = total > MATCHING_LIMIT ? [] : await store.listNames(q, MATCHING_LIMIT, naming);
        return ok({
          total,
          limit: MATCHING_LIMIT,
          ids: rows.map((row) => row.id),
          names: rows.map((row) => row.name),
        });
      },
    );
  }

  if (def.extraVerbs?.includes("select")) {
    const summary = `All ${def.name} rows of a tenant, for pickers`;
    app.get(`${base}/select`, { schema: { tags, summary } }, async (request) => {
      await r.requirePicker(request);
      const q = await r.query(request, readParams(request));
      return ok(await r.out(request, await store.list({ ...q, limit: SELECT_LIMIT, offset: 0 })));
    });
  }
}
