import type { TopologyBranch } from "./topology-calls.ts";

/**
 * What of the tree is drawn: which nodes are open, which match the search. Pure, so that what a
 * 10,000-meter site shows stays small and is tested without a browser.
 */
export interface TopologyView {
  expanded: ReadonlySet<string>;
  matches: ReadonlySet<string>;
}

/** Children drawn under one node at most; the rest are counted in a "more" node. */
export const CHILDREN_SHOWN = 200;
/** The default view opens areas level by level while the drawing stays below this many nodes. */
const DEFAULT_VISIBLE = 80;
/** A search marks at most this many nodes (and opens their paths). */
const MATCHES_SHOWN = 100;

const isMeter = (node: TopologyBranch) => node.category === "meter" || node.category === "water";

/** How many nodes a view draws, counting each node's shown children. */
export function visibleCount(roots: TopologyBranch[], expanded: ReadonlySet<string>): number {
  let count = 0;
  const walk = (nodes: TopologyBranch[]) => {
    for (const node of nodes.slice(0, CHILDREN_SHOWN)) {
      count += 1;
      if (expanded.has(node.id)) walk(node.children);
    }
  };
  walk(roots);
  return count;
}

/** The nodes drawn at the deepest open level that can open further. */
function frontier(roots: TopologyBranch[], expanded: ReadonlySet<string>): TopologyBranch[] {
  const closed: TopologyBranch[] = [];
  const walk = (nodes: TopologyBranch[]) => {
    for (const node of nodes.slice(0, CHILDREN_SHOWN)) {
      if (expanded.has(node.id)) walk(node.children);
      else if (node.children.length > 0) closed.push(node);
    }
  };
  walk(roots);
  return closed;
}

/** Opens every node of the next closed level (for the keyboard and a quick look deeper). */
export function expandLevel(roots: TopologyBranch[], expanded: ReadonlySet<string>): Set<string> {
  const next = new Set(expanded);
  for (const node of frontier(roots, expanded)) next.add(node.id);
  return next;
}

/**
 * Areas opened level by level while the drawing stays small; collectors stay closed, so a site of
 * any size first shows its areas and buildings with their counts.
 */
export function defaultExpanded(roots: TopologyBranch[]): Set<string> {
  let expanded = new Set<string>();
  for (;;) {
    const areas = frontier(roots, expanded).filter((node) => node.category === "area");
    if (areas.length === 0) return expanded;
    const next = new Set(expanded);
    for (const area of areas) next.add(area.id);
    // The first level always opens, so one top area never hides its buildings.
    if (expanded.size > 0 && visibleCount(roots, next) > DEFAULT_VISIBLE) return expanded;
    expanded = next;
  }
}

const text = (node: TopologyBranch) => `${node.name} ${node.room ?? ""}`.toLowerCase();

/**
 * The nodes whose name (or a meter's room) holds every word of `query`, and the view that opens
 * their paths. Matches are taken in tree order, at most MATCHES_SHOWN.
 */
export function search(
  roots: TopologyBranch[],
  query: string,
  expanded: ReadonlySet<string>,
): { matches: Set<string>; expanded: Set<string>; total: number } {
  const words = query.trim().toLowerCase().split(/\s+/).filter(Boolean);
  const matches = new Set<string>();
  const open = new Set(expanded);
  let total = 0;
  if (words.length === 0) return { matches, expanded: open, total };
  const walk = (nodes: TopologyBranch[], path: TopologyBranch[]) => {
    for (const node of nodes) {
      const haystack = `${path.map((p) => p.name).join(" ")} ${text(node)}`.toLowerCase();
      // Every word somewhere on the path, and the last word on the node itself ("2号楼 305").
      if (words.every((w) => haystack.includes(w)) && text(node).includes(words.at(-1)!)) {
        total += 1;
        if (matches.size < MATCHES_SHOWN) {
          matches.add(node.id);
          for (const parent of path) open.add(parent.id);
        }
      }
      if (!isMeter(node)) walk(node.children, [...path, node]);
    }
  };
  walk(roots, []);
  return { matches, expanded: open, total };
}

/** A node's children as drawn: matches first, so a match never hides behind "more". */
export function shownChildren(node: TopologyBranch, matches: ReadonlySet<string>): TopologyBranch[] {
  if (node.children.length <= CHILDREN_SHOWN) return node.children;
  const hit = node.children.filter((child) => matches.has(child.id));
  const rest = node.children.filter((child) => !matches.has(child.id));
  return [...hit, ...rest].slice(0, CHILDREN_SHOWN);
}
