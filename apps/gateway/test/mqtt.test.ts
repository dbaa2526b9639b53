import assert from "node:assert/strict";
import { createConnection } from "node:net";
import { describe, test } from "node:test";
import {
  connectMqtt,
  MemoryCommandQueue,
  MemoryMeterDirectory,
  MemoryReadingsSink,
  type MqttClientPort,
  MqttUnavailable,
  silentLogger,
  startGateway,
} from "@meterline/gateway";
import {
  type ElectricMeter,
  fleetCollectors,
  fleetDirectory,
  type MqttConnect,
  planFleet,
  startFleet,
  type WaterMeter,
} from "@meterline/simulator";
import { FAST, waitUntil } from "./harness.ts";
import { MemoryBroker } from "./memory-broker.ts";

const BROKER = "mqtt://127.0.0.1:1883";
const SEED = "meterline-mqtt";
// 6 meters, the last 3 on MQTT: index 3 water (78330000000000), 4 and 5 electric (…003, …004).
const PLAN = { meters: 6, dtus: 1, waterRatio: 0.25, prepaidRatio: 0, mqttMeters: 3, pollIntervalMs: 0 };

async function exercise(
  prefix: string,
  gatewayClient: MqttClientPort,
  connect: MqttConnect,
  url: string,
  hostile?: () => void,
) {
  // One seed for every run: the fleet's initial states (e.g. a meter in power-hold) must not vary
  // with the topic prefix, which only keeps concurrent runs on one broker apart.
  const plan = planFleet({ ...PLAN, seed: SEED });
  const directory = new MemoryMeterDirectory(fleetDirectory(plan), fleetCollectors(plan));
  const commands = new MemoryCommandQueue((id) => directory.collectorOf(id));
  const readings = new MemoryReadingsSink();
  const gateway = await startGateway({
    directory,
    commands,
    readings,
    logger: silentLogger,
    mqttClient: gatewayClient,
    settings: { ...FAST, mqttTopicPrefix: prefix, mqttRequestTimeoutMs: 300 },
  });
  const fleet = await startFleet({
    ...PLAN,
    seed: SEED,
    gateway: gateway.address(),
    mqttUrl: url,
    mqttTopicPrefix: prefix,
    mqttConnect: connect,
    replyDelayMs: 5,
    valveTravelMs: 20,
  });
  try {
    await waitUntil(() => gateway.stats().collectorsOnline === 4, 5_000, "DTU and three MQTT collectors");
    if (hostile) {
      hostile();
      await waitUntil(() => gateway.stats().mqttMessagesDropped >= 4, 2_000, "hostile messages dropped");
    }
    const run = async (meterId: string, action: Parameters<typeof commands.enqueue>[1]) =>
      commands.waitFor(commands.enqueue(meterId, action).id, ["success", "fail", "timeout"], 5_000);

    const trip = await run("meter-201000000003", { kind: "relay", action: "trip" });
    assert.equal(trip.state, "success");
    assert.equal((fleet.meter("201000000003") as ElectricMeter).relayOpen, true);

    fleet.injectFault("201000000004", "noReply");
    const reconciled = await run("meter-201000000004", { kind: "relay", action: "trip" });
    assert.deepEqual(
      reconciled.history.map((h) => h.state),
      ["sent", "success"],
    );
    assert.equal((fleet.meter("201000000004") as ElectricMeter).counters.relayOps, 1);

    const valve = await run("meter-78330000000000", { kind: "valve", action: "close" });
    assert.equal(valve.state, "success");
    assert.equal((fleet.meter("78330000000000") as WaterMeter).valve, "closed");

    gateway.pollNow(["meter-201000000004", "meter-78330000000000"]);
    await waitUntil(() => gateway.stats().pollsCompleted >= 2, 5_000, "MQTT polls");
    assert.equal(readings.latest("meter-201000000004")?.relay, "open");
    assert.equal(readings.latest("meter-78330000000000")?.valve, "closed");
  } finally {
    await fleet.close();
    await gateway.close();
  }
}

describe("MQTT transport for 4G meters", () => {
  test("commands and polls over an in-memory broker; foreign and hostile messages are dropped", async () => {
    const broker = new MemoryBroker();
    const gatewayClient = await broker.connect("memory", { clientId: "gw" });
    const prefix = "meterline-memory";
    await exercise(prefix, gatewayClient, broker.connect, "memory://", () => {
      broker.inject(`${prefix}/201000000003/up`, Buffer.alloc(2_000, 0x68)); // oversized
      broker.inject(`${prefix}/999999999999/up`, "junk"); // a meter nobody here serves
      broker.inject(`${prefix}/not-an-address/up`, "junk");
      broker.inject(`${prefix}/201000000003/status`, "maybe");
      broker.inject(`${prefix}/201000000004/up`, "no frame in here");
    });
  });

  test("the same against the local Mosquitto broker", async (t) => {
    const reachable = await new Promise<boolean>((resolve) => {
      const socket = createConnection({ host: "127.0.0.1", port: 1883 }, () => {
        socket.destroy();
        resolve(true);
      });
      socket.on("error", () => resolve(false));
    });
    if (!reachable) return t.skip(`no MQTT broker at ${BROKER}`);
    let client: MqttClientPort;
    try {
      client = await connectMqtt(BROKER, { clientId: `test-gateway-${process.pid}` });
    } catch (error) {
      if (error instanceof MqttUnavailable) return t.skip(error.message);
      throw error;
    }
    try {
      await exercise(`meterline-test-${process.pid}`, client, connectMqtt, BROKER);
    } finally {
      await client.end();
    }
  });
});
