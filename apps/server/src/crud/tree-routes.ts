import type { TreeNode } from "@meterline/contracts";
import { ok } from "../contract/envelope.ts";
import { optionalId, readParams } from "../contract/params.ts";
import { columnByName } from "./columns.ts";
import type { ResourceContext } from "./context.ts";
import { requirePermission } from "./permissions.ts";
import { ident } from "./sql.ts";
import { treeNodes } from "./tree.ts";

/** The tree verbs a tree resource declares: the picker tree and one lazily loaded level. */
export function registerTreeRoutes(r: ResourceContext) {
  const { app, def, db, store, base, tags } = r;
  if (!def.tree) return;
  const parent = columnByName(def, def.tree.parent)!;

  if (def.extraVerbs?.includes("tree")) {
    app.get(
      `${base}/tree`,
      { schema: { tags, summary: `${def.name} as a tree of nodes` } },
      async (request) => {
        const rows = await r.out(request, await store.list(r.query(request, readParams(request))));
        return ok<TreeNode[]>(treeNodes(def, rows));
      },
    );
  }

  if (def.extraVerbs?.includes("lazy-list")) {
    app.get(
      `${base}/lazy-list`,
      { schema: { tags, summary: `One level of ${def.name}` } },
      async (request) => {
        await requirePermission(db, request, r.readCodes, def.guard);
        const params = readParams(request);
        // Without a parent and without filters, start at the roots; a search alone looks at every level.
        const parentId = optionalId(params, "parentId") ?? (Object.keys(params).length ? undefined : "0");
        const q = r.query(request, params);
        if (parentId !== undefined) q.conditions.push(`t.${ident(parent.column)} = ${q.sql.bind(parentId)}`);
        const rows = await r.out(request, await store.list(q));
        const ids = rows.map((row) => String(row.id));
        const parents = new Set(ids.length ? await store.childParents(ids) : []);
        return ok(rows.map((row) => ({ ...row, hasChildren: parents.has(String(row.id)) })));
      },
    );
  }
}
