/**
 * Production start: from spawning the server to its first answer (GET /api/health) on PostgreSQL,
 * the steps of it as the server reports them (modules loaded, database connected, migrations
 * checked, routes registered, secrets judged, seed, listen), and the resident memory of the whole
 * process tree once idle, for the compiled server as
 * `npm start` runs it and, as the reference in the same run, the server as it used to start (a
 * wrapper process spawning `node --import tsx apps/server/src/main.ts`).
 *   npm run build && npx tsx bench/start.ts [--runs 5]
 * A database of its own on BENCH_POSTGRES_URL (default postgres://postgres@127.0.0.1:5432/postgres)
 * is migrated by one unmeasured start, so the measured starts are restarts, then dropped.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { availableParallelism, cpus, loadavg } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { freePort } from "../scripts/free-port.mjs";
import { count, settings } from "./money-common.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const SERVER_URL = process.env.BENCH_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const GOAL_MS = 1500;
const IDLE_SETTLE_MS = 3000;

interface Variant {
  name: string;
  args: string[];
}

const compiled: Variant = { name: "compiled (npm start)", args: ["scripts/start.mjs"] };
/** How `npm start` ran before the build: a wrapper spawning the server through tsx. */
const viaTsx: Variant = {
  name: "tsx + wrapper (before)",
  args: [
    "--input-type=module",
    "-e",
    `import { spawn } from "node:child_process";
     const server = spawn(process.execPath, ["--import", "tsx", "apps/server/src/main.ts"], { stdio: "inherit" });
     for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
     server.on("exit", (code) => process.exit(code ?? 1));`,
  ],
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resident memory of a process and all its descendants, from /proc. */
function treeRssBytes(pid: number): { bytes: number; processes: number } {
  let bytes = 0;
  let processes = 0;
  const visit = (id: number) => {
    const status = `/proc/${id}/status`;
    if (!existsSync(status)) return;
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(status, "utf8"));
    bytes += Number(match?.[1] ?? 0) * 1024;
    processes += 1;
    const children = readFileSync(`/proc/${id}/task/${id}/children`, "utf8").trim();
    for (const child of children ? children.split(/\s+/) : []) visit(Number(child));
  };
  visit(pid);
  return { bytes, processes };
}

/** CPU time (user + system) a process and its descendants have used, from /proc, in ms. */
function treeCpuMs(pid: number): number {
  const stat = `/proc/${pid}/stat`;
  if (!existsSync(stat)) return 0;
  // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th (ticks of 10 ms).
  const fields = readFileSync(stat, "utf8").split(") ")[1]?.split(" ") ?? [];
  const own = (Number(fields[11]) + Number(fields[12])) * 10;
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim();
  return (
    own + (children ? children.split(/\s+/) : []).reduce((sum, child) => sum + treeCpuMs(Number(child)), 0)
  );
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  const killer = setTimeout(() => child.kill("SIGKILL"), 10_000);
  await exited;
  clearTimeout(killer);
}

interface Run {
  firstAnswerMs: number;
  /** The server's own account of its start (its "listening" log line): ms per step. */
  phases: Record<string, number>;
  /** CPU the start took: on a busy machine the wall time stretches, this much less. */
  cpuMs: number;
  idleRss: number;
  processes: number;
}

async function startOnce(variant: Variant, env: NodeJS.ProcessEnv): Promise<Run> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, variant.args, {
    cwd: root,
    env: { ...env, PORT: String(port) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let phases: Record<string, number> = {};
  let pending = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    const lines = (pending + chunk.toString()).split("\n");
    pending = lines.pop() ?? "";
    for (const line of lines) {
      if (!line.includes('"phases"')) continue;
      try {
        phases = (JSON.parse(line) as { phases: Record<string, number> }).phases;
      } catch {
        // not a log line of ours
      }
    }
  });
  let errors = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    errors = (errors + chunk.toString()).slice(-4000);
  });
  try {
    const deadline = started + 60_000;
    while (performance.now() < deadline) {
      if (child.exitCode !== null)
        throw new Error(`${variant.name} exited with ${child.exitCode}: ${errors}`);
      const ok = await fetch(`http://127.0.0.1:${port}/api/health`)
        .then((response) => response.ok)
        .catch(() => false);
      if (ok) {
        const firstAnswerMs = performance.now() - started;
        const cpuMs = treeCpuMs(child.pid ?? 0);
        await sleep(IDLE_SETTLE_MS);
        const { bytes, processes } = treeRssBytes(child.pid ?? 0);
        return { firstAnswerMs, phases, cpuMs, idleRss: bytes, processes };
      }
      await sleep(10);
    }
    throw new Error(`${variant.name} gave no answer within 60 s: ${errors}`);
  } finally {
    await stop(child);
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

async function main(): Promise<void> {
  const { runs: runsText } = settings({ runs: "5" });
  const runs = count(runsText, "runs");
  if (!existsSync(path.join(root, "apps/server/dist/main.mjs"))) {
    throw new Error("no compiled server: run `npm run build` first");
  }
  const name = `meterline_bench_start_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: SERVER_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(SERVER_URL);
  url.pathname = `/${name}`;
  const secret = () => randomBytes(24).toString("hex");
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    DATABASE_URL: url.toString(),
    JWT_SECRET: secret(),
    DATA_ENCRYPTION_KEY: secret(),
    CLIENT_SECRET: secret(),
    ADMIN_PASSWORD: `Bench-${secret()}`,
    HOST: "127.0.0.1",
    // Info, for the "listening" line and its steps; the only request logged is the first answer.
    LOG_LEVEL: "info",
  };
  try {
    await startOnce(compiled, env); // migrates and seeds: the measured starts are restarts
    const results = new Map<Variant, Run[]>([
      [compiled, []],
      [viaTsx, []],
    ]);
    for (let i = 0; i < runs; i++) {
      // Alternating, so that a busy moment of the machine weighs on both alike.
      for (const variant of [viaTsx, compiled]) results.get(variant)?.push(await startOnce(variant, env));
    }
    console.log(
      `production start on PostgreSQL ${url.host}, already migrated; ${runs} runs each, alternating; median; ` +
        `idle RSS of the process tree ${IDLE_SETTLE_MS / 1000} s after the first answer; ` +
        `${availableParallelism()} cores (${cpus()[0]?.model ?? "?"}), load ${loadavg()[0]?.toFixed(2)}, node ${process.version}`,
    );
    const summary = new Map<Variant, { ms: number; rss: number }>();
    for (const [variant, list] of results) {
      const ms = median(list.map((run) => run.firstAnswerMs));
      const rss = median(list.map((run) => run.idleRss));
      const cpu = median(list.map((run) => run.cpuMs));
      summary.set(variant, { ms, rss });
      console.log(
        `  ${variant.name.padEnd(24)} start → first answer ${ms.toFixed(0).padStart(5)} ms ` +
          `(runs ${list.map((run) => run.firstAnswerMs.toFixed(0)).join(", ")}), CPU ${cpu} ms; idle RSS ${mb(rss)} ` +
          `in ${list[0]?.processes ?? 0} process(es)`,
      );
      const steps = Object.keys(list[0]?.phases ?? {});
      if (steps.length > 0) {
        const medians = steps.map((step) => `${step} ${median(list.map((run) => run.phases[step] ?? 0))}`);
        console.log(`  ${"".padEnd(24)} steps to listening (median ms): ${medians.join(", ")}`);
      }
    }
    const now = summary.get(compiled);
    const before = summary.get(viaTsx);
    if (now && before) {
      console.log(
        `  compiled/before: start ${(now.ms / before.ms).toFixed(2)}×, idle RSS ${(now.rss / before.rss).toFixed(2)}×; ` +
          `goal start ≤ ${GOAL_MS} ms: ${now.ms <= GOAL_MS ? "met" : "NOT met"}`,
      );
    }
  } finally {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
