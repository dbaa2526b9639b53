import assert from "node:assert/strict";
import { test } from "node:test";
import type { StoredCommand } from "@meterline/gateway";
import type { ElectricMeter, WaterMeter } from "@meterline/simulator";
import { startRig } from "./harness.ts";

test("a batch of switches under random faults: every command ends, none is lost or executed twice", async () => {
  const rig = await startRig({
    meters: 20,
    dtus: 4,
    waterRatio: 0.2,
    prepaidRatio: 0,
    seed: "batch-7",
    pollIntervalMs: 0,
    faults: {
      ignore: 0.08,
      noReply: 0.08,
      lateReply: 0.05,
      duplicateReply: 0.05,
      badChecksum: 0.05,
      errorReply: 0.05,
      disconnect: 0.02,
    },
  });
  try {
    const results: { stored: StoredCommand; address: string; operator: string }[] = [];
    let sequence = 0;
    // Per meter, one command at a time, each asking for the opposite of the meter's true state, so
    // "success" means exactly "this command was executed" (the state cannot already be the target).
    const valves: { stored: StoredCommand; meter: WaterMeter; action: "open" | "close" }[] = [];
    const water = rig.fleet.meters().filter((m): m is WaterMeter => m.kind === "water");
    const electric = rig.fleet.meters().filter((m): m is ElectricMeter => m.kind === "electric");
    const valveRuns = water.map(async (meter) => {
      for (let i = 0; i < 5; i++) {
        const action = meter.valve === "open" ? "close" : "open";
        const command = rig.commands.enqueue(`meter-${meter.address}`, { kind: "valve", action });
        const stored = await rig.commands.waitFor(command.id, ["success", "fail", "timeout"], 10_000);
        valves.push({ stored: await settled(stored), meter, action });
        await new Promise((resolve) => setTimeout(resolve, 40)); // let the motor finish
      }
    });
    const settled = (stored: StoredCommand) =>
      stored.history.at(-1)?.evidence.detail.includes("connection closed") === true
        ? rig.commands.waitFor(stored.command.id, ["success", "fail"], 5_000).catch(() => stored)
        : Promise.resolve(stored);
    await Promise.all([
      ...valveRuns,
      ...electric.map(async (meter) => {
        for (let i = 0; i < 6; i++) {
          const operator = (++sequence).toString(16).toUpperCase().padStart(8, "0");
          const action = meter.relayCommandOpen ? "close-direct" : "trip";
          const command = rig.commands.enqueue(
            `meter-${meter.address}`,
            { kind: "relay", action },
            { operator },
          );
          const stored = await rig.commands.waitFor(command.id, ["success", "fail", "timeout"], 10_000);
          // A command left "timeout" by a dropped connection is settled when the DTU is back.
          results.push({ stored: await settled(stored), address: meter.address, operator });
        }
      }),
    ]);
    assert.equal(results.length, 96);
    assert.equal(valves.length, 20);
    for (const meter of water) {
      const mine = valves.filter((v) => v.meter === meter);
      const successes = mine.filter((v) => v.stored.state === "success").length;
      const sent = mine.filter((v) => v.stored.history[0]?.state === "sent").length;
      // A valve success means the valve reached the state it was asked for, which was never its state before.
      assert.ok(
        meter.counters.valveOps >= successes && meter.counters.valveOps <= sent,
        `valve ops ${meter.counters.valveOps}`,
      );
    }
    const tally = { success: 0, fail: 0, timeout: 0 };
    for (const { stored, address, operator } of results) {
      const meter = rig.fleet.meter(address) as ElectricMeter;
      const executed = meter.operations.filter((op) => op.operator === operator).length;
      assert.ok(executed <= 1, `command ${operator} executed ${executed} times`);
      const state = stored.state as keyof typeof tally;
      tally[state]++;
      if (state === "success") assert.equal(executed, 1, `success without execution: ${operator}`);
      if (state === "fail") assert.equal(executed, 0, `failed but executed: ${operator}`);
      assert.ok(["success", "fail", "timeout"].includes(state));
      assert.equal(stored.history[0]!.state, "sent");
    }
    const stats = rig.fleet.stats();
    assert.equal(
      stats.relayOps,
      results.filter((r) =>
        (rig.fleet.meter(r.address) as ElectricMeter).operations.some((op) => op.operator === r.operator),
      ).length,
    );
    assert.equal(stats.collisions, 0, "one request in flight per bus");
    assert.ok(tally.success > tally.fail, `mostly successes: ${JSON.stringify(tally)}`);
    assert.ok(rig.gateway.stats().commands.reconciled > 0, "some outcomes were settled by read-back");
    assert.equal(
      rig.commands.all().filter((stored) => stored.state === "queued" || stored.state === "sent").length,
      0,
    );
  } finally {
    await rig.close();
  }
});
