import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import {
  type CommandAction,
  type GatewayHandle,
  MemoryCommandQueue,
  MemoryMeterDirectory,
  MemoryReadingsSink,
  type MeterInfo,
  modbusTcpCollectorId,
  type StoredCommand,
  silentLogger,
  startGateway,
} from "@meterline/gateway";
import { parseScaled } from "@meterline/protocols";
import {
  createRandom,
  type Fault,
  FaultPlan,
  ModbusMeter,
  type ModbusTcpServer,
  startModbusTcpServer,
} from "@meterline/simulator";
import { FAST, type Rig, startRig, waitUntil } from "./harness.ts";

// One DTU bus: a DL/T 645 meter, and Modbus-RTU meters of two catalogue models (slaves 1 and 2):
// an Acrel DDSY1352 (relay by register, function 16) and an Eastron SDM120 (input registers, no relay).
const PLAN = {
  meters: 1,
  dtus: 1,
  waterRatio: 0,
  prepaidRatio: 0,
  modbusMeters: 2,
  modbusModels: ["ddsy1352", "sdm120"],
  seed: "modbus",
  pollIntervalMs: 0,
};
const DDSY = "meter-mb-DTU00001-1";
const SDM = "meter-mb-DTU00001-2";

describe("Modbus-RTU meters behind a DTU, over real TCP", () => {
  let rig: Rig;
  before(async () => {
    rig = await startRig(PLAN);
  });
  after(async () => {
    await rig.close();
  });

  const sim = (id: string) => rig.fleet.modbusMeter(id) as ModbusMeter;
  async function run(meter: string, action: CommandAction, faults: Fault[] = []): Promise<StoredCommand> {
    for (const fault of faults) rig.fleet.injectFault(meter, fault);
    const command = rig.commands.enqueue(meter, action);
    return rig.commands.waitFor(command.id, ["success", "fail", "timeout"], 5_000);
  }
  const states = (stored: StoredCommand) => stored.history.map((entry) => entry.state);

  test("a poll reads energy, power and relay by each model's register map, beside a DL/T 645 meter", async () => {
    const ids = [DDSY, SDM, "meter-201000000000"];
    rig.gateway.pollNow();
    await waitUntil(() => ids.every((id) => rig.readings.latest(id)), 5_000, "every meter read");
    const ddsy = rig.readings.latest(DDSY)!;
    assert.deepEqual(ddsy.missing, []);
    assert.equal(ddsy.relay, "closed");
    // uint32 at 0.01 kWh: exactly what the meter's register held, never more than it holds now.
    const shown = parseScaled(ddsy.energy!.total, 2);
    assert.ok(shown >= 10_000n && shown <= parseScaled(sim(DDSY).energyKwh(Date.now()), 2));
    // int16 at 0.001 kW: the meter's load in kW.
    assert.equal(parseScaled(ddsy.activePower!, 3), BigInt(sim(DDSY).powerW()));
    const sdm = rig.readings.latest(SDM)!;
    assert.deepEqual(sdm.missing, []);
    assert.equal(sdm.relay, undefined, "the SDM120 has no relay to read");
    // float32 in W, converted exactly to kW.
    assert.equal(Number(sdm.activePower), sim(SDM).powerW() / 1000);
    assert.ok(Number(sdm.energy!.total) > 0);
    assert.ok(rig.readings.latest("meter-201000000000")?.energy, "the 645 meter on the same bus is read too");
  });

  test("cut by the model's relay register, confirmed by reading the relay back", async () => {
    const result = await run(DDSY, { kind: "relay", action: "trip" });
    assert.deepEqual(states(result), ["sent", "success"]);
    // Function 16 (the model takes writes only by 0x10) to register 0x0046 with 0x00AA, slave 1.
    assert.match(result.history[0]!.evidence.request ?? "", /^011000460001020{2}aa/i);
    assert.match(
      result.history[1]!.evidence.detail,
      /acknowledged and verified \(relay command open, relay open\)/,
    );
    assert.equal(result.history[1]!.evidence.readBack?.value, "open");
    assert.equal(sim(DDSY).relayOn, false);
    assert.equal(sim(DDSY).counters.relayOps, 1);
  });

  test("restored with the reply lost: the read-back settles it, and it is written once", async () => {
    const result = await run(DDSY, { kind: "relay", action: "close-direct" }, ["noReply"]);
    assert.deepEqual(states(result), ["sent", "success"]);
    assert.match(result.history[1]!.evidence.detail, /no reply; read-back shows the command took effect/);
    assert.equal(result.history[1]!.evidence.readBack?.value, "closed");
    assert.equal(sim(DDSY).relayOn, true);
    assert.equal(sim(DDSY).counters.relayOps, 2);
  });

  test("a cut lost on the bus times out and the read-back shows it failed; never resent", async () => {
    const result = await run(DDSY, { kind: "relay", action: "trip" }, ["ignore"]);
    assert.deepEqual(states(result), ["sent", "fail"]);
    assert.match(
      result.history[1]!.evidence.detail,
      /no reply; read-back shows the command did not take effect/,
    );
    assert.equal(sim(DDSY).relayOn, true);
    assert.equal(sim(DDSY).counters.relayOps, 2);
  });

  test("an exception reply fails the command with its reason, without a retry", async () => {
    const result = await run(DDSY, { kind: "relay", action: "trip" }, ["errorReply"]);
    assert.deepEqual(states(result), ["sent", "fail"]);
    assert.equal(result.history[1]!.evidence.detail, "exception 04 (server device failure) to function 10");
    assert.equal(sim(DDSY).counters.relayOps, 2);
  });

  test("a read of a register the meter refuses surfaces its exception; a model's register reads by name", async () => {
    // The SDM120's catalogue has no relay: refused before a byte is sent.
    const noRelay = await run(SDM, { kind: "relay", action: "trip" });
    assert.deepEqual(states(noRelay), ["fail"]);
    assert.match(noRelay.history[0]!.evidence.detail, /not sent: SDM120-Modbus has no relay/);
    const voltage = await run(SDM, { kind: "read", di: "voltage" });
    assert.deepEqual(states(voltage), ["sent", "success"]);
    assert.equal(voltage.history[1]!.evidence.value, "voltage=220");
    const refused = await run(SDM, { kind: "read", di: "power factor" }, ["errorReply"]);
    assert.deepEqual(states(refused), ["sent", "fail"]);
    assert.equal(refused.history[1]!.evidence.detail, "exception 04 (server device failure) to function 04");
  });
});

describe("Modbus TCP meters the gateway connects out to, over real TCP", () => {
  let server: ModbusTcpServer;
  let gateway: GatewayHandle;
  let commands: MemoryCommandQueue;
  let readings: MemoryReadingsSink;
  const meters = {
    sdm630: new ModbusMeter({
      id: "tcp-sdm630",
      slave: 1,
      modelName: "sdm630",
      meanRate: 1500,
      startKwh: 42,
    }),
    ddsy: new ModbusMeter({ id: "tcp-ddsy", slave: 2, modelName: "ddsy1352", meanRate: 800, startKwh: 7 }),
  };
  const ddsyFaults = new FaultPlan({}, createRandom("tcp-ddsy"));

  before(async () => {
    server = await startModbusTcpServer([
      { meter: meters.sdm630 },
      { meter: meters.ddsy, faults: ddsyFaults },
    ]);
    const endpoint = server.address();
    const info = (meter: ModbusMeter): MeterInfo => ({
      id: meter.config.id,
      address: String(meter.config.slave),
      protocol: "modbus",
      transport: "tcp",
      collectorId: modbusTcpCollectorId(endpoint),
      channel: 1,
      model: { modbusModel: meter.config.modelName, modbusTcp: endpoint },
      pollIntervalMs: 0,
    });
    const directory = new MemoryMeterDirectory([info(meters.sdm630), info(meters.ddsy)]);
    commands = new MemoryCommandQueue((meterId) => directory.collectorOf(meterId));
    readings = new MemoryReadingsSink();
    gateway = await startGateway({ directory, commands, readings, logger: silentLogger, settings: FAST });
    await waitUntil(() => gateway.stats().collectorsOnline === 1, 5_000, "the Modbus TCP endpoint attached");
  });
  after(async () => {
    await gateway.close();
    await server.close();
  });

  async function run(meter: string, action: CommandAction): Promise<StoredCommand> {
    const command = commands.enqueue(meter, action);
    return commands.waitFor(command.id, ["success", "fail", "timeout"], 5_000);
  }
  const states = (stored: StoredCommand) => stored.history.map((entry) => entry.state);

  test("a poll reads each unit by MBAP, decoded by its model's map", async () => {
    gateway.pollNow();
    await waitUntil(() => ["tcp-sdm630", "tcp-ddsy"].every((id) => readings.latest(id)), 5_000, "both read");
    const sdm = readings.latest("tcp-sdm630")!;
    assert.deepEqual(sdm.missing, []);
    // float32 kWh and W: the SDM630's energy from 42 kWh on, its 1500 W as 1.5 kW.
    assert.ok(Number(sdm.energy!.total) >= 42 && Number(sdm.energy!.total) < 43);
    assert.equal(sdm.activePower, "1.500");
    const ddsy = readings.latest("tcp-ddsy")!;
    assert.deepEqual([ddsy.missing, ddsy.relay, ddsy.activePower], [[], "closed", "0.800"]);
    // Voltage and current where the model has them: the DDSY1352's at 0.1 V and 0.01 A (800 W at
    // 220 V is 3.64 A), the three-phase SDM630's phase A as float32 (a third of 1500 W).
    assert.deepEqual([ddsy.voltage, ddsy.current], ["220.0", "3.64"]);
    assert.deepEqual([sdm.voltage, sdm.current], ["220", "2.273"]);
  });

  test("a cut over TCP is verified by reading the relay back; a lost reply is settled the same way", async () => {
    const cut = await run("tcp-ddsy", { kind: "relay", action: "trip" });
    assert.deepEqual(states(cut), ["sent", "success"]);
    assert.match(cut.history[0]!.evidence.request ?? "", /^[0-9a-f]{4}0000000902100046000102/i);
    assert.equal(meters.ddsy.relayOn, false);
    ddsyFaults.inject("noReply");
    const restore = await run("tcp-ddsy", { kind: "relay", action: "close-direct" });
    assert.deepEqual(states(restore), ["sent", "success"]);
    assert.match(restore.history[1]!.evidence.detail, /no reply; read-back shows the command took effect/);
    assert.equal(meters.ddsy.relayOn, true);
    assert.equal(meters.ddsy.counters.relayOps, 2);
  });

  test("an exception reply over TCP fails the command with its reason", async () => {
    ddsyFaults.inject("errorReply");
    const result = await run("tcp-ddsy", { kind: "relay", action: "trip" });
    assert.deepEqual(states(result), ["sent", "fail"]);
    assert.equal(result.history[1]!.evidence.detail, "exception 04 (server device failure) to function 10");
    assert.equal(meters.ddsy.relayOn, true);
  });

  test("a reply with another transaction id is never taken for the answer", async () => {
    // A stale exception under another transaction id ahead of the right reply: the read takes the right one.
    server.misnumberNext(1, { thenAnswer: true });
    const read = await run("tcp-sdm630", { kind: "read", di: "voltage A" });
    assert.deepEqual(states(read), ["sent", "success"]);
    assert.equal(read.history[1]!.evidence.value, "voltage A=220");
    // A cut answered only by an exception under another transaction id: not its answer, so no
    // acknowledgement and no failure; the read-back settles it.
    server.misnumberNext(2);
    const cut = await run("tcp-ddsy", { kind: "relay", action: "trip" });
    assert.deepEqual(states(cut), ["sent", "success"]);
    assert.match(cut.history[1]!.evidence.detail, /no reply; read-back shows the command took effect/);
    assert.equal(meters.ddsy.relayOn, false);
    const restore = await run("tcp-ddsy", { kind: "relay", action: "close-direct" });
    assert.match(restore.history.at(-1)!.evidence.detail, /acknowledged and verified/);
    assert.equal(meters.ddsy.relayOn, true);
  });

  test("a dropped connection is dialled again and the meters are read over the new one", async () => {
    const before = server.connections();
    server.dropConnections();
    await waitUntil(() => server.connections() > before, 5_000, "the gateway dialled again");
    await waitUntil(() => gateway.stats().collectorsOnline === 1, 5_000, "the endpoint attached again");
    const read = await run("tcp-ddsy", { kind: "read", di: "relay" });
    assert.deepEqual(states(read), ["sent", "success"]);
    assert.equal(server.connections(), before + 1, "one connection per endpoint, not one per attempt");
  });
});
