import assert from "node:assert/strict";
import net from "node:net";
import { describe, test } from "node:test";
import { parseDirectory, parseTemplate } from "@meterline/gateway";
import { dlt645, FrameSplitter } from "@meterline/protocols";
import {
  CARRIER_PORT,
  createRandom,
  DEFAULT_SLOTS,
  ElectricMeter,
  FaultPlan,
  fleetCollectors,
  fleetDirectory,
  MeterBus,
  planFleet,
  SimulatedDtu,
  scaledClock,
} from "@meterline/simulator";

describe("fleet plan", () => {
  test("with concentrators, collectors are named by area and terminal, meters sit on the carrier port", () => {
    const plan = planFleet({ meters: 20, dtus: 11, waterRatio: 0, concentrators: true, seed: "c" });
    assert.deepEqual([plan.dtuIds[0], plan.dtuIds[9], plan.dtuIds[10]], ["34010001", "3401000A", "3401000B"]);
    assert.ok(fleetDirectory(plan).every((meter) => meter.channel === CARRIER_PORT));
    for (const collector of fleetCollectors(plan))
      assert.match(collector.secret ?? "", /^[0-9a-f]{32}$/, "a 16-byte 1376.1 password");
    const dtus = planFleet({ meters: 20, dtus: 2, waterRatio: 0, seed: "c" });
    assert.ok(fleetDirectory(dtus).every((meter) => meter.channel === 1));
  });

  test("the same seed plans the same fleet; ratios are exact; the directory is valid for the gateway", () => {
    const options = {
      meters: 1000,
      dtus: 100,
      waterRatio: 0.3,
      prepaidRatio: 0.5,
      mqttMeters: 10,
      clockDriftRatio: 0.1,
      rolloverRatio: 0.05,
      seed: "p",
    };
    const plan = planFleet(options);
    assert.deepEqual(planFleet(options), plan);
    assert.equal(plan.meters.filter((m) => m.kind === "water").length, 300);
    assert.equal(plan.meters.filter((m) => m.localPrepaid).length, 350);
    assert.equal(plan.meters.filter((m) => m.transport === "mqtt").length, 10);
    assert.equal(new Set(plan.meters.map((m) => m.address)).size, 1000);
    const perDtu = new Map<string, number>();
    for (const m of plan.meters)
      if (m.transport === "tcp") perDtu.set(m.collectorId, (perDtu.get(m.collectorId) ?? 0) + 1);
    assert.equal(perDtu.size, 100);
    assert.ok([...perDtu.values()].every((n) => n >= 9 && n <= 10));
    const drift = plan.meters.filter((m) => m.clockDriftMs !== 0);
    assert.ok(
      drift.length > 50 && drift.length < 150 && drift.every((m) => Math.abs(m.clockDriftMs) <= 30 * 60_000),
    );
    assert.equal(parseDirectory(JSON.parse(JSON.stringify(fleetDirectory(plan)))).length, 1000);
  });
});

describe("simulated DTU", () => {
  test("registers, forwards to its bus, answers after the reply delay, and notices a master that overlaps requests", async () => {
    let server!: net.Server;
    let registration = "";
    const gotReplies = new Promise<void>((done) => {
      server = net.createServer((socket) => {
        const splitter = new FrameSplitter({ protocol: "auto" });
        let replies = 0;
        socket.once("data", (chunk) => {
          registration = chunk.toString("latin1");
          // Two requests back to back: a well-behaved master never does this.
          socket.write(dlt645.buildRead("201000000001", "00010000"));
          socket.write(dlt645.buildRead("201000000001", "04000503"));
          socket.on("data", (more) => {
            replies += splitter.push(more).length;
            if (replies === 2) done();
          });
        });
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as net.AddressInfo).port;
    const meter = new ElectricMeter({
      address: "201000000001",
      version: "2007",
      localPrepaid: false,
      profile: { mean: 100, seed: "d" },
      slots: DEFAULT_SLOTS,
      localOffsetMs: 0,
    });
    const bus = new MeterBus([{ meter, faults: new FaultPlan({}, createRandom("d")) }], {
      replyDelayMs: 20,
      lateReplyMs: 100,
    });
    const dtu = new SimulatedDtu(
      "DTU7",
      bus,
      {
        host: "127.0.0.1",
        port,
        registration: parseTemplate("REG:{id},{secret}\\n"),
        heartbeat: parseTemplate("HB\\n"),
        heartbeatIntervalMs: 60_000,
        reconnectDelayMs: 50,
      },
      scaledClock(),
      createRandom("d"),
      "secret-of-DTU7",
    );
    await dtu.connect();
    await gotReplies;
    assert.equal(registration, "REG:DTU7,secret-of-DTU7\n");
    assert.equal(dtu.stats.requests, 2);
    assert.equal(dtu.stats.collisions, 1);
    assert.equal(meter.counters.requests, 2);
    dtu.stop();
    await new Promise((resolve) => server.close(resolve));
  });
});
