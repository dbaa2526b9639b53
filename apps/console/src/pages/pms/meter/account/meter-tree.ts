import type { MeterTreeNode } from "./account-calls.ts";

/** The tree with only the meters of `type` ("meter" electric, "water") and the branches above them. */
export function onlyMeters(nodes: readonly MeterTreeNode[], type: string): MeterTreeNode[] {
  const kept: MeterTreeNode[] = [];
  for (const node of nodes) {
    if (node.selectable) {
      if (node.type === type) kept.push(node);
      continue;
    }
    const children = onlyMeters(node.children ?? [], type);
    if (children.length > 0) kept.push({ ...node, children });
  }
  return kept;
}

/** Every meter leaf of the tree, by id, with its title (the meter's address and name). */
export function meterLeaves(nodes: readonly MeterTreeNode[], into = new Map<string, string>()) {
  for (const node of nodes) {
    if (node.selectable) into.set(node.id, node.title);
    meterLeaves(node.children ?? [], into);
  }
  return into;
}
