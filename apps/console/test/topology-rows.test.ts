import assert from "node:assert/strict";
import { test } from "node:test";
import type { TopologyNode } from "../src/pages/pms/metering-topology/topology-calls.ts";
import {
  nodeKeys,
  type TopologyRow,
  topologyRows,
} from "../src/pages/pms/metering-topology/topology-rows.ts";

const node = (id: string, parentId: string, nodeTitle: string, meters: TopologyNode["meters"] = []) => ({
  id,
  parentId,
  nodeTitle,
  nodeKind: 2,
  areaName: null,
  master: null,
  meters,
});
const NODES: TopologyNode[] = [
  node("1", "0", "1号变压器"),
  node("2", "1", "1号楼", [
    { meterId: "11", productCode: "000000000101", meterRole: 1, room: "1号楼 101" },
    { meterId: "12", productCode: "000000000990", meterRole: 2, room: "1号楼 走廊" },
  ]),
  node("3", "1", "2号楼", [{ meterId: "13", productCode: "000000000201", meterRole: 1, room: "2号楼 201" }]),
  // Its parent is gone: it still shows, at the top.
  node("4", "99", "孤立节点"),
];

/** Each row as its name, indented by depth. */
function outline(rows: readonly TopologyRow[], depth = 0): string[] {
  return rows.flatMap((row) => [
    `${"  ".repeat(depth)}${row.kind === "node" ? row.node.nodeTitle : row.meter.productCode}`,
    ...(row.kind === "node" && row.children ? outline(row.children, depth + 1) : []),
  ]);
}

test("the flat nodes become a tree: child nodes first, then the node's meters, with counts", () => {
  const { rows } = topologyRows(NODES, "");
  assert.deepEqual(outline(rows), [
    "1号变压器",
    "  1号楼",
    "    000000000101",
    "    000000000990",
    "  2号楼",
    "    000000000201",
    "孤立节点",
  ]);
  const building = rows[0]?.kind === "node" ? rows[0].children?.[0] : undefined;
  assert.deepEqual(building?.kind === "node" && building.counts, { tenant: 1, common: 1, nodes: 0 });
  assert.deepEqual(nodeKeys(rows), ["n:1", "n:2", "n:3"], "only nodes that hold something expand");
});

test("a search keeps what matches and the nodes above it; a matching node keeps all it holds", () => {
  const byRoom = topologyRows(NODES, "走廊");
  assert.deepEqual(outline(byRoom.rows), ["1号变压器", "  1号楼", "    000000000990"]);
  assert.equal(byRoom.matches, 1);
  const byNode = topologyRows(NODES, "2号楼");
  assert.deepEqual(outline(byNode.rows), ["1号变压器", "  2号楼", "    000000000201"]);
  assert.equal(topologyRows(NODES, "nothing").rows.length, 0);
});

test("a parent loop in stored data cannot hang the tree", () => {
  const looped = [node("a", "b", "甲"), node("b", "a", "乙")];
  assert.deepEqual(topologyRows(looped, "").rows, []);
});
