import assert from "node:assert/strict";
import net from "node:net";
import { after, before, describe, test } from "node:test";
import { plannedSecret } from "@meterline/simulator";
import { type Rig, startRig, waitUntil } from "./harness.ts";

/** A raw TCP client: what it sent, everything the gateway ever wrote to it, and when it was cut. */
interface Client {
  socket: net.Socket;
  received: Buffer[];
  closed: Promise<void>;
  isClosed: () => boolean;
}

function dial(port: number, packet: string): Promise<Client> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: "127.0.0.1", port });
    const received: Buffer[] = [];
    let done = false;
    const closed = new Promise<void>((settle) =>
      socket.on("close", () => {
        done = true;
        settle();
      }),
    );
    socket.on("data", (chunk: Buffer) => received.push(chunk));
    socket.on("error", () => {});
    socket.once("connect", () => {
      socket.write(packet);
      resolve({ socket, received, closed, isClosed: () => done });
    });
    socket.once("error", reject);
  });
}

const LIVE = "DTU00001";
const METER = "meter-201000000000";

describe("DTUs prove their collector's secret before the gateway sends them anything", () => {
  let rig: Rig;
  let port: number;
  before(async () => {
    rig = await startRig({ meters: 2, dtus: 1, waterRatio: 0, seed: "dtu-auth", pollIntervalMs: 0 });
    port = rig.gateway.address().port;
  });
  after(async () => {
    await rig.close();
  });

  for (const [what, packet] of [
    ["a wrong secret", `REG:${LIVE},not-the-secret-at-all\n`],
    ["an empty secret", `REG:${LIVE},\n`],
    ["no secret", `REG:${LIVE}\n`],
  ] as const) {
    test(`an impostor with the live DTU's id and ${what} gets nothing and displaces nothing`, async () => {
      const registrations = rig.gateway.stats().registrations;
      const impostor = await dial(port, packet);
      // Refused, or (had it been let in) registered: either way the gateway has decided.
      await waitUntil(
        () => impostor.isClosed() || rig.gateway.stats().registrations > registrations,
        3_000,
        "the gateway to decide on the impostor",
      );
      // A relay command queued now goes to whoever holds the collector: it must be the live DTU.
      const command = rig.commands.enqueue(METER, { kind: "relay", action: "trip" });
      const done = await rig.commands.waitFor(command.id, ["success", "fail", "timeout"], 5_000);
      assert.equal(done.state, "success", JSON.stringify(done.history));
      await impostor.closed;
      assert.deepEqual(Buffer.concat(impostor.received), Buffer.alloc(0), "not one byte to the impostor");
      assert.equal(rig.fleet.dtu(LIVE)!.stats.connects, 1, "the live DTU was never cut off");
      assert.equal(rig.gateway.stats().closed["replaced by a new session"], undefined);
      assert.deepEqual(rig.gateway.collectors(), [LIVE]);
      // Close it again for the next round.
      const back = rig.commands.enqueue(METER, { kind: "relay", action: "close-direct" });
      assert.equal(
        (await rig.commands.waitFor(back.id, ["success", "fail", "timeout"], 5_000)).state,
        "success",
      );
    });
  }

  test("a wrong secret is dropped and counted", async () => {
    const before = rig.gateway.stats().rejected["bad secret"] ?? 0;
    const impostor = await dial(port, `REG:${LIVE},${plannedSecret(rig.fleet.plan, LIVE)}x\n`);
    await impostor.closed;
    assert.equal(rig.gateway.stats().rejected["bad secret"], before + 1);
    assert.equal(rig.gateway.stats().connections.pending, 0);
  });

  test("the right secret from outside the collector's allowed networks is refused; from inside, served", async () => {
    const meter = { ...rig.directory.get(METER)!, id: "fenced-meter", collectorId: "FENCED" };
    rig.directory.replace([...rig.directory.all(), { ...meter, address: "201000000099" }]);
    rig.directory.setCredentials("FENCED", { secret: "fenced-secret", allowedNetworks: ["10.0.0.0/8"] });
    const outside = await dial(port, "REG:FENCED,fenced-secret\n");
    await outside.closed;
    assert.equal(rig.gateway.stats().rejected["source network not allowed"], 1);
    assert.equal(Buffer.concat(outside.received).length, 0);

    rig.directory.setCredentials("FENCED", {
      secret: "fenced-secret",
      allowedNetworks: ["10.0.0.0/8", "127.0.0.0/8"],
    });
    const inside = await dial(port, "REG:FENCED,fenced-secret\n");
    await waitUntil(() => rig.gateway.collectors().includes("FENCED"), 3_000, "FENCED online");
    inside.socket.destroy();
    await inside.closed;
  });

  test("a collector without a secret is refused even when its id is known", async () => {
    rig.directory.setCredentials("FENCED", {});
    const client = await dial(port, "REG:FENCED,anything-at-all\n");
    await client.closed;
    assert.equal(rig.gateway.stats().rejected["collector has no secret"], 1);
  });
});
