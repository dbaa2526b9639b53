import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { CommandAction, StoredCommand } from "@meterline/gateway";
import type { ElectricMeter, Fault, WaterMeter } from "@meterline/simulator";
import { type Rig, startRig, waitUntil } from "./harness.ts";

// 12 meters on 2 DTUs: water at indexes 3, 7, 11; electric serials 0..8, prepaid 1, 3, 5, 7.
const PLAN = {
  meters: 12,
  dtus: 2,
  waterRatio: 0.25,
  prepaidRatio: 0.5,
  seed: "commands",
  pollIntervalMs: 0,
};
const electric = (serial: number) => String(201_000_000_000 + serial);
const water = (serial: number) => String(78_330_000_000_000 + serial);

describe("command lifecycle against the simulated fleet", () => {
  let rig: Rig;
  before(async () => {
    rig = await startRig(PLAN);
  });
  after(async () => {
    await rig.close();
  });

  const meterOf = (address: string) => rig.fleet.meter(address)!;
  const elec = (address: string) => meterOf(address) as ElectricMeter;
  const wat = (address: string) => meterOf(address) as WaterMeter;

  async function run(
    address: string,
    action: CommandAction,
    faults: Fault[] = [],
    operator?: string,
  ): Promise<StoredCommand> {
    for (const fault of faults) rig.fleet.injectFault(address, fault);
    const command = rig.commands.enqueue(`meter-${address}`, action, operator ? { operator } : {});
    return rig.commands.waitFor(command.id, ["success", "fail", "timeout"], 5_000);
  }
  const states = (stored: StoredCommand) => stored.history.map((entry) => entry.state);

  test("a trip acknowledged and verified by status word 3 succeeds", async () => {
    const result = await run(electric(0), { kind: "relay", action: "trip" });
    assert.deepEqual(states(result), ["sent", "success"]);
    assert.equal(result.history[1]!.evidence.readBack?.value, "open");
    assert.equal(elec(electric(0)).counters.relayOps, 1);
    assert.equal(elec(electric(0)).relayOpen, true);
  });

  test("a lost reply is reconciled by read-back: executed once, success", async () => {
    const result = await run(electric(0), { kind: "relay", action: "close-direct" }, ["noReply"]);
    assert.deepEqual(states(result), ["sent", "success"]);
    assert.match(result.history[1]!.evidence.detail, /no reply; read-back shows the command took effect/);
    assert.equal(result.history[1]!.evidence.reply, undefined);
    assert.equal(elec(electric(0)).counters.relayOps, 2);
    assert.equal(elec(electric(0)).relayOpen, false);
  });

  test("a corrupted reply is treated as none and reconciled", async () => {
    const result = await run(electric(2), { kind: "relay", action: "trip" }, ["badChecksum"]);
    assert.deepEqual(states(result), ["sent", "success"]);
    assert.equal(elec(electric(2)).counters.relayOps, 1);
  });

  test("an error reply fails without execution and without retry", async () => {
    const before = rig.fleet.stats().requests;
    const result = await run(electric(4), { kind: "relay", action: "trip" }, ["errorReply"]);
    assert.deepEqual(states(result), ["sent", "fail"]);
    assert.match(result.history[1]!.evidence.detail, /error reply: other/);
    assert.equal(elec(electric(4)).counters.relayOps, 0);
    assert.equal(rig.fleet.stats().requests - before, 1, "one request: never resent");
  });

  test("a request lost on the bus times out and the read-back shows it failed", async () => {
    const result = await run(electric(6), { kind: "relay", action: "trip" }, ["ignore"]);
    assert.deepEqual(states(result), ["sent", "fail"]);
    assert.match(result.history[1]!.evidence.detail, /did not take effect/);
    assert.equal(elec(electric(6)).counters.relayOps, 0);
    assert.equal(elec(electric(6)).relayOpen, false);
  });

  test("when the read-back also gets no answer the command stays timeout-to-be-confirmed", async () => {
    const result = await run(electric(8), { kind: "relay", action: "trip" }, [
      "noReply",
      "noReply",
      "noReply",
    ]);
    assert.deepEqual(states(result), ["sent", "timeout"]);
    assert.equal(result.history[1]!.evidence.readBack?.value, null);
    assert.equal(elec(electric(8)).counters.relayOps, 1, "executed, but the gateway cannot know: not resent");
  });

  test("a late acknowledgement is dropped and the read-back decides", async () => {
    const unexpected = rig.gateway.stats().unexpectedFrames;
    const result = await run(electric(2), { kind: "relay", action: "close-direct" }, ["lateReply"]);
    assert.deepEqual(states(result), ["sent", "success"]);
    await waitUntil(() => rig.gateway.stats().unexpectedFrames > unexpected, 2_000, "the late ack to arrive");
    assert.equal(elec(electric(2)).counters.relayOps, 2);
  });

  test("a valve still moving when it acknowledges is verified after it settles", async () => {
    const result = await run(water(0), { kind: "valve", action: "close" });
    assert.deepEqual(states(result), ["sent", "success"]);
    assert.match(result.history[1]!.evidence.detail, /valve closed/);
    assert.equal(wat(water(0)).counters.valveOps, 1);
    assert.equal(wat(water(0)).valve, "closed");
  });

  test("a valve command without reply is settled by reading the status word after the settle time", async () => {
    const result = await run(water(1), { kind: "valve", action: "close" }, ["noReply"]);
    assert.deepEqual(states(result), ["sent", "success"]);
    assert.equal(wat(water(1)).counters.valveOps, 1);
  });

  test("recharges: applied once even when the reply is lost; a lost request fails; a replay is refused", async () => {
    const meter = elec(electric(1));
    const balance = meter.balanceFen;
    const first = await run(electric(1), { kind: "recharge", amount: "100.00", purchaseCount: 1 });
    assert.deepEqual(states(first), ["sent", "success"]);
    const second = await run(electric(1), { kind: "recharge", amount: "50.05", purchaseCount: 2 }, [
      "noReply",
    ]);
    assert.deepEqual(states(second), ["sent", "success"]);
    assert.equal(second.history[1]!.evidence.readBack?.value, "2");
    const lost = await run(electric(1), { kind: "recharge", amount: "10.00", purchaseCount: 3 }, ["ignore"]);
    assert.deepEqual(states(lost), ["sent", "fail"]);
    const replay = await run(electric(1), { kind: "recharge", amount: "50.05", purchaseCount: 2 });
    assert.deepEqual(states(replay), ["sent", "fail"]);
    assert.equal(meter.purchaseCount, 2);
    assert.equal(meter.counters.recharges, 2);
    // Energy may have been used meanwhile; the recharges add exactly 150.05 yuan.
    assert.ok(meter.balanceFen <= balance + 15_005 && meter.balanceFen > balance + 15_005 - 100);
  });

  test("account clearing: refused unless it is the meter's exact balance; a lost reply settled by the purchase count", async () => {
    const meter = elec(electric(1));
    // The owner is gone: nothing is used while the meter is cleared.
    meter.relayOpen = true;
    const count = meter.purchaseCount;
    const wrong = await run(electric(1), {
      kind: "clearing",
      amount: ((meter.balanceFen + 1) / 100).toFixed(2),
      purchaseCount: count + 1,
    });
    assert.deepEqual(states(wrong), ["sent", "fail"]);
    const amount = (meter.balanceFen / 100).toFixed(2);
    const cleared = await run(electric(1), { kind: "clearing", amount, purchaseCount: count + 1 }, [
      "noReply",
    ]);
    assert.deepEqual(states(cleared), ["sent", "success"]);
    assert.equal(cleared.history[1]!.evidence.readBack?.value, String(count + 1));
    assert.deepEqual([meter.balanceFen, meter.purchaseCount, meter.counters.clearings], [0, count + 1, 1]);
    meter.relayOpen = false;
  });

  test("a money-parameter write without reply is confirmed by reading the register back", async () => {
    const result = await run(electric(3), { kind: "write", di: "04001001", value: "88.50" }, ["noReply"]);
    assert.deepEqual(states(result), ["sent", "success"]);
    assert.equal(result.history[1]!.evidence.readBack?.value, "88.50");
    assert.equal(elec(electric(3)).alarm1Fen, 8_850);
  });

  test("a time-of-use day table write without reply is confirmed by reading the whole table back", async () => {
    const meter = elec(electric(3));
    const writes = meter.counters.writes;
    const value = "000004,070002,220004";
    const result = await run(electric(3), { kind: "write", di: "04010001", value }, ["noReply"]);
    assert.deepEqual(states(result), ["sent", "success"]);
    assert.equal(result.history[1]!.evidence.readBack?.value, value);
    assert.match(result.history[1]!.evidence.detail, /read-back shows the command took effect/);
    assert.deepEqual(meter.tou.dayTables[0], [
      { start: 0, tariff: 4 },
      { start: 420, tariff: 2 },
      { start: 1320, tariff: 4 },
    ]);
    assert.equal(meter.counters.writes, writes + 1, "written once, never again");
    // A table no meter holds (25:00) is refused by the codec and never sent.
    const bad = await run(electric(3), { kind: "write", di: "04010001", value: "250004" });
    assert.deepEqual(states(bad), ["fail"]);
    assert.match(bad.history[0]!.evidence.detail, /not sent: DI 04010001/);
  });

  test("reads are retried; a silent meter fails after the bounded attempts", async () => {
    const retried = await run(electric(5), { kind: "read", di: "00900200" }, ["noReply"]);
    assert.deepEqual(states(retried), ["sent", "success"]);
    assert.equal(retried.history[1]!.evidence.attempts, 2);
    assert.match(retried.history[1]!.evidence.value ?? "", /balance=\d+\.\d\d/);
    const dead = await run(electric(5), { kind: "read", di: "00010000" }, ["ignore", "ignore"]);
    assert.deepEqual(states(dead), ["sent", "fail"]);
    assert.match(dead.history[1]!.evidence.detail, /no reply after 2 attempts/);
  });

  test("commands a meter cannot carry, values the codec refuses and expired commands fail unsent", async () => {
    const relayOnWater = await run(water(2), { kind: "relay", action: "trip" });
    assert.deepEqual(states(relayOnWater), ["fail"]);
    assert.match(relayOnWater.history[0]!.evidence.detail, /not sent: relay control needs DL\/T 645-2007/);
    const tooPrecise = await run(electric(3), { kind: "write", di: "04001001", value: "1.234" });
    assert.deepEqual(states(tooPrecise), ["fail"]);
    assert.match(tooPrecise.history[0]!.evidence.detail, /more than 2 decimal places/);
    const expired = rig.commands.enqueue(
      `meter-${electric(3)}`,
      { kind: "relay", action: "trip" },
      { expiresAt: new Date(Date.now() - 1) },
    );
    const done = await rig.commands.waitFor(expired.id, ["fail"], 5_000);
    assert.match(done.history[0]!.evidence.detail, /expired/);
    assert.equal(elec(electric(3)).counters.relayOps, 0);
  });

  test("a connection dropped mid-command is reconciled when the DTU comes back", async () => {
    const meter = elec(electric(7));
    rig.fleet.injectFault(electric(7), "disconnect");
    const command = rig.commands.enqueue(`meter-${electric(7)}`, { kind: "relay", action: "trip" });
    const done = await rig.commands.waitFor(command.id, ["success", "fail"], 5_000);
    assert.deepEqual(states(done), ["sent", "timeout", "success"]);
    assert.match(done.history[1]!.evidence.detail, /connection closed/);
    assert.equal(meter.counters.relayOps, 1);
    assert.ok(rig.gateway.stats().commands.reconciled >= 1);
  });

  test("commands go before polls and polls deliver readings", async () => {
    const polled = rig.gateway.pollNow();
    assert.equal(polled, 12);
    await waitUntil(() => rig.gateway.stats().pollsCompleted >= 12, 5_000, "a poll round");
    const reading = rig.readings.latest(`meter-${electric(1)}`)!;
    assert.match(reading.energy?.total ?? "", /^\d+\.\d\d$/);
    assert.equal(reading.energy?.tariffs.length, 4);
    assert.match(reading.balance ?? "", /^\d+\.\d\d$/);
    const waterReading = rig.readings.latest(`meter-${water(0)}`)!;
    assert.equal(waterReading.valve, "closed");
    assert.equal(rig.fleet.stats().collisions, 0, "never two requests in flight on one bus");
  });
});
