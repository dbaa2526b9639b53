/**
 * Gateway benchmark: 10,000 simulated meters on 1,000 DTUs against one gateway process.
 * Gateway and fleet run as separate child processes (CPU and memory are per process); this parent
 * only coordinates over IPC and prints figures. Every phase has a deadline, so the run always ends.
 *   tsx bench/gateway.ts [--meters 10000] [--dtus 1000] [--reply-delay-ms 50]
 */
import { type ChildProcess, fork } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import {
  MemoryCommandQueue,
  MemoryMeterDirectory,
  type MeterInfo,
  pollPlan,
  silentLogger,
  startGateway,
} from "@meterline/gateway";
import { planFleet, startFleet } from "@meterline/simulator";

type Message = { type: string; [key: string]: unknown };
const SELF = fileURLToPath(import.meta.url);
const { values } = parseArgs({
  args: process.argv.slice(2).filter((arg) => !arg.startsWith("--role=")),
  options: {
    meters: { type: "string", default: "10000" },
    dtus: { type: "string", default: "1000" },
    "reply-delay-ms": { type: "string", default: "50" },
    directory: { type: "string" },
    port: { type: "string" },
  },
});
const role = process.argv.find((arg) => arg.startsWith("--role="))?.slice(7) ?? "parent";
const PLAN = {
  meters: Number(values.meters),
  dtus: Number(values.dtus),
  waterRatio: 0.3,
  prepaidRatio: 0.5,
  pollIntervalMs: 0,
  seed: "bench",
};
const REPLY_DELAY = Number(values["reply-delay-ms"]);
const send = (message: Message) => process.send?.(message);
const usage = () => ({ memory: process.memoryUsage(), cpu: process.cpuUsage() });

async function gatewayRole(): Promise<void> {
  const { loadDirectoryFile } = await import("@meterline/gateway");
  const { meters, collectors } = await loadDirectoryFile(values.directory!);
  const directory = new MemoryMeterDirectory(meters, collectors);
  const commands = new MemoryCommandQueue((meterId) => directory.collectorOf(meterId));
  const gateway = await startGateway({
    directory,
    commands,
    logger: silentLogger,
    settings: { host: "127.0.0.1", port: 0, firstPollDelayMs: 3_600_000, maxPendingPerIp: 2_000 },
  });
  const waitFor = async (done: () => boolean, deadlineMs: number) => {
    const deadline = Date.now() + deadlineMs;
    while (!done() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    return done();
  };
  process.on("message", async (message: Message) => {
    if (message.type === "stats") send({ type: "stats", stats: gateway.stats(), ...usage() });
    if (message.type === "poll") {
      const before = gateway.stats();
      const start = performance.now();
      const target = before.pollsCompleted + before.pollsFailed + gateway.pollNow();
      const ok = await waitFor(() => {
        const s = gateway.stats();
        return s.pollsCompleted + s.pollsFailed >= target;
      }, 120_000);
      const after = gateway.stats();
      send({
        type: "poll",
        ok,
        ms: performance.now() - start,
        completed: after.pollsCompleted - before.pollsCompleted,
        requests: after.requests - before.requests,
        ...usage(),
      });
    }
    if (message.type === "switch") {
      const ids = message.meterIds as string[];
      const start = performance.now();
      const queued = ids.map(
        (id) => commands.enqueue(id, { kind: "relay", action: message.action as "trip" }).id,
      );
      // Event-driven: each command's final state resolves its own promise, so the figure carries no
      // polling granularity (a 20 ms poll would be a fifth of a one-per-bus batch's bound).
      const ok = await Promise.all(queued.map((id) => commands.waitFor(id, undefined, 120_000))).then(
        () => true,
        () => false,
      );
      const states: Record<string, number> = {};
      for (const id of queued) states[commands.get(id)!.state] = (states[commands.get(id)!.state] ?? 0) + 1;
      send({ type: "switch", ok, ms: performance.now() - start, states, ...usage() });
    }
    if (message.type === "exit") {
      await gateway.close();
      process.exit(0);
    }
  });
  send({ type: "ready", port: gateway.address().port });
}

async function fleetRole(): Promise<void> {
  const start = performance.now();
  const fleet = await startFleet({
    ...PLAN,
    gateway: { host: "127.0.0.1", port: Number(values.port) },
    replyDelayMs: REPLY_DELAY,
    connectConcurrency: 200,
  });
  send({ type: "connected", ms: performance.now() - start });
  process.on("message", async (message: Message) => {
    if (message.type === "stats") send({ type: "stats", stats: fleet.stats(), ...usage() });
    if (message.type === "exit") {
      await fleet.close();
      process.exit(0);
    }
  });
}

function child(args: string[]): {
  process: ChildProcess;
  next: (type: string, deadlineMs?: number) => Promise<Message>;
} {
  const proc = fork(SELF, args, {
    execArgv: ["--import", "tsx"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const inbox: Message[] = [];
  const waiters: ((message: Message) => void)[] = [];
  proc.on("message", (message: Message) => {
    const index = waiters.findIndex(() => true);
    if (index >= 0) waiters.splice(index, 1)[0]!(message);
    else inbox.push(message);
  });
  const next = (type: string, deadlineMs = 180_000) =>
    new Promise<Message>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no "${type}" from child within ${deadlineMs} ms`)),
        deadlineMs,
      );
      const take = (message: Message) => {
        if (message.type !== type) return waiters.push(take);
        clearTimeout(timer);
        resolve(message);
      };
      const queued = inbox.shift();
      if (queued) take(queued);
      else waiters.push(take);
    });
  return { process: proc, next };
}

/** Lower bound of a phase: the busiest bus's requests, one after another, each taking the reply delay. */
function busBound(requestsPerMeter: (meter: MeterInfo) => number, meters: readonly MeterInfo[]): number {
  const perBus = new Map<string, number>();
  for (const meter of meters)
    perBus.set(meter.collectorId, (perBus.get(meter.collectorId) ?? 0) + requestsPerMeter(meter));
  return Math.max(...perBus.values()) * REPLY_DELAY;
}

const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;
const line = (what: string, ms: number, bound?: number) =>
  console.log(
    `${what.padEnd(44)} ${(ms / 1000).toFixed(2).padStart(7)} s${bound ? `   bound ${(bound / 1000).toFixed(2)} s   ratio ${(ms / bound).toFixed(2)}` : ""}`,
  );

async function parent(): Promise<void> {
  const plan = planFleet(PLAN);
  const { fleetCollectors, fleetDirectory } = await import("@meterline/simulator");
  const meters = fleetDirectory(plan);
  const dir = await mkdtemp(path.join(tmpdir(), "meterline-bench-"));
  const file = path.join(dir, "directory.json");
  await writeFile(file, JSON.stringify({ collectors: fleetCollectors(plan), meters }));
  const gateway = child([
    "--role=gateway",
    `--directory=${file}`,
    `--meters=${PLAN.meters}`,
    `--dtus=${PLAN.dtus}`,
  ]);
  const watchdog = setTimeout(() => {
    console.error("benchmark deadline passed; stopping");
    process.exit(1);
  }, 15 * 60_000);
  let fleet: ReturnType<typeof child> | undefined;
  try {
    const { port } = await gateway.next("ready");
    console.log(
      `node ${process.version}, ${availableParallelism()} cores, load average ${loadavg()[0]!.toFixed(1)} at start`,
    );
    console.log(
      `${PLAN.meters} meters (${plan.meters.filter((m) => m.kind === "water").length} water) on ${PLAN.dtus} DTUs, reply delay ${REPLY_DELAY} ms, loopback, gateway and fleet in separate processes`,
    );
    const started = performance.now();
    fleet = child([
      "--role=fleet",
      `--port=${port}`,
      `--meters=${PLAN.meters}`,
      `--dtus=${PLAN.dtus}`,
      `--reply-delay-ms=${REPLY_DELAY}`,
    ]);
    for (;;) {
      gateway.process.send({ type: "stats" });
      const { stats } = (await gateway.next("stats")) as unknown as { stats: { collectorsOnline: number } };
      if (stats.collectorsOnline >= PLAN.dtus) break;
      if (performance.now() - started > 120_000) throw new Error("DTUs did not all come online");
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    line("all DTUs registered (all meters reachable)", performance.now() - started);
    await fleet.next("connected");

    gateway.process.send({ type: "poll" });
    const first = await gateway.next("poll");
    line(
      "poll round 1 (with daily frozen data)",
      first.ms as number,
      busBound((m) => pollPlan(m, true).length, meters),
    );
    gateway.process.send({ type: "poll" });
    const second = await gateway.next("poll");
    line(
      "poll round 2 (steady state)",
      second.ms as number,
      busBound((m) => pollPlan(m, false).length, meters),
    );
    console.log(
      `  polls completed ${first.completed} + ${second.completed}, requests ${first.requests} + ${second.requests}`,
    );

    const electric = meters.filter((m) => m.protocol === "dlt645-2007");
    const clustered = electric.slice(0, 1000);
    const spread = [...new Map(electric.map((m) => [m.collectorId, m])).values()].slice(0, 1000);
    for (const [what, batch, action] of [
      [
        `switch ${clustered.length} meters on ${new Set(clustered.map((m) => m.collectorId)).size} DTUs (trip)`,
        clustered,
        "trip",
      ],
      [`switch ${spread.length} meters, one per DTU (close)`, spread, "close-direct"],
    ] as const) {
      gateway.process.send({ type: "switch", meterIds: batch.map((m) => m.id), action });
      const result = await gateway.next("switch");
      // Each switch is two requests on its bus: the relay frame and the status-word verification.
      line(
        what,
        result.ms as number,
        busBound(() => 2, batch),
      );
      console.log(`  outcomes ${JSON.stringify(result.states)}`);
    }
    gateway.process.send({ type: "stats" });
    const g = (await gateway.next("stats")) as unknown as {
      memory: NodeJS.MemoryUsage;
      cpu: NodeJS.CpuUsage;
      stats: { timeouts: number; metersOnline: number };
    };
    fleet.process.send({ type: "stats" });
    const f = (await fleet.next("stats")) as unknown as {
      cpu: NodeJS.CpuUsage;
      memory: NodeJS.MemoryUsage;
      stats: { collisions: number };
    };
    console.log(
      `gateway: meters online ${g.stats.metersOnline}, RSS ${mib(g.memory.rss)}, heap used ${mib(g.memory.heapUsed)}, CPU user ${(g.cpu.user / 1e6).toFixed(1)} s + system ${(g.cpu.system / 1e6).toFixed(1)} s, request timeouts ${g.stats.timeouts}`,
    );
    console.log(
      `fleet:   RSS ${mib(f.memory.rss)}, CPU user ${(f.cpu.user / 1e6).toFixed(1)} s + system ${(f.cpu.system / 1e6).toFixed(1)} s, bus collisions ${f.stats.collisions}`,
    );
  } finally {
    clearTimeout(watchdog);
    fleet?.process.send({ type: "exit" });
    gateway.process.send({ type: "exit" });
    await Promise.all(
      [gateway, fleet].map((c) => c && new Promise((resolve) => c.process.once("exit", resolve))),
    );
    await rm(dir, { recursive: true, force: true });
  }
}

if (role === "gateway") await gatewayRole();
else if (role === "fleet") await fleetRole();
else await parent();
