// A free TCP port on 127.0.0.1 for a process to be started on (a test's or a bench's server).
//
// Asking the kernel for port 0 and handing the number on leaves a window between the probe's close
// and the new process's bind, and the kernel gives outgoing connections (database clients, the
// browser, fetch) ports from the very same range: on a busy run one of them took a port a browser
// suite had just been given, and its server could not start. So the port is drawn at random from
// below that range, where the kernel never hands out a port on its own, and probed; only parallel
// callers drawing the same one of thousands could still meet, and e2e/harness.ts starts again then.
import { readFileSync } from "node:fs";
import { createServer } from "node:net";

/** The lowest port the kernel gives outgoing connections (Linux; 32768 elsewhere, its default). */
function ephemeralLow() {
  try {
    const [low] = readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/);
    const port = Number(low);
    return Number.isInteger(port) && port > 0 ? port : 32768;
  } catch {
    return 32768;
  }
}

/** Whether `port` can be listened on at 127.0.0.1 now (0: any; answers the port bound, or 0). */
function probe(port) {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(0));
    server.listen(port, "127.0.0.1", () => {
      const address = server.address();
      const bound = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(bound));
    });
  });
}

/** A free port below the kernel's range for outgoing connections, else one the kernel picks. */
export async function freePort() {
  const top = ephemeralLow();
  // Ports under 10000 are left to services a machine runs (PostgreSQL's 5432, Redis, brokers).
  const bottom = 10000;
  if (top - bottom >= 1000) {
    for (let attempt = 0; attempt < 50; attempt++) {
      const port = bottom + Math.floor(Math.random() * (top - bottom));
      if ((await probe(port)) === port) return port;
    }
  }
  const port = await probe(0);
  if (port === 0) throw new Error("no free TCP port on 127.0.0.1");
  return port;
}
