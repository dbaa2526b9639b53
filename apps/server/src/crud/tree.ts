import type { ResourceDef, TreeNode } from "@meterline/contracts";
import type { Row } from "./serialize.ts";

type Node = Row & { children?: Node[] };

/** Rows as a forest by the definition's parent field; a row whose parent is not in the set is a root. */
export function forestOf(def: ResourceDef, rows: Row[]): Node[] {
  const parentField = def.tree!.parent;
  const nodes: Node[] = rows.map((r) => ({ ...r }));
  const byId = new Map(nodes.map((n) => [String(n.id), n]));
  const roots: Node[] = [];
  for (const node of nodes) {
    const parent = byId.get(String(node[parentField]));
    if (parent && parent !== node) {
      parent.children ??= [];
      parent.children.push(node);
    } else {
      roots.push(node);
    }
  }
  for (const node of nodes) if (node.children) node.hasChildren = true;
  return roots;
}

/** The generic picker node of contract §7.5: id, parentId, title, key, value. */
export function treeNodes(def: ResourceDef, rows: Row[]): TreeNode[] {
  const { parent, title } = def.tree!;
  const toNode = (node: Node): TreeNode => {
    const id = String(node.id);
    const children = node.children?.map(toNode);
    return {
      id,
      parentId: String(node[parent] ?? "0"),
      title: String(node[title] ?? ""),
      key: id,
      value: id,
      ...(children?.length ? { children, hasChildren: true } : {}),
    };
  };
  return forestOf(def, rows).map(toNode);
}
