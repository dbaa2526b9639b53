import assert from "node:assert/strict";
import net from "node:net";
import { after, describe, test } from "node:test";
import { dlt645 } from "@meterline/protocols";
import { type FleetHandle, planFleet, startFleet } from "@meterline/simulator";

/** A bare TCP listener standing in for a gateway: it keeps each DTU's socket by its registration id. */
async function listener() {
  const sockets = new Map<string, net.Socket>();
  const replies: Buffer[] = [];
  const server = net.createServer((socket) => {
    socket.once("data", (chunk) => {
      const id = /^REG:([^,]+),/.exec(chunk.toString())?.[1];
      if (id) sockets.set(id, socket);
      socket.on("data", (more) => replies.push(more));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  return { port, sockets, replies, close: () => new Promise((resolve) => server.close(resolve)) };
}

const until = async (done: () => boolean) => {
  for (let i = 0; i < 100 && !done(); i++) await new Promise((resolve) => setTimeout(resolve, 20));
  assert.ok(done());
};

describe("a fleet on several gateways", () => {
  let fleet: FleetHandle | undefined;
  const servers: Awaited<ReturnType<typeof listener>>[] = [];
  after(async () => {
    await fleet?.close();
    for (const server of servers) {
      for (const socket of server.sockets.values()) socket.destroy();
      await server.close();
    }
  });

  test("DTU i dials gateway i mod n; answered readings are counted; a quiesced fleet answers nothing more", async () => {
    servers.push(await listener(), await listener());
    const [a, b] = servers as [Awaited<ReturnType<typeof listener>>, Awaited<ReturnType<typeof listener>>];
    const options = { meters: 8, dtus: 4, waterRatio: 0, prepaidRatio: 0, seed: "split" };
    fleet = await startFleet({
      ...options,
      gateways: [a, b].map((server) => ({ host: "127.0.0.1", port: server.port })),
      replyDelayMs: 5,
    });
    const plan = planFleet(options);
    await until(() => a.sockets.size + b.sockets.size === 4);
    assert.deepEqual([...a.sockets.keys()].sort(), [plan.dtuIds[0], plan.dtuIds[2]]);
    assert.deepEqual([...b.sockets.keys()].sort(), [plan.dtuIds[1], plan.dtuIds[3]]);

    const meter = plan.meters.find((m) => m.collectorId === plan.dtuIds[1])!;
    const read = dlt645.buildRead(meter.address, dlt645.DI.FORWARD_ENERGY_BLOCK);
    b.sockets.get(plan.dtuIds[1]!)!.write(read);
    await until(() => b.replies.length === 1);
    const simulated = fleet.meter(meter.address)!;
    assert.equal(simulated.kind === "electric" && simulated.counters.energyReads, 1);

    fleet.quiesce();
    b.sockets.get(plan.dtuIds[1]!)!.write(read);
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(b.replies.length, 1, "no reply after quiesce");
    assert.equal(simulated.kind === "electric" && simulated.counters.energyReads, 1);
    assert.equal(fleet.stats().dtusOnline, 4, "the DTUs stay connected");
  });
});
