import type { TreeNode } from "@meterline/contracts";

const walk = (nodes: readonly TreeNode[], visit: (node: TreeNode) => void) => {
  for (const node of nodes) {
    visit(node);
    walk(node.children ?? [], visit);
  }
};

/** Keys of the nodes without children. */
export function leafKeys(nodes: readonly TreeNode[]): Set<string> {
  const leaves = new Set<string>();
  walk(nodes, (node) => {
    if (!node.children?.length) leaves.add(node.key);
  });
  return leaves;
}

/**
 * The keys to show as checked. A checkable tree checks every child of a checked parent, while the
 * server's grants list each granted menu together with its ancestors; so only granted leaves are
 * checked here and the tree derives the (half-)checked state of their parents.
 */
export function checkedLeaves(nodes: readonly TreeNode[], granted: readonly string[]): string[] {
  const leaves = leafKeys(nodes);
  return granted.filter((key) => leaves.has(key));
}

/**
 * Scope trees group scopes under their menus (the roots); only the scopes themselves are granted,
 * so a root key checked because all its scopes are is dropped.
 */
export function scopeKeys(nodes: readonly TreeNode[], checked: readonly string[]): string[] {
  const roots = new Set(nodes.map((node) => node.key));
  return checked.filter((key) => !roots.has(key));
}
