import type { ButtonNode, MenuRoute } from "@meterline/contracts";
import type { MenuRow } from "./menu.repository.ts";

/** Adds every ancestor of the chosen ids: grant trees send only fully checked nodes (contract §8.3). */
export function withAncestors(chosen: Iterable<string>, byId: Map<string, MenuRow>): Set<string> {
  const result = new Set<string>();
  for (const id of chosen) {
    let current = byId.get(id);
    while (current && !result.has(current.id)) {
      result.add(current.id);
      current = byId.get(current.parent_id);
    }
  }
  return result;
}

/** A forest of the rows, in their sort order; a node whose parent is absent becomes a root. */
export function forest<T extends { id: string; parentId: string; children?: T[] }>(nodes: T[]): T[] {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const roots: T[] = [];
  for (const node of nodes) {
    const parent = byId.get(node.parentId);
    if (parent && parent !== node) {
      parent.children ??= [];
      parent.children.push(node);
    } else {
      roots.push(node);
    }
  }
  return roots;
}

export function toRoute(row: MenuRow): MenuRoute {
  return {
    id: row.id,
    parentId: row.parent_id,
    code: row.code,
    name: row.name,
    alias: row.alias,
    path: row.path ?? "",
    source: row.source ?? "",
    sort: row.sort,
    category: row.category,
    action: row.action,
    isOpen: row.is_open,
    remark: row.remark ?? "",
  };
}

/** A button node carries the route's fields less the ones only screens have (contract §7.3). */
export function toButton(row: MenuRow): ButtonNode {
  const { category: _category, isOpen: _isOpen, remark: _remark, ...button } = toRoute(row);
  return button;
}

/**
 * Entries that open a page this server serves (`/api/docs/static/index.html`) as full URLs on the
 * caller's origin: the family's consoles open a full URL in their iframe or a window (contract
 * §7.1) and would take a bare path for a screen of their own. Console routes are left as they are.
 */
export function withServerPagesAt(origin: string, routes: MenuRoute[]): MenuRoute[] {
  return routes.map((route) => ({
    ...route,
    path: route.path.startsWith("/api/") ? `${origin}${route.path}` : route.path,
    ...(route.children ? { children: withServerPagesAt(origin, route.children) } : {}),
  }));
}
