import type { TopologyMeter, TopologyNode } from "./topology-calls.ts";

/** A row of the tree table: a node (its child nodes, then its meters, below it) or a listed meter. */
export type TopologyRow =
  | {
      key: string;
      kind: "node";
      node: TopologyNode;
      counts: { tenant: number; common: number; nodes: number };
      children?: TopologyRow[];
    }
  | { key: string; kind: "meter"; nodeId: string; meter: TopologyMeter };

const includes = (text: string | null | undefined, query: string) =>
  Boolean(text) && text!.toLowerCase().includes(query);

const nodeMatches = (node: TopologyNode, query: string) =>
  includes(node.nodeTitle, query) ||
  includes(node.areaName, query) ||
  includes(node.master?.productCode, query) ||
  includes(node.master?.room, query);

const meterMatches = (meter: TopologyMeter, query: string) =>
  includes(meter.productCode, query) || includes(meter.room, query);

/**
 * The tree of rows from the flat nodes. With a query, a node stays when it matches (with all it
 * holds), or when something below it matches (with only that); `matches` counts the rows found.
 */
export function topologyRows(nodes: readonly TopologyNode[], rawQuery: string) {
  const query = rawQuery.trim().toLowerCase();
  const known = new Set(nodes.map((n) => n.id));
  const childrenOf = new Map<string, TopologyNode[]>();
  for (const node of nodes) {
    // A node whose parent is gone still shows, at the top, rather than vanishing.
    const parent = known.has(node.parentId) ? node.parentId : "0";
    childrenOf.set(parent, [...(childrenOf.get(parent) ?? []), node]);
  }
  let matches = 0;
  const build = (node: TopologyNode, seen: Set<string>, whole: boolean): TopologyRow | null => {
    if (seen.has(node.id)) return null;
    const path = new Set(seen).add(node.id);
    const self = whole || query === "" || nodeMatches(node, query);
    if (query !== "" && !whole && self) matches++;
    const childNodes = (childrenOf.get(node.id) ?? [])
      .map((child) => build(child, path, self && query !== "" ? true : whole))
      .filter((row): row is TopologyRow => row !== null);
    const meters = node.meters.filter((m) => self || meterMatches(m, query));
    if (query !== "" && !self) matches += meters.length;
    if (!self && childNodes.length === 0 && meters.length === 0) return null;
    const children: TopologyRow[] = [
      ...childNodes,
      ...meters.map((meter) => ({
        key: `m:${node.id}:${meter.meterId}`,
        kind: "meter" as const,
        nodeId: node.id,
        meter,
      })),
    ];
    return {
      key: `n:${node.id}`,
      kind: "node",
      node,
      counts: {
        tenant: node.meters.filter((m) => m.meterRole !== 2).length,
        common: node.meters.filter((m) => m.meterRole === 2).length,
        nodes: (childrenOf.get(node.id) ?? []).length,
      },
      ...(children.length > 0 ? { children } : {}),
    };
  };
  const rows = (childrenOf.get("0") ?? [])
    .map((root) => build(root, new Set(), false))
    .filter((row): row is TopologyRow => row !== null);
  return { rows, matches };
}

/** Keys of every node row that holds something: what "expand all" opens. */
export function nodeKeys(rows: readonly TopologyRow[]): string[] {
  const keys: string[] = [];
  const walk = (list: readonly TopologyRow[]) => {
    for (const row of list) {
      if (row.kind === "node" && row.children) {
        keys.push(row.key);
        walk(row.children);
      }
    }
  };
  walk(rows);
  return keys;
}
