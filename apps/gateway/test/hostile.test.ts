import assert from "node:assert/strict";
import net from "node:net";
import { after, before, describe, test } from "node:test";
import { dlt645 } from "@meterline/protocols";
import { type Rig, startRig, waitUntil } from "./harness.ts";

/** A raw TCP client playing a hostile or broken DTU. */
function dial(port: number): Promise<{ socket: net.Socket; closed: Promise<void> }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: "127.0.0.1", port });
    const closed = new Promise<void>((done) => socket.on("close", () => done()));
    socket.on("error", () => {});
    socket.once("connect", () => resolve({ socket, closed }));
    socket.once("error", reject);
  });
}

/** The secret of the hand-driven collectors. */
const SECRET = "hostile-test-secret";

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("hostile input is bounded while a well-behaved DTU keeps being served", () => {
  let rig: Rig;
  let port: number;
  const goodMeter = "meter-201000000000";

  before(async () => {
    rig = await startRig(
      { meters: 4, dtus: 1, waterRatio: 0, seed: "hostile", pollIntervalMs: 0 },
      {
        maxPendingPerIp: 20,
        maxGarbageBytes: 1024,
        maxRegistrationBytes: 64,
        maxConnectionsPerIp: 200,
        heartbeatIntervalMs: 400,
      },
    );
    port = rig.gateway.address().port;
    // Collectors known to the directory but driven by hand in these tests.
    const extra = ["HOSTILE1", "HOSTILE2", "HOSTILE3"].map((collectorId, i) => ({
      id: `hostile-${i}`,
      address: String(301_000_000_000 + i),
      protocol: "dlt645-2007" as const,
      transport: "tcp" as const,
      collectorId,
      channel: 1,
      model: {},
      pollIntervalMs: 0,
    }));
    rig.directory.replace([...rig.directory.all(), ...extra]);
    for (const { collectorId } of extra) rig.directory.setCredentials(collectorId, { secret: SECRET });
  });
  after(async () => {
    await rig.close();
  });

  async function goodDtuStillServes(): Promise<void> {
    const command = rig.commands.enqueue(goodMeter, { kind: "read", di: "00010000" });
    const done = await rig.commands.waitFor(command.id, ["success", "fail", "timeout"], 5_000);
    assert.equal(done.state, "success");
  }

  test("garbage after registration: skipped, then the session is cut", async () => {
    const { socket, closed } = await dial(port);
    socket.write(`REG:HOSTILE1,${SECRET}\n`);
    await waitUntil(() => rig.gateway.collectors().includes("HOSTILE1"), 2_000, "HOSTILE1 online");
    const junk = Buffer.alloc(600, 0x5a);
    socket.write(junk);
    await pause(50);
    assert.equal(socket.destroyed, false, "a little noise is tolerated");
    socket.write(junk);
    await closed;
    assert.equal(rig.gateway.stats().closed["too much garbage"], 1);
    await goodDtuStillServes();
  });

  test("an oversized frame is never buffered past the frame limit", async () => {
    const { socket, closed } = await dial(port);
    socket.write(`REG:HOSTILE2,${SECRET}\n`);
    await waitUntil(() => rig.gateway.collectors().includes("HOSTILE2"), 2_000, "HOSTILE2 online");
    const garbageBefore = rig.gateway.stats().garbageBytes;
    // A header announcing L = 255 (267 bytes, over the 212-byte limit), then its bytes.
    const header = Buffer.from([0x68, 0x01, 0, 0, 0, 0, 0, 0x68, 0x91, 0xff]);
    socket.write(Buffer.concat([header, Buffer.alloc(257, 0x33)]));
    await waitUntil(
      () => rig.gateway.stats().garbageBytes - garbageBefore >= 267,
      2_000,
      "oversized frame dropped",
    );
    // A well-formed reply afterwards still parses (nobody asked for it, so it is unexpected).
    const unexpected = rig.gateway.stats().unexpectedFrames;
    socket.write(dlt645.buildReadReply("301000000001", "00010000", ["1.00"]));
    await waitUntil(
      () => rig.gateway.stats().unexpectedFrames > unexpected,
      2_000,
      "frame after the oversize one",
    );
    socket.destroy();
    await closed;
    await goodDtuStillServes();
  });

  test("a slow registration and a silent connection are closed by their timers", async () => {
    const slow = await dial(port);
    for (const byte of "REG:HOST") {
      if (slow.socket.destroyed) break;
      slow.socket.write(byte);
      await pause(60);
    }
    const silent = await dial(port);
    await Promise.all([slow.closed, silent.closed]);
    assert.ok((rig.gateway.stats().rejected["registration timeout"] ?? 0) >= 2);
  });

  test("a half-open registered session goes offline after missed heartbeats", async () => {
    const { socket, closed } = await dial(port);
    socket.write(`REG:HOSTILE3,${SECRET}\n`);
    await waitUntil(() => rig.gateway.collectors().includes("HOSTILE3"), 2_000, "HOSTILE3 online");
    await closed; // we never send another byte
    assert.equal(rig.gateway.stats().closed["offline: heartbeats missed"], 1);
    await waitUntil(() => !rig.gateway.collectors().includes("HOSTILE3"), 2_000, "HOSTILE3 offline");
  });

  test("malformed and overlong registrations are refused", async () => {
    const bad = await dial(port);
    bad.socket.write("HELLO\n");
    const long = await dial(port);
    long.socket.write(`REG:${"X".repeat(100)}`);
    const unknown = await dial(port);
    unknown.socket.write(`REG:NOBODY,${SECRET}\n`);
    await Promise.all([bad.closed, long.closed, unknown.closed]);
    const rejected = rig.gateway.stats().rejected;
    assert.equal(rejected["registration prefix mismatch"], 1);
    assert.equal(rejected["registration id too long or unterminated"], 1);
    assert.equal(rejected["unknown collector"], 1);
  });

  test("a registration flood is capped per IP and the good DTU is served throughout", async () => {
    const flood = await Promise.all(Array.from({ length: 60 }, () => dial(port).catch(() => undefined)));
    // A dial resolves when the kernel accepts; the gateway counts each refusal as it gets to it.
    await waitUntil(
      () => (rig.gateway.stats().rejected["max-pending-per-ip"] ?? 0) >= 40,
      2_000,
      JSON.stringify(rig.gateway.stats().rejected),
    );
    const serving = goodDtuStillServes();
    const stats = rig.gateway.stats();
    assert.ok(stats.connections.pending <= 20);
    await serving;
    await Promise.all(flood.map((client) => client?.closed));
    assert.equal(rig.gateway.stats().connections.pending, 0);
    assert.ok(rig.gateway.collectors().includes("DTU00001"));
    assert.equal(rig.fleet.stats().collisions, 0);
  });
});
