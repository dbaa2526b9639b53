import type { TreeNode } from "@meterline/contracts";

/** What a registry tree node stands for, so pickers can make only the wanted kind selectable. */
export type NodeType = "area" | "room" | "owner" | "meter" | "water" | "collector" | "group";

export interface RegistryNode extends TreeNode {
  type: NodeType;
  /** Pickers may choose only leaves of the asked kind. */
  selectable: boolean;
  children?: RegistryNode[];
}

export interface Branch {
  id: string;
  parentId: string;
  title: string;
  type: NodeType;
}

export interface Leaf {
  id: string;
  /** The branch (area, room, collector) the leaf hangs under; unknown parents go to `orphanRoot`. */
  parentId: string;
  title: string;
  type: NodeType;
}

const node = (
  id: string,
  parentId: string,
  title: string,
  type: NodeType,
  selectable: boolean,
): RegistryNode => ({
  id,
  parentId,
  title,
  key: id,
  value: id,
  type,
  selectable,
});

/**
 * A forest of branches (areas, then rooms under their areas) with leaves hung under them. With
 * `prune`, branches with no leaf below are dropped, so a picker shows only where there is
 * something to pick. Leaves whose parent is not a branch go under `orphanRoot`, when given.
 */
export function buildRegistryTree(
  branches: Branch[],
  leaves: Leaf[],
  options: { prune: boolean; orphanRoot?: { id: string; title: string } },
): RegistryNode[] {
  const byId = new Map<string, RegistryNode>();
  for (const b of branches) byId.set(b.id, node(b.id, b.parentId, b.title, b.type, false));
  const roots: RegistryNode[] = [];
  const attach = (child: RegistryNode) => {
    const parent = byId.get(child.parentId);
    if (parent) addChild(parent, child);
    else roots.push(child);
  };
  for (const b of branches) attach(byId.get(b.id)!);
  let orphans: RegistryNode | undefined;
  for (const leaf of leaves) {
    const item = node(leaf.id, leaf.parentId, leaf.title, leaf.type, true);
    if (byId.has(leaf.parentId)) {
      attach(item);
      continue;
    }
    if (!options.orphanRoot) continue;
    orphans ??= node(options.orphanRoot.id, "0", options.orphanRoot.title, "group", false);
    item.parentId = orphans.id;
    addChild(orphans, item);
  }
  const result = options.prune ? roots.filter(keepLeaves) : roots;
  if (orphans) result.push(orphans);
  return result;
}

function addChild(parent: RegistryNode, child: RegistryNode) {
  if (parent.children) parent.children.push(child);
  else parent.children = [child];
}

/** Drops branches without a leaf below them; true when the node itself is worth keeping. */
function keepLeaves(n: RegistryNode): boolean {
  if (n.selectable) return true;
  if (!n.children) return false;
  n.children = n.children.filter(keepLeaves);
  if (n.children.length === 0) delete n.children;
  return Boolean(n.children);
}
