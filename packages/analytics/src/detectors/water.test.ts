import assert from "node:assert/strict";
import { test } from "node:test";
import type { RegisterRead } from "../align.ts";
import { minimumHourlyFlow, nightFlow, unmeteredNightFlow } from "./water.ts";

const HOUR = 3_600_000;

/** Reads every 30 minutes of a register rising by `perHour(h)` 0.01 m³ in hour h. */
function meter(perHour: (hour: number) => number, hours = 6): RegisterRead[] {
  const reads: RegisterRead[] = [{ at: 0, value: 1_000n }];
  let value = 1_000;
  for (let half = 1; half <= hours * 2; half++) {
    value += perHour(Math.floor((half - 1) / 2)) / 2;
    reads.push({ at: (half * HOUR) / 2, value: BigInt(Math.round(value)) });
  }
  return reads;
}

test("a night's smallest hour: a tap used once and a leak running all night", () => {
  // 0.20 m³ at 02:00, nothing otherwise: the quiet hours' floor is zero.
  const tap = meter((hour) => (hour === 2 ? 20 : 0));
  assert.equal(minimumHourlyFlow([tap], 0, 5 * HOUR), 0);
  // 0.04 m³ every hour, more at 03:00: the floor is the leak's 0.04 m³/h.
  const leak = meter((hour) => (hour === 3 ? 30 : 4));
  assert.equal(minimumHourlyFlow([leak], 0, 5 * HOUR), 0.04);
  // Most hours without reads either side: no figure rather than a wrong one.
  assert.equal(minimumHourlyFlow([leak.filter((read) => read.at < 2 * HOUR)], 0, 5 * HOUR), undefined);
  // One missed poll leaves one hour out (the 0.04 floor still shows): the night is not lost.
  const missed = leak.filter((read) => read.at !== HOUR);
  assert.equal(minimumHourlyFlow([missed], 0, 5 * HOUR, [1], 0.75 * HOUR), 0.04);
});

test("a node's master counting more each quiet hour than its rooms together has a leak before them", () => {
  const rooms = [meter(() => 2), meter((hour) => (hour === 1 ? 10 : 0))];
  const master = meter((hour) => 2 + (hour === 1 ? 10 : 0) + 7);
  assert.equal(unmeteredNightFlow(master, rooms, 0, 5 * HOUR), 0.07);
  assert.equal(
    unmeteredNightFlow(
      meter((hour) => 2 + (hour === 1 ? 10 : 0)),
      rooms,
      0,
      5 * HOUR,
    ),
    0,
  );
});

test("three nights in a row above the floor ask for a visit; a dry night in between starts over", () => {
  const night = (index: number, flow: number | undefined) => ({ at: index * 24 * HOUR, flow });
  const found = nightFlow("w1", [night(0, 0), night(1, 0.05), night(2, 0.06), night(3, 0.05)]);
  assert.ok(found);
  assert.equal(found.kind, "night-flow");
  assert.deepEqual(found.figures[0], { name: "nights in a row", value: 3, unit: "nights" });
  assert.equal(found.from, 24 * HOUR);
  assert.equal(nightFlow("w1", [night(0, 0.05), night(1, 0), night(2, 0.06), night(3, 0.05)]), undefined);
  assert.equal(
    nightFlow("w1", [night(0, 0.05), night(1, undefined), night(2, 0.06), night(3, 0.05)]),
    undefined,
  );
  const node = nightFlow("node-7", [night(0, 0.3), night(1, 0.3), night(2, 0.3)], "node-leak");
  assert.equal(node?.kind, "node-leak");
  assert.equal(node?.figures[2]?.value, 7200);
});
