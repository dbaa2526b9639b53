/**
 * The client side of the HTTP benchmarks, run as a child process so its CPU is not the server's:
 * it receives a burst of requests over IPC, sends them all at once on keep-alive connections (one
 * per request in flight), and answers each one's status, latency and answer body.
 */
import http from "node:http";

export interface BurstRequest {
  method: "GET" | "POST";
  path: string;
  body?: unknown;
}
export interface Burst {
  type: "burst";
  origin: string;
  headers: Record<string, string>;
  requests: BurstRequest[];
}
export interface BurstAnswer {
  status: number;
  ms: number;
  body: string;
}
export interface BurstResult {
  type: "result";
  wallMs: number;
  answers: BurstAnswer[];
}

const agent = new http.Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY });

function send(origin: string, headers: Record<string, string>, request: BurstRequest): Promise<BurstAnswer> {
  const payload = request.body === undefined ? undefined : JSON.stringify(request.body);
  const start = performance.now();
  return new Promise((resolve) => {
    const req = http.request(
      new URL(request.path, origin),
      {
        method: request.method,
        agent,
        headers: {
          ...headers,
          ...(payload === undefined
            ? {}
            : { "content-type": "application/json", "content-length": String(Buffer.byteLength(payload)) }),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            ms: performance.now() - start,
            body: Buffer.concat(chunks).toString("utf8"),
          }),
        );
      },
    );
    // A failed connection is an answer too (status 0): the parent decides what it means.
    req.on("error", (error) => resolve({ status: 0, ms: performance.now() - start, body: error.message }));
    req.end(payload);
  });
}

process.on("message", async (message: Burst | { type: "exit" }) => {
  if (message.type === "exit") {
    agent.destroy();
    process.exit(0);
  }
  const start = performance.now();
  const answers = await Promise.all(message.requests.map((r) => send(message.origin, message.headers, r)));
  const result: BurstResult = { type: "result", wallMs: performance.now() - start, answers };
  process.send?.(result);
});
process.send?.({ type: "ready" });
