import assert from "node:assert/strict";
import net from "node:net";
import { test } from "node:test";
import {
  type LeaseStore,
  MemoryCommandQueue,
  MemoryLeaseStore,
  MemoryMeterDirectory,
  silentLogger,
  startGateway,
} from "@meterline/gateway";
import { freePort } from "../../../scripts/free-port.mjs";
import { HANDED_OVER } from "../src/lease/balancer.ts";
import { FAST, waitUntil } from "./harness.ts";
import { TcpBalancer } from "./tcp-balancer.ts";

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

function directoryOf(ids: readonly string[]): MemoryMeterDirectory {
  const directory = new MemoryMeterDirectory(
    ids.map((id, i) => ({
      id: `m${i}`,
      address: `2010000000${String(i).padStart(2, "0")}`,
      protocol: "dlt645-2007" as const,
      transport: "tcp" as const,
      collectorId: id,
      channel: 1,
      model: {},
      pollIntervalMs: 0,
    })),
  );
  for (const id of ids) directory.setCredentials(id, { secret: "lease-test-secret" });
  return directory;
}

test("a DTU that proves itself at another gateway takes its collector over from a stale session", async () => {
  const shared = new MemoryLeaseStore();
  const directory = directoryOf(["DTU1"]);
  // A session that died without a FIN would only end after 3 × 10 s of silence here.
  const settings = { ...FAST, heartbeatIntervalMs: 10_000, takeoverWaitMs: 3_000, rebalanceIntervalMs: 0 };
  const a = await startGateway({ directory, leases: shared, logger: silentLogger, settings, owner: "A" });
  const b = await startGateway({ directory, leases: shared, logger: silentLogger, settings, owner: "B" });
  try {
    const stale = register(a.address().port, "DTU1");
    await waitUntil(() => a.collectors().includes("DTU1"), 2_000, "DTU1 on A");

    // Someone without the secret claims the id at B: it displaces nothing.
    const impostor = net.connect({ host: "127.0.0.1", port: b.address().port }, () =>
      impostor.write("REG:DTU1,not-the-secret\n"),
    );
    impostor.on("error", () => {});
    await new Promise((resolve) => impostor.on("close", resolve));
    assert.equal(shared.ownerOf("DTU1"), "A");
    assert.ok(a.collectors().includes("DTU1"));

    // The DTU itself redials through the balancer and lands on B.
    const started = Date.now();
    const fresh = register(b.address().port, "DTU1");
    await waitUntil(() => b.collectors().includes("DTU1"), 2_000, "DTU1 taken over by B");
    assert.ok(Date.now() - started < 2_000);
    assert.equal(shared.ownerOf("DTU1"), "B");
    assert.ok(!a.collectors().includes("DTU1"), "A dropped its stale session");
    await stale.closed;
    assert.equal(a.stats().closed["taken over by another gateway"], 1);
    fresh.socket.destroy();
  } finally {
    await a.close();
    await b.close();
  }
});

test("an overloaded gateway hands idle collectors to one that joins, through the balancer", async () => {
  const shared = new MemoryLeaseStore();
  const ids = ["D1", "D2", "D3", "D4", "D5", "D6"];
  const directory = directoryOf(ids);
  const commands = new MemoryCommandQueue((meterId) => directory.collectorOf(meterId));
  const settings = { ...FAST, heartbeatIntervalMs: 10_000, rebalanceIntervalMs: 300, rebalanceBatch: 2 };
  const a = await startGateway({
    directory,
    commands,
    leases: shared,
    logger: silentLogger,
    settings,
    owner: "A",
  });
  // B's port is known before it starts: the balancer skips it while nothing listens there.
  const bPort = await freePort();
  const balancer = new TcpBalancer([a.address(), { host: "127.0.0.1", port: bPort }]);
  const front = await balancer.listen();
  const dtus = ids.map((id) => redialling(front.port, id));
  let b: Awaited<ReturnType<typeof startGateway>> | undefined;
  try {
    await waitUntil(() => a.collectors().length === 6, 3_000, "all DTUs on A");
    // A cut on D1's meter that these bare DTUs never answer: its outcome stays open, to be read
    // back on D1, so D1 is not one to hand over.
    const cut = commands.enqueue("m0", { kind: "relay", action: "trip" });
    await waitUntil(() => commands.get(cut.id)?.state === "timeout", 3_000, "the cut's outcome open");
    b = await startGateway({
      directory,
      commands,
      leases: shared,
      logger: silentLogger,
      settings: { ...settings, port: bPort },
      owner: "B",
    });
    await waitUntil(() => b!.collectors().length === 3 && a.collectors().length === 3, 5_000, "a fair share");
    const onBoth = a.collectors().filter((id) => b!.collectors().includes(id));
    assert.deepEqual(onBoth, [], "no collector is served by both");
    assert.ok(a.collectors().includes("D1"), "the collector with an open command stays");
    assert.ok((a.stats().closed[HANDED_OVER] ?? 0) >= 3);
  } finally {
    for (const dtu of dtus) dtu.stop();
    await balancer.close();
    await a.close();
    await b?.close();
  }
});

test("collectors handed to a gateway that then stops are taken back at once, not at the next round", async () => {
  const shared = new MemoryLeaseStore();
  const ids = ["D1", "D2", "D3", "D4"];
  const directory = directoryOf(ids);
  // Rounds every 5 s (a third of the lease lifetime): A counts the gateways again only then, and
  // refuses what it handed away for two rounds while it believes B alive.
  const settings = {
    ...FAST,
    heartbeatIntervalMs: 10_000,
    leaseTtlMs: 15_000,
    rebalanceIntervalMs: 5_000,
    rebalanceBatch: 2,
  };
  const a = await startGateway({ directory, leases: shared, logger: silentLogger, settings, owner: "A" });
  const bPort = await freePort();
  const balancer = new TcpBalancer([a.address(), { host: "127.0.0.1", port: bPort }]);
  const front = await balancer.listen();
  const dtus = ids.map((id) => redialling(front.port, id));
  let b: Awaited<ReturnType<typeof startGateway>> | undefined;
  try {
    await waitUntil(() => a.collectors().length === 4, 3_000, "all DTUs on A");
    b = await startGateway({
      directory,
      leases: shared,
      logger: silentLogger,
      settings: { ...settings, port: bPort },
      owner: "B",
    });
    await waitUntil(() => b!.collectors().length === 2, 12_000, "B's share handed over by A");
    const stoppedAt = Date.now();
    await b.close();
    await waitUntil(() => a.collectors().length === 4, 4_000, "A holding every collector again");
    // Before this, A refused them until its next round counted B gone (up to 5 s here).
    assert.ok(Date.now() - stoppedAt < 2_000, `taken back ${Date.now() - stoppedAt} ms after B stopped`);
  } finally {
    for (const dtu of dtus) dtu.stop();
    await balancer.close();
    await a.close();
    await b?.close();
  }
});

/** A bare DTU that registers and redials 50 ms after any close. */
function redialling(port: number, id: string): { stop(): void } {
  let stopped = false;
  let socket: net.Socket | undefined;
  const dial = () => {
    if (stopped) return;
    socket = net.connect({ host: "127.0.0.1", port }, () => socket!.write(`REG:${id},lease-test-secret\n`));
    socket.on("error", () => {});
    socket.on("close", () => setTimeout(dial, 50));
  };
  dial();
  return {
    stop() {
      stopped = true;
      socket?.destroy();
    },
  };
}
