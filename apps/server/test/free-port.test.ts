import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { test } from "node:test";
import { freePort } from "../../../scripts/free-port.mjs";

const listen = (port: number) =>
  new Promise<Server>((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve(server));
  });

test("a free port is drawn below the kernel's range for outgoing connections, and can be listened on", async () => {
  const [low] = readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8")
    .trim()
    .split(/\s+/)
    .map(Number);
  const ports = new Set<number>();
  const held: Server[] = [];
  try {
    for (let i = 0; i < 20; i++) {
      const port = await freePort();
      assert.ok(port >= 10000 && port < low!, `${port} lies in [10000, ${low})`);
      ports.add(port);
      // Held while the next are drawn: none is handed out twice while it is in use.
      held.push(await listen(port));
    }
    assert.equal(ports.size, 20);
  } finally {
    await Promise.all(held.map((server) => new Promise((resolve) => server.close(resolve))));
  }
});
