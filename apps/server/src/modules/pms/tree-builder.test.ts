import assert from "node:assert/strict";
import { test } from "node:test";
import { buildRegistryTree } from "./tree-builder.ts";

const branches = [
  { id: "1", parentId: "0", title: "园区", type: "area" as const },
  { id: "2", parentId: "1", title: "1号楼", type: "area" as const },
  { id: "3", parentId: "1", title: "2号楼", type: "area" as const },
  { id: "10", parentId: "2", title: "101", type: "room" as const },
  { id: "11", parentId: "3", title: "201", type: "room" as const },
];

test("leaves hang under their rooms and areas; pruning drops empty branches", () => {
  const tree = buildRegistryTree(branches, [{ id: "100", parentId: "10", title: "表1", type: "meter" }], {
    prune: true,
  });
  assert.equal(tree.length, 1);
  const building = tree[0]!.children!;
  assert.deepEqual(
    building.map((b) => b.title),
    ["1号楼"],
  );
  const meter = building[0]!.children![0]!.children![0]!;
  assert.deepEqual([meter.title, meter.type, meter.selectable, meter.parentId], ["表1", "meter", true, "10"]);
  assert.equal(building[0]!.selectable, false);
});

test("without pruning every branch stays; rooms can be the leaves themselves", () => {
  const rooms = buildRegistryTree(
    branches.filter((b) => b.type === "area"),
    branches.filter((b) => b.type === "room"),
    { prune: false },
  );
  assert.deepEqual(
    rooms[0]!.children!.map((b) => b.children!.map((r) => [r.title, r.selectable])),
    [[["101", true]], [["201", true]]],
  );
});

test("leaves without a known parent gather under the orphan root, or are left out", () => {
  const leaves = [{ id: "7", parentId: "999", title: "未装表", type: "meter" as const }];
  const tree = buildRegistryTree(branches, leaves, {
    prune: true,
    orphanRoot: { id: "unbound", title: "未安装" },
  });
  assert.deepEqual(
    tree.map((n) => [n.id, n.children?.map((c) => c.id)]),
    [["unbound", ["7"]]],
  );
  assert.deepEqual(buildRegistryTree(branches, leaves, { prune: true }), []);
});
