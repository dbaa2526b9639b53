import assert from "node:assert/strict";
import { test } from "node:test";
import { type JudgedNode, lossAlarms } from "./loss-alarms.ts";
import type { PeriodLoss } from "./node-figures.ts";

const node: JudgedNode = {
  id: "7",
  name: "2号楼",
  energyType: 1,
  masterMeterId: "900",
  masterCode: "100000000900",
};
/** A day's loss of `loss` kWh out of 100 (0.0001-unit figures, as nodeLoss counts). */
const lossOf = (loss: number): PeriodLoss => ({
  kind: loss < 0 ? "negative" : "loss",
  input: 1_000_000n,
  delivered: BigInt((100 - loss) * 10_000),
  loss: BigInt(loss * 10_000),
  percent: loss,
});
const days = Array.from({ length: 30 }, (_, i) => `2026-10-${String(i + 1).padStart(2, "0")}`);
const normal = Array.from({ length: 27 }, (_, i) => lossOf(4 + (i % 3)));

test("of the judged days only those above the band or negative raise, each naming its figures", () => {
  const found = lossAlarms(node, days, [...normal, lossOf(5), lossOf(15), lossOf(-3)], 3);
  assert.deepEqual(
    found.map((a) => [a.day, a.code, a.meterId, a.nodeId]),
    [
      ["2026-10-29", "loss_above_band", "900", "7"],
      ["2026-10-30", "loss_negative", "900", "7"],
    ],
  );
  assert.equal(
    found[0]!.content,
    "计量节点「2号楼」(总表 100000000900) 2026-10-29 线损 15%(15.00 kWh),超出正常范围 0.55%–9.45%(中位 5%)",
  );
  assert.match(found[1]!.content, /2026-10-30 线损 -3%\(-3\.00 kWh\):分表合计大于总表/);
});

test("days before the judged ones, a node without a master or a band, and unmeasured days raise nothing", () => {
  const spike = [...normal, lossOf(15), lossOf(5), lossOf(5)];
  assert.deepEqual(lossAlarms(node, days, spike, 2), []);
  assert.equal(lossAlarms(node, days, spike, 3).length, 1);
  assert.deepEqual(lossAlarms({ ...node, masterMeterId: null }, days, spike, 3), []);
  // Five days behind it are too few for a band; a negative day needs none.
  assert.deepEqual(
    lossAlarms(node, days.slice(0, 7), [...normal.slice(0, 5), lossOf(30), lossOf(-1)], 2).map((a) => a.code),
    ["loss_negative"],
  );
  const missing: PeriodLoss = { kind: "missing", meters: ["900"] };
  assert.deepEqual(lossAlarms(node, days, [...normal, missing, missing, missing], 3), []);
  // Water names its unit.
  const water = lossAlarms(
    { ...node, energyType: 2 },
    days,
    [...normal, lossOf(5), lossOf(5), lossOf(-3)],
    1,
  );
  assert.match(water[0]!.content, /-3\.00 m³/);
  assert.equal(water[0]!.energyType, 2);
});
