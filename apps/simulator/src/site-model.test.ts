import assert from "node:assert/strict";
import { test } from "node:test";
import type { AnomalyPlan } from "./anomalies.ts";
import { type Site, simulateSite, siteLayout } from "./site-model.ts";

const DAY_MS = 86_400_000;

/** What a meter's register rose by between the last reads at or before `from` and `to` (0.01 units). */
function counted(site: Site, id: string, from: number, to: number): bigint {
  const reads = site.meters.find((meter) => meter.id === id)!.reads;
  const at = (instant: number) => reads.filter((read) => read.at <= instant).at(-1)!.value;
  return at(to) - at(from);
}

/** A node's loss as its registered meters show it: master minus rooms and common area. */
function loss(site: Site, node: string, from: number, to: number): bigint {
  const master = site.nodes.find((entry) => entry.id === node)!.electricMaster;
  const subs = site.meters.filter(
    (meter) => meter.registeredNode === node && (meter.role === "room" || meter.role === "common"),
  );
  return subs.reduce(
    (sum, meter) => sum - counted(site, meter.id, from, to),
    counted(site, master, from, to),
  );
}

const layout = siteLayout({ seed: "site-test", meters: 40, days: 4 });
const first = layout.options.firstDay;
const start = first + 2 * DAY_MS;
const clean = simulateSite(layout, { anomalies: [] });

test("an under-registering meter counts less from its start, and its node's loss rises by exactly that", () => {
  const plan: AnomalyPlan = {
    anomalies: [{ kind: "under-registering", target: "E00001", start, magnitude: 0.5 }],
  };
  const theft = simulateSite(layout, plan);
  assert.deepEqual(theft.truth, plan.anomalies);
  // Before the start nothing differs.
  assert.equal(counted(theft, "E00001", first, start), counted(clean, "E00001", first, start));
  const end = first + 4 * DAY_MS - 1;
  const honest = counted(clean, "E00001", start, end);
  const stopped = honest - counted(theft, "E00001", start, end);
  // About half of what it used is no longer counted: polls fall a few minutes either side of the
  // start, so the window holds a little honest counting too.
  assert.ok(honest > 100n, `the room used ${honest}`);
  const share = Number(stopped) / Number(honest);
  assert.ok(share > 0.45 && share <= 0.5, `${stopped} of ${honest}`);
  // The master still sees the energy: the node's loss rises by what the meter stopped counting.
  assert.equal(loss(theft, "N001", start, end) - loss(clean, "N001", start, end), stopped);
  assert.equal(loss(theft, "N002", start, end), loss(clean, "N002", start, end));
  assert.deepEqual(theft.nodes[0]!.trueLossPercent, clean.nodes[0]!.trueLossPercent);
});

test("tamper, mis-mapping, a leak and a faulty master act as the plan says", () => {
  const site = simulateSite(layout, {
    anomalies: [
      { kind: "tamper", target: "E00002", start, magnitude: 0.4 },
      { kind: "mis-mapped", target: "E00003", start, magnitude: 0, registeredUnder: "N002" },
      { kind: "leak", target: "W00004", start, magnitude: 0.2 },
      { kind: "faulty-master", target: "N002", start, magnitude: 0.1 },
    ],
  });
  const meter = (id: string) => site.meters.find((entry) => entry.id === id)!;
  assert.deepEqual(meter("E00002").events, [{ at: start, kind: "cover-open" }]);
  assert.deepEqual([meter("E00003").feedingNode, meter("E00003").registeredNode], ["N001", "N002"]);
  // A day of leaking at 0.2 m³/h adds 4.8 m³ to the room's meter (between polls about a day
  // apart: a missed poll shortens the window by an hour).
  const day = [start + DAY_MS, start + 2 * DAY_MS - 1] as const;
  const extra = counted(site, "W00004", ...day) - counted(clean, "W00004", ...day);
  assert.ok(extra >= 450n && extra <= 500n, `${extra}`);
  assert.equal(
    counted(site, "W00004", first, start - DAY_MS),
    counted(clean, "W00004", first, start - DAY_MS),
  );
  const master = counted(site, "M002", ...day);
  const honestMaster = counted(clean, "M002", ...day);
  assert.ok(Math.abs(Number(master) / Number(honestMaster) - 0.9) < 0.002, `${master} of ${honestMaster}`);
});
