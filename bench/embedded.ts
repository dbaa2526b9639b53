/**
 * The embedded database under load: the real server (compiled, as `npm start` runs it: built here
 * when apps/server/dist is missing; its own process) on a
 * file-backed PGlite with `--owners` registry owners, 20 connections of light console calls (the
 * menu routes, a filtered page of owners) while one client runs the heaviest calls in turn (the
 * unfiltered owner page with its total, the export of every owner). Prints the light calls'
 * latency with and without the heavy client (the reference, same run, same data), and the
 * server's RSS idle and at its peak during the heavy calls.
 *   tsx bench/embedded.ts [--owners 50000] [--connections 20] [--seconds 15] [--compare yes]
 *                         [--reference postgres|none]
 * `--compare yes` runs the same again with PGlite on the server's event loop (PGLITE_WORKER=0).
 * `PGLITE_PREPARED=0` in the environment sends every statement through PGlite's own query()
 * instead of the worker's prepared statements (db/pglite-prepared.ts), for comparison.
 * `--reference postgres` (the default) runs the same again on this machine's PostgreSQL server
 * (BENCH_POSTGRES_URL): what the same calls cost where the database is not in the process.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type Db, openDb } from "../apps/server/src/db/client.ts";
import { migrate } from "../apps/server/src/db/migrate.ts";
import { seed } from "../apps/server/src/db/seed.ts";
import { md5Hex } from "../apps/server/src/modules/auth/password.ts";
import { freePort } from "../scripts/free-port.mjs";
import {
  BENCH_ADMIN_PASSWORD,
  count,
  fail,
  freshDatabase,
  machine,
  percentile,
  settings,
} from "./money-common.ts";

const options = settings({
  owners: "50000",
  connections: "20",
  seconds: "15",
  compare: "no",
  reference: "postgres",
});
const OWNERS = count(options.owners, "owners");
const CONNECTIONS = count(options.connections, "connections");
const SECONDS = count(options.seconds, "seconds");
const GOALS = { p99Ms: 100, idleMiB: 400, peakMiB: 700 };
const ROOT = fileURLToPath(new URL("..", import.meta.url));
/** The client secret of this run (production mode refuses the published one). */
const CLIENT_SECRET = randomBytes(24).toString("hex");
const BASIC = `Basic ${Buffer.from(`saber:${CLIENT_SECRET}`).toString("base64")}`;
const COMPILED = path.join(ROOT, "apps/server/dist/main.mjs");
const agent = new http.Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY });

/** A data directory migrated, seeded and holding OWNERS owners of the platform tenant. */
async function prepare(dataDir: string): Promise<void> {
  const db = await openDb({ dataDir });
  await migrate(db);
  await seed(db, { adminPassword: BENCH_ADMIN_PASSWORD });
  await insertOwners(db);
  await db.close();
}

async function insertOwners(db: Db): Promise<void> {
  await db.query(
    `insert into pms_owner (id, tenant_id, owner_name, owner_code, owner_type, phone, id_card)
     select 900000000000 + i, '000000', '业主' || i, 'YZ' || lpad(i::text, 7, '0'), 1,
            '13' || lpad(((i * 7919) % 1000000000)::text, 9, '0'), '1101051990' || lpad(i::text, 7, '0') || 'X'
       from generate_series(0, $1::int - 1) i`,
    [OWNERS],
  );
  await db.query("vacuum analyze pms_owner");
}

interface Answer {
  status: number;
  ms: number;
  bytes: number;
}

function call(
  origin: string,
  urlPath: string,
  headers: Record<string, string>,
  method = "GET",
): Promise<Answer> {
  const start = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request(new URL(urlPath, origin), { method, agent, headers }, (res) => {
      let bytes = 0;
      res.on("data", (chunk: Buffer) => {
        bytes += chunk.length;
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - start, bytes }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

const rssMiB = (pid: number) => {
  const line = readFileSync(`/proc/${pid}/status`, "utf8").match(/VmRSS:\s+(\d+) kB/);
  return line ? Number(line[1]) / 1024 : Number.NaN;
};

/** Where a measured server keeps its data: the embedded database (in a worker or not), or PostgreSQL. */
type Store = { dataDir: string; worker: boolean } | { databaseUrl: string };

function storeEnv(store: Store): Record<string, string> {
  if ("databaseUrl" in store)
    return {
      DATABASE_URL: store.databaseUrl,
      // A PostgreSQL URL means production mode: its secrets are required (made up for the run).
      JWT_SECRET: randomBytes(32).toString("hex"),
      DATA_ENCRYPTION_KEY: randomBytes(32).toString("hex"),
    };
  return { DATA_DIR: store.dataDir, PGLITE_WORKER: store.worker ? "1" : "0" };
}

async function startServer(store: Store): Promise<{ child: ChildProcess; origin: string }> {
  const port = await freePort();
  const child = spawn(process.execPath, [COMPILED], {
    cwd: ROOT,
    stdio: ["ignore", "ignore", "inherit"],
    env: {
      ...process.env,
      ...storeEnv(store),
      CLIENT_SECRET,
      PORT: String(port),
      HOST: "127.0.0.1",
      ADMIN_PASSWORD: BENCH_ADMIN_PASSWORD,
      DEMO_DATA: "false",
      GATEWAY_EMBEDDED: "false",
      LOG_LEVEL: "warn",
    },
  });
  const origin = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null) fail(`the server exited (${child.exitCode})`);
    const up = await call(origin, "/api/blade-system/menu/routes", {}).catch(() => undefined);
    if (up) return { child, origin };
    if (Date.now() > deadline) fail("the server did not answer within 180 s");
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function login(origin: string): Promise<Record<string, string>> {
  const query = new URLSearchParams({
    tenantId: "000000",
    username: "admin",
    password: md5Hex(BENCH_ADMIN_PASSWORD),
    grant_type: "password",
    scope: "all",
  });
  const res = await new Promise<string>((resolve, reject) => {
    const req = http.request(
      new URL(`/api/blade-auth/oauth/token?${query}`, origin),
      { method: "POST", agent, headers: { authorization: BASIC, "tenant-id": "000000" } },
      (answer) => {
        let body = "";
        answer.on("data", (chunk: Buffer) => {
          body += chunk;
        });
        answer.on("end", () => resolve(body));
      },
    );
    req.on("error", reject);
    req.end();
  });
  const token = (JSON.parse(res) as { access_token?: string }).access_token;
  if (!token) fail(`login failed: ${res}`);
  return { authorization: BASIC, "blade-auth": `bearer ${token}` };
}

const LIGHT = [
  "/api/blade-system/menu/routes",
  `/api/blade-pms/owner/page?current=1&size=10&ownerCode=${encodeURIComponent("YZ00123")}`,
];
const PAGE_WITH_TOTAL = "/api/blade-pms/owner/page?current=1&size=10";
const EXPORT = "/api/blade-pms/owner/export";

/** CONNECTIONS loops of light calls until `until` resolves; every latency. */
async function lightLoad(origin: string, headers: Record<string, string>, until: Promise<unknown>) {
  let done = false;
  void until.then(() => {
    done = true;
  });
  const latencies: number[] = [];
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async (_, c) => {
      for (let i = c; !done; i++) {
        const answer = await call(origin, LIGHT[i % LIGHT.length]!, headers);
        if (answer.status !== 200) fail(`light call answered ${answer.status}`);
        latencies.push(answer.ms);
      }
    }),
  );
  return latencies.sort((a, b) => a - b);
}

const figures = (sorted: number[]) =>
  `${String(sorted.length).padStart(6)} calls  p50 ${percentile(sorted, 0.5).toFixed(1).padStart(7)} ms  p99 ${percentile(sorted, 0.99).toFixed(1).padStart(7)} ms  max ${sorted.at(-1)!.toFixed(0).padStart(6)} ms`;

async function measure(label: string, store: Store) {
  console.log(`\n${label}`);
  const started = performance.now();
  const { child, origin } = await startServer(store);
  const pid = child.pid!;
  try {
    console.log(`  server answering after ${((performance.now() - started) / 1000).toFixed(1)} s`);
    const headers = await login(origin);
    for (const url of [...LIGHT, PAGE_WITH_TOTAL])
      if ((await call(origin, url, headers)).status !== 200) fail(`${url} did not answer 200`);
    await lightLoad(origin, headers, new Promise((resolve) => setTimeout(resolve, 2_000)));
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const idle = rssMiB(pid);

    const reference = await lightLoad(origin, headers, new Promise((r) => setTimeout(r, SECONDS * 1000)));
    console.log(`  light calls alone          ${figures(reference)}`);

    let peak = rssMiB(pid);
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssMiB(pid));
    }, 50);
    const heavy: { what: string; ms: number; bytes: number }[] = [];
    const heavyClient = (async () => {
      const until = performance.now() + SECONDS * 1000;
      while (heavy.length < 2 || performance.now() < until) {
        for (const [what, url] of [
          ["page with total", PAGE_WITH_TOTAL],
          ["export", EXPORT],
        ] as const) {
          const answer = await call(origin, url, headers);
          if (answer.status !== 200) fail(`${what} answered ${answer.status}`);
          heavy.push({ what, ms: answer.ms, bytes: answer.bytes });
        }
      }
    })();
    const loaded = await lightLoad(origin, headers, heavyClient);
    await heavyClient;
    clearInterval(sampler);
    const exports = heavy.filter((h) => h.what === "export");
    const pages = heavy.filter((h) => h.what !== "export");
    console.log(`  light calls beside heavy   ${figures(loaded)}`);
    const avg = (list: typeof heavy) => list.reduce((sum, h) => sum + h.ms, 0) / list.length;
    console.log(
      `  heavy client: ${exports.length} exports of ${OWNERS} rows (${(exports[0]!.bytes / 1024 / 1024).toFixed(1)} MiB, avg ${(avg(exports) / 1000).toFixed(2)} s), ${pages.length} unfiltered pages with total (avg ${avg(pages).toFixed(0)} ms)`,
    );
    const p99 = percentile(loaded, 0.99);
    const ratio = p99 / percentile(reference, 0.99);
    console.log(
      `  light p99 beside heavy ${p99.toFixed(1)} ms (goal ≤ ${GOALS.p99Ms} ms: ${p99 <= GOALS.p99Ms ? "met" : "missed"}), ${ratio.toFixed(2)}× the light-only p99`,
    );
    console.log(
      `  server RSS idle ${idle.toFixed(0)} MiB (goal < ${GOALS.idleMiB}: ${idle < GOALS.idleMiB ? "met" : "missed"}), peak during heavy ${peak.toFixed(0)} MiB (goal < ${GOALS.peakMiB}: ${peak < GOALS.peakMiB ? "met" : "missed"})`,
    );
    return { p99, lightP99: percentile(reference, 0.99), ratio, idle, peak };
  } finally {
    child.kill("SIGTERM");
    await new Promise((resolve) => child.once("exit", resolve));
  }
}

async function main() {
  if (!existsSync(COMPILED))
    execFileSync(process.execPath, [path.join(ROOT, "scripts/build-server.mjs")], { stdio: "inherit" });
  console.log(`embedded database under load: ${machine()}`);
  console.log(
    `conditions: compiled server process (apps/server/dist), file-backed PGlite (PGLITE_SHARED_BUFFERS ${process.env.PGLITE_SHARED_BUFFERS ?? "32MB"}), ${OWNERS} owners, ${CONNECTIONS} connections of light calls (${LIGHT.join(", ")}), one heavy client (${PAGE_WITH_TOTAL}, ${EXPORT}), ${SECONDS} s per phase`,
  );
  const dir = await mkdtemp(path.join(tmpdir(), "meterline-bench-embedded-"));
  try {
    const dataDir = path.join(dir, "data");
    await prepare(dataDir);
    const after = await measure("PGlite in a worker thread", { dataDir, worker: true });
    if (options.compare === "yes") {
      const before = await measure("PGlite on the event loop (PGLITE_WORKER=0)", { dataDir, worker: false });
      console.log(
        `\nworker vs event loop: light p99 beside heavy ${after.p99.toFixed(0)} vs ${before.p99.toFixed(0)} ms, RSS peak ${after.peak.toFixed(0)} vs ${before.peak.toFixed(0)} MiB`,
      );
    }
    if (options.reference === "postgres") await postgresReference(after);
  } finally {
    agent.destroy();
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * The reference: the same compiled server, calls and owners on the PostgreSQL server of this
 * machine. At 20 connections on 2 cores a light call's p99 is bounded by what the machine serves
 * a second (20 ÷ throughput on average); this shows where that bound lies on the same run.
 */
async function postgresReference(embedded: { p99: number; lightP99: number }) {
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  try {
    database = await freshDatabase("postgres");
  } catch (error) {
    console.log(`\nno PostgreSQL reference: ${(error as Error).message}`);
    return;
  }
  try {
    await insertOwners(database.db);
    await database.db.close();
    const reference = await measure(`reference: the same server on ${database.where}`, {
      databaseUrl: database.url!,
    });
    console.log(
      `\nembedded vs PostgreSQL (same run): light p99 alone ${embedded.lightP99.toFixed(0)} vs ${reference.lightP99.toFixed(0)} ms (${(embedded.lightP99 / reference.lightP99).toFixed(2)}×), beside heavy ${embedded.p99.toFixed(0)} vs ${reference.p99.toFixed(0)} ms (${(embedded.p99 / reference.p99).toFixed(2)}×)`,
    );
  } finally {
    await database.drop().catch(() => undefined);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
