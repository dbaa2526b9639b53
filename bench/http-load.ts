/**
 * The load side of the page benchmark, run as a child process so its CPU is not the servers': told
 * over IPC an origin, a path and a number of connections, it keeps each keep-alive connection busy
 * with one request after another for the given time, and answers every latency, the rate and how
 * many answers were not 200.
 */
import http from "node:http";

export interface LoadRequest {
  type: "load";
  origin: string;
  path: string;
  headers: Record<string, string>;
  connections: number;
  durationMs: number;
}
export interface LoadResult {
  type: "result";
  /** Milliseconds of each request, in the order they ended. */
  latencies: number[];
  wallMs: number;
  failed: number;
  /** One answer's body, for the parent to check what was served. */
  sample: string;
}

function get(agent: http.Agent, url: URL, headers: Record<string, string>) {
  const start = performance.now();
  return new Promise<{ status: number; ms: number; body: string }>((resolve) => {
    const req = http.get(url, { agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () =>
        resolve({
          status: res.statusCode ?? 0,
          ms: performance.now() - start,
          body: Buffer.concat(chunks).toString("utf8"),
        }),
      );
    });
    req.on("error", (error) => resolve({ status: 0, ms: performance.now() - start, body: error.message }));
  });
}

async function load(request: LoadRequest): Promise<LoadResult> {
  // One socket per connection: each loop below waits for its answer before asking again.
  const agent = new http.Agent({ keepAlive: true, maxSockets: request.connections });
  const url = new URL(request.path, request.origin);
  const latencies: number[] = [];
  let failed = 0;
  let sample = "";
  const start = performance.now();
  const end = start + request.durationMs;
  const loop = async () => {
    while (performance.now() < end) {
      const answer = await get(agent, url, request.headers);
      latencies.push(answer.ms);
      if (answer.status !== 200) failed++;
      sample ||= answer.body;
    }
  };
  await Promise.all(Array.from({ length: request.connections }, loop));
  const wallMs = performance.now() - start;
  agent.destroy();
  return { type: "result", latencies, wallMs, failed, sample };
}

process.on("message", async (message: LoadRequest | { type: "exit" }) => {
  if (message.type === "exit") process.exit(0);
  process.send?.(await load(message));
});
process.send?.({ type: "ready" });
