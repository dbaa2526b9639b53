/** The part of a tree node the area pane reads. */
export interface ForestNode {
  key: string;
  title: string;
  children?: ForestNode[];
}

/**
 * The nodes whose title contains `text` (case-insensitive), with their ancestors so each match is
 * shown where it lives; all nodes for an empty text. A match keeps its whole subtree.
 */
export function filterForest<T extends ForestNode>(nodes: readonly T[], text: string): T[] {
  const needle = text.trim().toLowerCase();
  if (needle === "") return [...nodes];
  const keep = (node: T): T | null => {
    if (node.title.toLowerCase().includes(needle)) return node;
    const children = ((node.children ?? []) as T[]).map(keep).filter((c): c is T => c !== null);
    return children.length > 0 ? { ...node, children } : null;
  };
  return nodes.map(keep).filter((n): n is T => n !== null);
}

/** Every key of a forest, parents before children. */
export function forestKeys(nodes: readonly ForestNode[]): string[] {
  return nodes.flatMap((n) => [n.key, ...forestKeys(n.children ?? [])]);
}

/** The title of the node with this key, if the forest holds it. */
export function titleOf(nodes: readonly ForestNode[], key: string): string | undefined {
  for (const n of nodes) {
    if (n.key === key) return n.title;
    const below = titleOf(n.children ?? [], key);
    if (below !== undefined) return below;
  }
  return undefined;
}
