import assert from "node:assert/strict";
import net from "node:net";
import { after, before, describe, test } from "node:test";
import type { CommandAction, StoredCommand } from "@meterline/gateway";
import { dlt698, formatScaled } from "@meterline/protocols";
import type { ElectricMeter, Fault, SimulatedDialInMeter } from "@meterline/simulator";
import { type Rig, startRig, waitUntil } from "./harness.ts";

// Serials 0 and 1 speak DL/T 645 on DTU00001; 2 and 3 (3 prepaid) are 698.45 meters dialling in.
const PLAN = {
  meters: 4,
  dtus: 1,
  waterRatio: 0,
  prepaidRatio: 0.5,
  dlt698Ratio: 0.5,
  dlt698DialIn: true,
  seed: "dial-in",
  pollIntervalMs: 0,
  // Running since yesterday: the meter has frozen a day, read by the day's first poll.
  runningSince: Date.now() - 26 * 3_600_000,
};
const METER = "201000000003";

describe("DL/T 698.45 meters dialling in over TCP", () => {
  let rig: Rig;
  before(async () => {
    rig = await startRig(PLAN);
  });
  after(async () => {
    await rig.close();
  });

  const sim = () => rig.fleet.meter(METER) as ElectricMeter;
  const link = () => rig.fleet.dtu(METER) as SimulatedDialInMeter;

  async function run(action: CommandAction, faults: Fault[] = []): Promise<StoredCommand> {
    for (const fault of faults) rig.fleet.injectFault(METER, fault);
    const command = rig.commands.enqueue(`meter-${METER}`, action);
    return rig.commands.waitFor(command.id, ["success", "fail", "timeout"], 5_000);
  }
  const states = (stored: StoredCommand) => stored.history.map((entry) => entry.state);

  test("each meter is its own collector: its login and heartbeats are answered", async () => {
    assert.deepEqual(rig.fleet.plan.dialInIds, ["201000000002", METER]);
    assert.equal(rig.gateway.stats().collectorsOnline, 3);
    // The collector is counted online as soon as its answer is written: the meter reads it a moment later.
    await waitUntil(() => link().linkAnswers >= 1, 1_000, "the login answered");
    const answered = link().linkAnswers;
    await waitUntil(() => link().linkAnswers >= answered + 2, 3_000, "two heartbeats answered");
    assert.ok(rig.gateway.stats().heartbeats >= 2);
  });

  test("read over its own connection: energy, wallet, the daily freeze and the clock", async () => {
    rig.gateway.pollNow([`meter-${METER}`]);
    await waitUntil(() => rig.readings.latest(`meter-${METER}`) !== undefined, 5_000, "a reading");
    const reading = rig.readings.latest(`meter-${METER}`)!;
    assert.deepEqual(reading.missing, []);
    assert.equal(reading.balance, formatScaled(BigInt(sim().balanceFen), 2));
    assert.equal(reading.relay, "closed");
    assert.ok(Number(reading.energy?.total) > 0);
    assert.match(reading.dailyFrozen?.time ?? "", /^\d{4}-\d{2}-\d{2} 00:00$/);
    assert.ok(reading.meterTime && reading.statusWord1 === "0000");
  });

  test("cut by ACTION with read-back, restored by one whose reply is lost and settled by reading back", async () => {
    const trip = await run({ kind: "relay", action: "trip" });
    assert.deepEqual(states(trip), ["sent", "success"]);
    assert.equal(trip.history[1]!.evidence.readBack?.value, "open");
    assert.equal(sim().relayOpen, true);
    const close = await run({ kind: "relay", action: "close-direct" }, ["noReply"]);
    assert.deepEqual(states(close), ["sent", "success"]);
    assert.match(close.history[1]!.evidence.detail, /no reply; read-back shows the command took effect/);
    assert.equal(sim().relayOpen, false);
    assert.equal(sim().counters.relayOps, 2);
  });

  test("a login for a meter the registry does not know is refused and gets no answer", async () => {
    const { host, port } = rig.gateway.address();
    const socket = net.connect({ host, port });
    const received: Buffer[] = [];
    socket.on("data", (chunk: Buffer) => received.push(chunk));
    socket.on("error", () => {});
    const time = dlt698.dateTimeOf(new Date());
    socket.write(dlt698.buildLinkRequest("209900000001", { type: "login", heartbeatSeconds: 60, time }));
    await new Promise((resolve) => socket.once("close", resolve));
    assert.deepEqual(received, []);
    assert.ok((rig.gateway.stats().rejected["unknown collector"] ?? 0) >= 1);
  });
});
