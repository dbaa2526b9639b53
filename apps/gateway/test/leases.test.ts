import assert from "node:assert/strict";
import net from "node:net";
import { test } from "node:test";
import {
  type LeaseStore,
  MemoryLeaseStore,
  MemoryMeterDirectory,
  silentLogger,
  startGateway,
} from "@meterline/gateway";
import { FAST, waitUntil } from "./harness.ts";

function register(port: number, id: string): { socket: net.Socket; closed: Promise<void> } {
  const socket = net.connect({ host: "127.0.0.1", port }, () =>
    socket.write(`REG:${id},lease-test-secret\n`),
  );
  socket.on("error", () => {});
  return { socket, closed: new Promise((resolve) => socket.on("close", () => resolve())) };
}

test("two gateways share collectors through leases; a dead gateway's lease expires", async () => {
  const shared = new MemoryLeaseStore();
  // Gateway A "dies": its leases are never released, only left to expire.
  const crashing: LeaseStore = {
    acquire: (...args) => shared.acquire(...args),
    renew: (...args) => shared.renew(...args),
    release: async () => {},
    close: async () => {},
  };
  const directory = new MemoryMeterDirectory([
    {
      id: "m1",
      address: "201000000001",
      protocol: "dlt645-2007",
      transport: "tcp",
      collectorId: "DTU1",
      channel: 1,
      model: {},
      pollIntervalMs: 0,
    },
  ]);
  directory.setCredentials("DTU1", { secret: "lease-test-secret" });
  const settings = { ...FAST, heartbeatIntervalMs: 10_000 };
  const a = await startGateway({ directory, leases: crashing, logger: silentLogger, settings, owner: "A" });
  const b = await startGateway({ directory, leases: shared, logger: silentLogger, settings, owner: "B" });
  try {
    const onA = register(a.address().port, "DTU1");
    await waitUntil(() => a.collectors().includes("DTU1"), 2_000, "DTU1 on A");
    assert.equal(shared.ownerOf("DTU1"), "A");

    const onB = register(b.address().port, "DTU1");
    await onB.closed;
    assert.equal(b.stats().rejected["lease held by another gateway"], 1);

    await a.close();
    await onA.closed;
    assert.equal(shared.ownerOf("DTU1"), "A", "not released: A died");
    await waitUntil(() => shared.ownerOf("DTU1") === undefined, 2_000, "A's lease to expire");

    const again = register(b.address().port, "DTU1");
    await waitUntil(() => b.collectors().includes("DTU1"), 2_000, "DTU1 on B");
    assert.equal(shared.ownerOf("DTU1"), "B");
    again.socket.destroy();
    await waitUntil(() => shared.ownerOf("DTU1") === undefined, 2_000, "B to release on disconnect");
  } finally {
    await a.close();
    await b.close();
  }
});
