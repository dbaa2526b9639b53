/**
 * Batch price-write benchmark: a flat price written to every local-prepaid meter of a simulated
 * fleet (10,000 by default) through the server's embedded gateway. The server runs as its own
 * process (the real apps/server/src/main.ts on a PostgreSQL database of its own), so its CPU time
 * and peak RSS are its own; the fleet runs in this process and dials the gateway over TCP.
 *
 * One call if the server takes the whole batch as one job; otherwise batches of the most it takes
 * (1,000). The wall time, from the first call to the last command settled, is set against the
 * per-bus serialization bound: one request in flight per bus, so a bus needs at least its frames ×
 * the fleet's reply delay; buses run side by side, so the slowest bus bounds the whole. The fully
 * serialized sum (every frame of every bus one after another) is printed beside it.
 *   tsx bench/batch-write.ts [--meters 10000] [--dtus 100] [--reply-delay-ms 50]
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type BatchJobSummary, resources } from "@meterline/contracts";
import { type FleetHandle, planFleet, plannedSecret, startFleet } from "@meterline/simulator";
import { FieldCipher } from "../apps/server/src/crud/field-cipher.ts";
import { readInput } from "../apps/server/src/crud/input.ts";
import { ResourceStore } from "../apps/server/src/crud/store.ts";
import type { Db } from "../apps/server/src/db/client.ts";
import { serviceUser } from "../apps/server/src/modules/auth/current-user.ts";
import { md5Hex } from "../apps/server/src/modules/auth/password.ts";
import { freePort } from "../scripts/free-port.mjs";
import { BENCH_ADMIN_PASSWORD, count, fail, freshDatabase, machine, mib, settings } from "./money-common.ts";

const options = settings({ meters: "10000", dtus: "100", "reply-delay-ms": "50" });
const METERS = count(options.meters, "meters");
const DTUS = Math.max(1, count(options.dtus, "dtus"));
const REPLY_DELAY_MS = count(options["reply-delay-ms"], "reply-delay-ms");
const ROOT = fileURLToPath(new URL("..", import.meta.url));
const TENANT = "000000";
const PLAN = {
  meters: METERS,
  dtus: DTUS,
  waterRatio: 0,
  prepaidRatio: 1,
  seed: "bench-batch-write",
} as const;
const SOURCE = "message/writePriceBatch";
const secret = () => randomBytes(32).toString("hex");
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The registry: DTUs with their secrets, every planned meter local prepaid with an open account. */
async function seedRegistry(db: Db, cipher: FieldCipher): Promise<string[]> {
  const plan = planFleet(PLAN);
  const user = serviceUser(TENANT, "bench", { realName: "bench" });
  const insert = (def: (typeof resources)[keyof typeof resources], body: Record<string, unknown>) =>
    new ResourceStore(db, def).insert(readInput(def, body, "create", "Asia/Shanghai"), user, TENANT);
  const owner = await insert(resources.owner, { ownerName: "批量写价", ownerCode: "BENCH-BW" });
  const scheme = await insert(resources.chargingScheme, {
    schemeName: "批量写价电价",
    energyType: 1,
    priceMode: 1,
    price: "0.6100",
  });
  const collectors = new Map<string, string>();
  for (const dtu of plan.dtuIds) {
    const id = await insert(resources.collector, { collectorName: dtu, collectorCode: dtu });
    await db.query("update pms_collector set registration_secret = $2 where id = $1", [
      id,
      cipher.encrypt(plannedSecret(plan, dtu)),
    ]);
    collectors.set(dtu, id);
  }
  // One meter through the definition (validation, defaults, audit columns); the others are its
  // copies with their own id, address and DTU, which is what 10,000 form saves would leave.
  const [first, ...rest] = plan.meters;
  if (!first) fail("no meters planned");
  const template = await insert(resources.meter, {
    productCode: first.address,
    collectorId: collectors.get(first.collectorId),
    meterType: 1,
    controlStatus: 0,
    chargingSchemeId: scheme,
  });
  const columns = (
    await db.query<{ column_name: string }>(
      "select column_name from information_schema.columns where table_name = 'pms_meter' and table_schema = current_schema()",
    )
  )
    .map((c) => c.column_name)
    .filter((c) => !["id", "product_code", "collector_id"].includes(c));
  const list = columns.map((c) => `"${c}"`).join(", ");
  await db.query(
    `insert into pms_meter (id, product_code, collector_id, ${list})
     select t.id + c.n, c.address, c.collector::bigint, ${columns.map((c) => `t."${c}"`).join(", ")}
       from pms_meter t
       cross join unnest($2::text[], $3::text[]) with ordinality as c(address, collector, n)
      where t.id = $1`,
    [template, rest.map((m) => m.address), rest.map((m) => collectors.get(m.collectorId))],
  );
  await db.query(
    `insert into pms_account (id, tenant_id, owner_id, energy_type, meter_id, control_status, charging_scheme_id, status)
     select m.id, m.tenant_id, $2, 1, m.id, 0, $3, 1 from pms_meter m where m.tenant_id = $1 and m.is_deleted = 0`,
    [TENANT, owner, scheme],
  );
  const ids = await db.query<{ id: string }>(
    "select id::text as id from pms_meter where tenant_id = $1 and is_deleted = 0 order by id",
    [TENANT],
  );
  return ids.map((row) => row.id);
}

interface Server {
  child: ChildProcess;
  origin: string;
  gatewayPort: number;
  clientSecret: string;
}

async function startServer(databaseUrl: string, dataKey: string): Promise<Server> {
  const [port, gatewayPort] = [await freePort(), await freePort()];
  const clientSecret = secret();
  const child = spawn(process.execPath, ["--import", "tsx", path.join(ROOT, "apps/server/src/main.ts")], {
    cwd: ROOT,
    stdio: ["ignore", "ignore", "inherit"],
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      HOST: "127.0.0.1",
      JWT_SECRET: secret(),
      DATA_ENCRYPTION_KEY: dataKey,
      ADMIN_PASSWORD: secret(),
      CLIENT_SECRET: clientSecret,
      GATEWAY_EMBEDDED: "true",
      GATEWAY_HOST: "127.0.0.1",
      GATEWAY_PORT: String(gatewayPort),
      // Reads only when asked: the bus carries the writes and nothing else.
      POLL_INTERVAL_SECONDS: "86400",
      LOG_LEVEL: "warn",
      API_LOG: "none",
    },
  });
  const origin = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null) fail(`the server exited (${child.exitCode})`);
    const up = await fetch(`${origin}/api/health`).catch(() => undefined);
    if (up?.ok) return { child, origin, gatewayPort, clientSecret };
    if (Date.now() > deadline) fail("the server did not answer within 180 s");
    await sleep(250);
  }
}

async function login(server: Server): Promise<Record<string, string>> {
  const basic = `Basic ${Buffer.from(`saber:${server.clientSecret}`).toString("base64")}`;
  const query = new URLSearchParams({
    tenantId: TENANT,
    username: "admin",
    password: md5Hex(BENCH_ADMIN_PASSWORD),
    grant_type: "password",
    scope: "all",
  });
  const res = await fetch(`${server.origin}/api/blade-auth/oauth/token?${query}`, {
    method: "POST",
    headers: { authorization: basic, "tenant-id": TENANT },
  });
  const token = ((await res.json()) as { access_token?: string }).access_token;
  if (!token) fail(`login failed (${res.status})`);
  return { authorization: basic, "blade-auth": `bearer ${token}`, "content-type": "application/json" };
}

/** CPU seconds (user + system) and RSS of a process, from /proc. */
function processUsage(pid: number): { cpuMs: number; rss: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // utime and stime are fields 14 and 15 of the line, in clock ticks (100 per second on Linux).
  const ticks = Number(fields[11]) + Number(fields[12]);
  const rss = Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) * 1024;
  return { cpuMs: ticks * 10, rss };
}

type Outcome = { jobId?: string | null; batchId?: string | null; queued: number; skipped: unknown[] };

/** Sends the write: the whole batch as one job when the server takes it, else in chunks it takes. */
async function submit(server: Server, headers: Record<string, string>, ids: string[]) {
  const post = (meterIds: string[]) =>
    fetch(`${server.origin}/api/blade-pms/${SOURCE}`, {
      method: "POST",
      headers,
      body: JSON.stringify({ meterIds }),
    }).then(async (res) => ({
      status: res.status,
      body: (await res.json()) as { data?: Outcome; msg?: string },
    }));
  const whole = await post(ids);
  if (whole.status === 200 && whole.body.data)
    return { mode: whole.body.data.jobId ? "one job" : "one batch", calls: [whole.body.data] };
  const chunk = 1000;
  const calls: Outcome[] = [];
  for (let i = 0; i < ids.length; i += chunk) {
    const answer = await post(ids.slice(i, i + chunk));
    if (answer.status !== 200 || !answer.body.data)
      fail(`writePriceBatch answered ${answer.status}: ${answer.body.msg}`);
    calls.push(answer.body.data);
  }
  return {
    mode: `${calls.length} batches of ${chunk} (the server answered the whole: ${whole.body.msg})`,
    calls,
  };
}

async function settledCounts(db: Db): Promise<Record<string, number>> {
  const rows = await db.query<{ state: string; n: number }>(
    "select state, count(*)::int as n from pms_meter_command where source = $1 group by state",
    [SOURCE],
  );
  return Object.fromEntries(rows.map((r) => [r.state, r.n]));
}

/**
 * Whether the write has settled: a job when its runner has ended it (its items are queued in turn,
 * so an empty command queue alone says nothing), else no command left queued or sent.
 */
async function settled(server: Server, headers: Record<string, string>, db: Db, jobIds: string[]) {
  const commands = await settledCounts(db);
  if (jobIds.length === 0) return { done: !commands.queued && !commands.sent, commands, jobs: [] };
  const jobs = await Promise.all(
    jobIds.map(async (id) => {
      const res = await fetch(`${server.origin}/api/blade-pms/batchjob/detail?id=${id}`, { headers });
      return ((await res.json()) as { data: BatchJobSummary }).data;
    }),
  );
  return { done: jobs.every((job) => job.state !== "running"), commands, jobs };
}

async function main(): Promise<void> {
  console.log(machine());
  const database = await freshDatabase("postgres");
  const dataKey = secret();
  let server: Server | undefined;
  let fleet: FleetHandle | undefined;
  try {
    const ids = await seedRegistry(database.db, new FieldCipher(dataKey));
    server = await startServer(database.url!, dataKey);
    fleet = await startFleet({
      ...PLAN,
      replyDelayMs: REPLY_DELAY_MS,
      pollIntervalMs: 0,
      gateway: { host: "127.0.0.1", port: server.gatewayPort },
    });
    const online = Date.now() + 120_000;
    while (fleet.stats().dtusOnline < DTUS) {
      if (Date.now() > online) fail(`${fleet.stats().dtusOnline} of ${DTUS} DTUs online after 120 s`);
      await sleep(250);
    }
    // Registration settles (leases, the first heartbeat) before the clock starts.
    await sleep(3000);
    const headers = await login(server);
    const pid = server.child.pid!;
    const framesBefore = fleet.plan.dtuIds.map((id) => fleet!.dtu(id)?.stats.requests ?? 0);
    const before = processUsage(pid);
    let peak = before.rss;
    const sampler = setInterval(() => {
      peak = Math.max(peak, processUsage(pid).rss);
    }, 100);

    const started = performance.now();
    const { mode, calls } = await submit(server, headers, ids);
    const submittedMs = performance.now() - started;
    const queued = calls.reduce((sum, c) => sum + c.queued, 0);
    const skipped = calls.reduce((sum, c) => sum + c.skipped.length, 0);
    const jobIds = calls.flatMap((c) => (c.jobId ? [c.jobId] : []));
    let state = await settled(server, headers, database.db, jobIds);
    const deadline = Date.now() + 30 * 60_000;
    while (!state.done) {
      if (Date.now() > deadline) fail(`not settled after 30 minutes: ${JSON.stringify(state.commands)}`);
      await sleep(200);
      state = await settled(server, headers, database.db, jobIds);
    }
    const wallMs = performance.now() - started;
    clearInterval(sampler);
    const after = processUsage(pid);

    const frames = fleet.plan.dtuIds.map((id, i) => (fleet!.dtu(id)?.stats.requests ?? 0) - framesBefore[i]!);
    const busBoundMs = Math.max(...frames) * REPLY_DELAY_MS;
    const serialMs = frames.reduce((sum, n) => sum + n, 0) * REPLY_DELAY_MS;
    const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
    console.log(
      `conditions: ${METERS} local-prepaid meters on ${DTUS} DTUs (one bus each, ${Math.ceil(METERS / DTUS)} meters per bus), ` +
        `reply delay ${REPLY_DELAY_MS} ms per frame, server: embedded gateway on ${database.where}`,
    );
    console.log(
      `submitted as ${mode} in ${s(submittedMs)}: ${queued} write commands queued, ${skipped} meters left out`,
    );
    console.log(`commands settled: ${JSON.stringify(state.commands)}`);
    for (const job of state.jobs)
      console.log(
        `job ${job.id}: ${job.total} meters, ${job.success} succeeded, ${job.fail} failed, ${job.timeout} to be confirmed, ${job.cancelled} cancelled, ${job.skipped} left out`,
      );
    console.log(
      `frames on the buses: ${frames.reduce((a, b) => a + b, 0)} (busiest bus ${Math.max(...frames)}, quietest ${Math.min(...frames)})`,
    );
    console.log(`wall time to the last command settled   ${s(wallMs)}`);
    console.log(
      `per-bus serialization bound             ${s(busBoundMs)}   ratio ${(wallMs / busBoundMs).toFixed(2)}`,
    );
    console.log(
      `fully serialized (all buses in a row)   ${s(serialMs)}   ratio ${(wallMs / serialMs).toFixed(4)}`,
    );
    console.log(
      `server CPU during the write ${s(after.cpuMs - before.cpuMs)} (${(((after.cpuMs - before.cpuMs) / wallMs) * 100).toFixed(0)}% of one core); RSS before ${mib(before.rss)}, peak ${mib(peak)}`,
    );
  } finally {
    await fleet?.close();
    if (server) {
      server.child.kill("SIGTERM");
      await new Promise((resolve) => server!.child.once("exit", resolve));
    }
    await database.drop();
  }
}

await main();
