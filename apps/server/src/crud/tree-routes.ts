import type { TreeNode } from "@meterline/contracts";
import type { FastifyRequest } from "fastify";
import { ok } from "../contract/envelope.ts";
import { notFound } from "../contract/errors.ts";
import { optionalId, readParams } from "../contract/params.ts";
import { columnByName } from "./columns.ts";
import { NOT_FOUND_MESSAGE, type ResourceContext } from "./context.ts";
import { requirePermission } from "./permissions.ts";
import { ident } from "./sql.ts";
import { forestOf, treeNodes } from "./tree.ts";

/** The tree verbs a tree resource declares: picker trees, forests and lazily loaded levels. */
export function registerTreeRoutes(r: ResourceContext) {
  const { app, def, db, store, base, tags } = r;
  if (!def.tree) return;
  const { pickerFilter = {} } = def.tree;
  const parent = columnByName(def, def.tree.parent)!;
  const verbs = new Set(def.extraVerbs ?? []);

  /** Visible rows, narrowed by the call's filters and, for picker verbs, the tree's picker filter. */
  const rows = async (request: FastifyRequest, picker: boolean, level?: "lazy") => {
    const asked = { ...readParams(request) };
    if (picker && !level) for (const name of def.tree?.treeIgnores ?? []) delete asked[name];
    const q = await r.query(request, { ...asked, ...(picker ? pickerFilter : {}) });
    if (level) {
      // Without a parent and without filters, start at the roots; a search alone looks at every level.
      const parentId = optionalId(asked, "parentId") ?? (Object.keys(asked).length ? undefined : "0");
      if (parentId !== undefined) q.conditions.push(`t.${ident(parent.column)} = ${q.sql.bind(parentId)}`);
    }
    return r.out(request, await store.list(q));
  };
  const withHasChildren = async (list: Awaited<ReturnType<typeof rows>>) => {
    const ids = list.map((row) => String(row.id));
    const parents = new Set(ids.length ? await store.childParents(ids) : []);
    return list.map((row) => ({ ...row, hasChildren: parents.has(String(row.id)) }));
  };

  if (verbs.has("tree")) {
    app.get(
      `${base}/tree`,
      { schema: { tags, summary: `${def.name} as a tree of nodes` } },
      async (request) => {
        await r.requirePicker(request);
        return ok<TreeNode[]>(treeNodes(def, await rows(request, true)));
      },
    );
  }
  if (verbs.has("tree-by-id")) {
    const idParam = `${def.name}Id`;
    app.get(
      `${base}/tree-by-id`,
      { schema: { tags, summary: `${def.name} tree of the tenant owning ${idParam}` } },
      async (request) => {
        const user = await r.requirePicker(request);
        const id = optionalId(readParams(request), idParam);
        // Without one, the caller's own tenant's tree: the family's 新增 asks so for its parent picker.
        if (!id) {
          const own = await r.query(request, { ...pickerFilter, tenantId: user.tenantId });
          return ok<TreeNode[]>(treeNodes(def, await r.out(request, await store.list(own))));
        }
        // The row must be visible to the caller; its tenant then names the tree (the administrator's only way across).
        const q = await r.query(request, {});
        q.conditions.push(`t.id = ${q.sql.bind(id)}`);
        const [owner] = await store.list(q);
        if (!owner) throw notFound(NOT_FOUND_MESSAGE);
        const tree = await r.query(request, { ...pickerFilter, tenantId: String(owner.tenantId) });
        return ok<TreeNode[]>(treeNodes(def, await r.out(request, await store.list(tree))));
      },
    );
  }
  if (verbs.has("lazy-tree")) {
    app.get(
      `${base}/lazy-tree`,
      { schema: { tags, summary: `One level of ${def.name} nodes` } },
      async (request) => {
        await r.requirePicker(request);
        const level = await withHasChildren(await rows(request, true, "lazy"));
        return ok<TreeNode[]>(
          treeNodes(def, level).map((node, i) => ({ ...node, hasChildren: Boolean(level[i]?.hasChildren) })),
        );
      },
    );
  }
  if (verbs.has("menu-list")) {
    app.get(
      `${base}/menu-list`,
      { schema: { tags, summary: `${def.name} forest, screens only` } },
      async (request) => {
        await requirePermission(db, request, r.readCodes, def.guard);
        return ok(forestOf(def, await rows(request, true)));
      },
    );
  }
  for (const [verb, picker] of [
    ["lazy-list", false],
    ["lazy-menu-list", true],
  ] as const) {
    if (!verbs.has(verb)) continue;
    app.get(`${base}/${verb}`, { schema: { tags, summary: `One level of ${def.name}` } }, async (request) => {
      await requirePermission(db, request, r.readCodes, def.guard);
      return ok(await withHasChildren(await rows(request, picker, "lazy")));
    });
  }
}
