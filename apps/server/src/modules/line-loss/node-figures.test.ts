import assert from "node:assert/strict";
import { test } from "node:test";
import { bandOf, hundredthsText, outflows, periodLoss, stateOf, type TopologyNode } from "./node-figures.ts";

const HOUR = 3600_000;
const read = (hours: number, value: number) => ({ at: hours * HOUR, value: BigInt(value) });

const nodes: TopologyNode[] = [
  { id: "1", parentId: "0", masterMeterId: "m1", listedMeterIds: ["c1"] },
  { id: "2", parentId: "1", masterMeterId: "m2", listedMeterIds: ["r1", "r2"] },
  { id: "3", parentId: "1", masterMeterId: null, listedMeterIds: [] },
];

test("what leaves a node: its listed meters and its children's masters; a child without one is named", () => {
  const out = outflows(nodes);
  assert.deepEqual(out.get("1"), { subMeterIds: ["c1", "m2"], unmeteredChildren: ["3"] });
  assert.deepEqual(out.get("2"), { subMeterIds: ["r1", "r2"], unmeteredChildren: [] });
});

test("sub-meters counting more than the master is a fault state, never a gain", () => {
  const node = nodes[1]!;
  const reads = new Map([
    ["m2", [read(0, 1000), read(24, 2000)]],
    ["r1", [read(0, 0), read(24, 600)]],
    ["r2", [read(0, 0), read(24, 500)]],
  ]);
  const loss = periodLoss(node, outflows(nodes).get("2")!, reads, 0, 24 * HOUR);
  assert.equal(loss.kind, "negative");
  assert.equal(stateOf(loss, bandOf([5, 5, 5, 5, 5, 5, 5])), "negative");
  assert.equal(
    stateOf(periodLoss(nodes[2]!, outflows(nodes).get("3")!, reads, 0, HOUR), undefined),
    "no-master",
  );
  assert.equal(
    stateOf(periodLoss(nodes[0]!, outflows(nodes).get("1")!, reads, 0, HOUR), undefined),
    "missing",
  );
});

test("a loss below its band is told apart from one above it", () => {
  const band = bandOf([5, 5.2, 4.8, 5.1, 4.9, 5, 5])!;
  const loss = (percent: number) =>
    ({ kind: "loss", input: 100n, delivered: 0n, loss: 0n, percent }) as const;
  assert.equal(stateOf(loss(0.5), band), "below-band");
  assert.equal(stateOf(loss(12), band), "above-band");
  assert.equal(stateOf(loss(5.3), band), "ok");
  assert.equal(bandOf([5, 5, 5]), undefined);
});

test("aligned 0.0001 units print as 2 decimals, half away from zero", () => {
  assert.equal(hundredthsText(123_450n), "12.35");
  assert.equal(hundredthsText(123_449n), "12.34");
  assert.equal(hundredthsText(-50n), "-0.01");
  assert.equal(hundredthsText(-49n), "0.00");
  assert.equal(hundredthsText(0n), "0.00");
});
