/**
 * Fleet at scale (issue 37, point 4): N simulated electricity meters behind M simulated DTUs, over
 * real TCP, through two registry gateway processes (`npm run gateway` on PostgreSQL), the poll
 * interval compressed so the schedule asks ≥ 1,500 reads a second at 100,000 meters; a share of the
 * meters priced and booked. One command:
 *   npm run bench:fleet -- [--meters 100000] [--dtus N/50] [--seconds 180] [--interval s]
 *                          [--priced-share 0.5] [--reply-delay-ms 50] [--time-scale 60] [--keep yes]
 * --time-scale (default 60) runs the meters' time faster so compressed intervals carry real usage.
 * The database is DATABASE_URL's when set (migrated and seeded, kept), else a fresh one on
 * BENCH_POSTGRES_URL's server (default postgres://postgres@127.0.0.1:5432), dropped after unless
 * --keep yes. Steps: migrate and seed; provision the tenant set-based (fleet-scale-provision.ts);
 * start two gateway processes on two ports (the second once the first listens); start the fleet
 * (fleet-scale-fleet.ts), DTU i dialling gateway i mod 2; once every DTU holds its lease, measure for
 * --seconds; then quiesce the fleet (every answered read delivered, nothing new answered), hang up,
 * let the gateways drain, stop them, and check:
 *   - lost readings: per meter, readings the simulated meter answered (energy-block reads, the
 *     poll's first item; a poll whose first item is answered always yields a reading) minus rows of
 *     the reading log, summed over meters where it is positive; "extra" is the other way round;
 *   - double-priced: accounts with more usage charges than readings, or charged more usage than
 *     their readings span (first to last register), and the ledger invariant of
 *     `npm run ledger:check` (every balance is the sum of its entries, on this tenant);
 *   - lag behind the schedule at the window's end T: per meter, T − (last read started ≤ T) − interval,
 *     max and p99 (≤ 0 means on time), and meters never read;
 *   - RSS (VmRSS, sampled every second) of each gateway and the fleet, peak and at T; CPU seconds
 *     of each and the machine's busy share over the window; stored reads a second over the window
 *     against the schedule's N ÷ interval (the reference from the same run).
 * Any child that dies fails the run with its last output.
 */
import { randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import { planFleet } from "@meterline/simulator";
import { FieldCipher } from "../apps/server/src/crud/field-cipher.ts";
import { type Db, openDb } from "../apps/server/src/db/client.ts";
import { nextId } from "../apps/server/src/db/ids.ts";
import { migrate } from "../apps/server/src/db/migrate.ts";
import { seed } from "../apps/server/src/db/seed.ts";
import {
  type ElectricRead,
  insertElectricReads,
} from "../apps/server/src/modules/metering/reading-log.db.ts";
import { checkLedger } from "../apps/server/src/modules/money/ledger-check.ts";
import {
  type Child,
  cpuOf,
  freePort,
  listening,
  machineTicks,
  RssSampler,
  startChild,
} from "./fleet-scale-procs.ts";
import { FLEET_TENANT, provision } from "./fleet-scale-provision.ts";
import {
  BENCH_ADMIN_PASSWORD,
  count,
  fail,
  freshDatabase,
  machine,
  mib,
  percentile,
  settings,
} from "./money-common.ts";

const options = settings({
  meters: "100000",
  dtus: "",
  seconds: "180",
  interval: "",
  "priced-share": "0.5",
  "reply-delay-ms": "50",
  "target-rate": "1500",
  "time-scale": "60",
  keep: "no",
});
const METERS = count(options.meters, "meters");
const SECONDS = count(options.seconds, "seconds");
/** The gateways' local day (their default TENANT_TIME_ZONE): it decides when frozen data is read. */
const GATEWAY_TIME_ZONE = process.env.TENANT_TIME_ZONE ?? "Asia/Shanghai";
/** Whole seconds (the gateway's POLL_INTERVAL_SECONDS, ≥ 10): the longest that meets the target rate. */
const INTERVAL_S = options.interval
  ? count(options.interval, "interval")
  : Math.max(10, Math.floor(METERS / count(options["target-rate"], "target-rate")));
const PRICED_SHARE = Number(options["priced-share"]);
const REPLY_DELAY_MS = count(options["reply-delay-ms"], "reply-delay-ms");
/**
 * A bus reads its meters one request at a time: a poll is 4 requests of about the reply delay and
 * 50 ms more each. By default 50 meters a DTU (2,000 DTUs at 100,000 meters), or more DTUs where
 * that would fill more than half of each bus's interval (small fleets on the shortest interval).
 */
const BUSES_NEEDED = Math.ceil((2 * METERS * 4 * (REPLY_DELAY_MS + 50)) / 1000 / INTERVAL_S);
const DTUS = options.dtus
  ? count(options.dtus, "dtus")
  : Math.min(METERS, Math.max(1, Math.round(METERS / 50), BUSES_NEEDED));
/**
 * The meters' time runs this much faster than true time, so each reading a priced meter gives in a
 * compressed interval carries as much usage as one of a real interval: charges are booked, not
 * rounded away to nothing (1 kW for 10 true seconds is 0.003 kWh, below the register's 0.01).
 */
const TIME_SCALE = Number(options["time-scale"]);
const KEEP = options.keep === "yes";
const GATEWAYS = 2;
const ROOT = fileURLToPath(new URL("..", import.meta.url));
const FLEET_ENTRY = fileURLToPath(new URL("./fleet-scale-fleet.ts", import.meta.url));
/** Electricity meters only, none local-prepaid: every reading of a priced meter is priced by the server. */
const PLAN = {
  meters: METERS,
  dtus: DTUS,
  waterRatio: 0,
  prepaidRatio: 0,
  seed: "fleet-scale",
  pollIntervalMs: INTERVAL_S * 1000,
};

/** The log-only reference's rows belong to no meter of the bench's tenant. */
const REFERENCE_TENANT = "100199";
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The bench's database: DATABASE_URL's (kept) or a fresh one (dropped unless --keep yes). */
async function database(): Promise<{ db: Db; url: string; drop: () => Promise<void> }> {
  const url = process.env.DATABASE_URL;
  if (url) {
    const db = await openDb({ databaseUrl: url });
    await migrate(db);
    await seed(db, { adminPassword: BENCH_ADMIN_PASSWORD });
    return { db, url, drop: () => db.close() };
  }
  const fresh = await freshDatabase("postgres");
  return { db: fresh.db, url: fresh.url!, drop: () => (KEEP ? fresh.db.close() : fresh.drop()) };
}

/** One IPC message of a type from a child, or its death, or the deadline. */
function nextMessage(child: Child, type: string, deadlineMs: number): Promise<Record<string, unknown>> {
  return Promise.race([
    child.died,
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no "${type}" from ${child.name} in ${deadlineMs} ms`)),
        deadlineMs,
      );
      const take = (message: Record<string, unknown>) => {
        if (message.type !== type) return;
        clearTimeout(timer);
        child.proc.off("message", take);
        resolve(message);
      };
      child.proc.on("message", take);
    }),
  ]);
}

async function scalar(db: Db, sql: string, params: unknown[] = []): Promise<number> {
  const [row] = await db.query<{ n: string | null }>(sql, params);
  return Number(row?.n ?? 0);
}

/** Polls `done` every half second until it holds, a child dies or the deadline passes. */
async function until(what: string, done: () => Promise<boolean>, deadlineMs: number, children: Child[]) {
  const deadline = Date.now() + deadlineMs;
  const died = Promise.race(children.map((c) => c.died));
  while (!(await Promise.race([done(), died]))) {
    if (Date.now() > deadline) fail(`${what} not reached within ${deadlineMs / 1000} s`);
    await Promise.race([sleep(500), died]);
  }
}

async function conditions(db: Db): Promise<string> {
  const [pg] = await db.query<Record<string, string>>(
    `select current_setting('server_version') as version, current_setting('shared_buffers') as shared_buffers,
            current_setting('synchronous_commit') as synchronous_commit, current_setting('fsync') as fsync,
            current_setting('max_connections') as max_connections, current_setting('max_wal_size') as max_wal_size`,
  );
  return `PostgreSQL ${pg!.version} (shared_buffers ${pg!.shared_buffers}, synchronous_commit ${pg!.synchronous_commit}, fsync ${pg!.fsync}, max_wal_size ${pg!.max_wal_size}, max_connections ${pg!.max_connections})`;
}

const row = (what: string, value: string, note = "") =>
  console.log(`  ${what.padEnd(40)} ${value.padStart(16)}   ${note}`);

async function main(): Promise<void> {
  console.log(machine());
  const { db, url, drop } = await database();
  const children: Child[] = [];
  try {
    console.log(await conditions(db));
    const dataKey = randomBytes(32).toString("base64url");
    const plan = planFleet(PLAN);
    let started = performance.now();
    const provisioned = await provision(db, plan, new FieldCipher(dataKey), PRICED_SHARE);
    console.log(
      `provisioned ${provisioned.meters} meters (${provisioned.priced} with a priced account) on ${provisioned.dtus} DTUs in ${((performance.now() - started) / 1000).toFixed(1)} s; poll interval ${INTERVAL_S} s → the schedule asks ${(METERS / INTERVAL_S).toFixed(0)} reads/s; reply delay ${REPLY_DELAY_MS} ms per request; meter time ×${TIME_SCALE}`,
    );

    const ports: number[] = [];
    for (let i = 0; i < GATEWAYS; i++) {
      const port = await freePort();
      const gateway = startChild(`gateway ${i + 1}`, process.execPath, [`${ROOT}scripts/gateway.mjs`], {
        ...process.env,
        DATABASE_URL: url,
        DATA_ENCRYPTION_KEY: dataKey,
        GATEWAY_HOST: "127.0.0.1",
        GATEWAY_PORT: String(port),
        POLL_INTERVAL_SECONDS: String(INTERVAL_S),
        // Each gateway keeps the half of the DTUs that dial it: no fair-share handovers mid-run.
        GATEWAY_REBALANCE_INTERVAL_MS: "0",
        LOG_LEVEL: "warn",
      });
      children.push(gateway);
      // One after the other: the first builds the compiled server if it is stale, the second reuses it.
      await listening(port, 180_000, gateway.died);
      ports.push(port);
    }
    const [gateway1, gateway2] = children as [Child, Child];
    started = performance.now();
    const fleet = startChild(
      "fleet",
      process.execPath,
      ["--import", "tsx", FLEET_ENTRY],
      {
        ...process.env,
        FLEET_OPTIONS: JSON.stringify({
          ...PLAN,
          gateways: ports.map((port) => ({ host: "127.0.0.1", port })),
          replyDelayMs: REPLY_DELAY_MS,
          timeScale: TIME_SCALE,
        }),
      },
      true,
    );
    children.push(fleet);
    const rss = new RssSampler(children.map((c) => c.pid)).start();
    await nextMessage(fleet, "ready", 600_000);
    await until(
      "every DTU leased by a gateway",
      async () => (await scalar(db, "select count(*) as n from gateway_lease")) >= DTUS,
      300_000,
      children,
    );
    const registeredS = (performance.now() - started) / 1000;
    const leases = await db.query<{ owner: string; n: string }>(
      "select owner, count(*)::text as n from gateway_lease group by owner order by owner",
    );
    // The first round reads the day's frozen data too (9 requests a meter, not 4) and starts every
    // meter at once: the window measures the schedule after it, once every meter has a reading.
    await until(
      "every meter read once",
      async () =>
        (await scalar(db, "select count(distinct meter_id) as n from pms_data_read where tenant_id = $1", [
          FLEET_TENANT,
        ])) >= METERS,
      Math.max(900_000, 20 * INTERVAL_S * 1000),
      children,
    );
    const firstRoundS = (performance.now() - started) / 1000 - registeredS;

    const t0 = Date.now();
    const cpu0 = await Promise.all(children.map((c) => cpuOf(c.pid)));
    const machine0 = await machineTicks();
    await Promise.race([sleep(SECONDS * 1000), ...children.map((c) => c.died)]);
    const t1 = Date.now();
    const cpu1 = await Promise.all(children.map((c) => cpuOf(c.pid)));
    const machine1 = await machineTicks();
    const rssAtEnd = new Map(rss.last);
    rss.stop();
    const visibleAtEnd = await scalar(
      db,
      "select count(*) as n from pms_data_read where tenant_id = $1 and read_time <= $2",
      [FLEET_TENANT, new Date(t1)],
    );

    // Quiesce: every answered read is delivered, nothing new is answered; then hang up.
    fleet.proc.send({ type: "quiesce" });
    const answered = await nextMessage(fleet, "answered", 120_000);
    fleet.expectExit();
    fleet.proc.send({ type: "close" });
    await fleet.exited;
    // The gateways store what they hold: wait until the reading log stands still for 3 s.
    const drainStart = Date.now();
    let stored = -1;
    for (let still = 0; still < 6 && Date.now() - drainStart < 120_000; ) {
      await Promise.race([sleep(500), gateway1.died, gateway2.died]);
      const now = await scalar(db, "select count(*) as n from pms_data_read where tenant_id = $1", [
        FLEET_TENANT,
      ]);
      still = now === stored ? still + 1 : 0;
      stored = now;
    }
    const drainS = (Date.now() - drainStart) / 1000 - 3;
    for (const gateway of [gateway1, gateway2]) {
      gateway.expectExit();
      gateway.proc.kill("SIGTERM");
    }
    const codes = await Promise.race([
      Promise.all([gateway1.exited, gateway2.exited]),
      sleep(60_000).then(() => fail("the gateways did not stop within 60 s of SIGTERM")),
    ]);

    await report({
      db,
      t0,
      t1,
      answered: answered as unknown as Answered,
      visibleAtEnd,
      drainS,
      registeredS,
      firstRoundS,
      leases,
      codes,
      cpu: cpu1.map((after, i) => after - cpu0[i]!),
      machineBusy: (machine1.busy - machine0.busy) / (machine1.total - machine0.total),
      rss,
      rssAtEnd,
      children,
    });
  } finally {
    for (const child of children) {
      if (child.proc.exitCode === null && child.proc.signalCode === null) {
        child.expectExit();
        child.proc.kill("SIGKILL");
      }
    }
    await drop();
  }
}

/**
 * The reading log's multi-row insert alone (what a reading costs before anything else is done with
 * it), timed on the same database right after the run, under another tenant the checks never see.
 */
async function logOnlyRate(db: Db, rows: number): Promise<number> {
  const at = new Date();
  const started = performance.now();
  for (let i = 0; i < rows; i += 1000) {
    const batch = Array.from(
      { length: Math.min(1000, rows - i) },
      (_, j): ElectricRead => ({
        id: nextId(),
        tenantId: REFERENCE_TENANT,
        meterId: String(i + j + 1),
        roomId: null,
        productCode: String(i + j + 1).padStart(12, "0"),
        readTime: at,
        registers: ["1234.56", "100.00", "300.00", "600.00", "234.56"],
        balance: null,
        switchStatus: 0,
        missing: "",
      }),
    );
    await insertElectricReads(db, batch);
  }
  return rows / ((performance.now() - started) / 1000);
}

interface Answered {
  addresses: string[];
  counts: number[];
  requests: number;
  replies: number;
}

async function report(run: {
  db: Db;
  t0: number;
  t1: number;
  answered: Answered;
  visibleAtEnd: number;
  drainS: number;
  registeredS: number;
  firstRoundS: number;
  leases: { owner: string; n: string }[];
  codes: (number | null)[];
  cpu: number[];
  machineBusy: number;
  rss: RssSampler;
  rssAtEnd: Map<number, number>;
  children: Child[];
}): Promise<void> {
  const { db, t0, t1 } = run;
  const windowS = (t1 - t0) / 1000;
  const intervalMs = INTERVAL_S * 1000;
  const inWindow = await scalar(
    db,
    "select count(*) as n from pms_data_read where tenant_id = $1 and read_time >= $2 and read_time < $3",
    [FLEET_TENANT, new Date(t0), new Date(t1)],
  );
  const storedByMeter = new Map(
    (
      await db.query<{ product_code: string; n: string }>(
        "select product_code, count(*)::text as n from pms_data_read where tenant_id = $1 group by product_code",
        [FLEET_TENANT],
      )
    ).map((r) => [r.product_code, Number(r.n)]),
  );
  let answeredTotal = 0;
  let lost = 0;
  let extra = 0;
  run.answered.addresses.forEach((address, i) => {
    const said = run.answered.counts[i]!;
    const kept = storedByMeter.get(address) ?? 0;
    answeredTotal += said;
    lost += Math.max(0, said - kept);
    extra += Math.max(0, kept - said);
  });
  const storedTotal = [...storedByMeter.values()].reduce((a, b) => a + b, 0);
  const duplicates = await scalar(
    db,
    `select count(*) as n from (select meter_id, read_time from pms_data_read where tenant_id = $1
       group by meter_id, read_time having count(*) > 1) d`,
    [FLEET_TENANT],
  );
  // Lag at T: each meter's last read started by T, against its interval.
  const last = await db.query<{ last: string | null }>(
    `select (extract(epoch from max(r.read_time)) * 1000)::text as last
       from pms_meter m left join pms_data_read r on r.meter_id = m.id and r.tenant_id = m.tenant_id and r.read_time <= $2
      where m.tenant_id = $1 group by m.id`,
    [FLEET_TENANT, new Date(t1)],
  );
  const never = last.filter((r) => r.last === null).length;
  const lags = last
    .filter((r) => r.last !== null)
    .map((r) => t1 - Number(r.last) - intervalMs)
    .sort((a, b) => a - b);
  const [money] = await db.query<Record<string, string>>(
    `with reads as (select meter_id, count(*) as n, ((max(total_value) - min(total_value)) * 100)::bigint as span,
                           max(read_time) as last
                      from pms_data_read where tenant_id = $1 group by meter_id),
          charges as (select account_id, count(*) as n, coalesce(sum(usage), 0) as usage
                        from pms_ledger where tenant_id = $1 and entry_type = 6 group by account_id)
     select count(*)::text as accounts, coalesce(sum(c.n), 0)::text as charges,
            count(*) filter (where coalesce(c.n, 0) > coalesce(r.n, 0))::text as more_charges,
            count(*) filter (where coalesce(c.usage, 0) > coalesce(r.span, 0)
                                or a.cycle_total > coalesce(r.span, 0))::text as over_usage,
            count(*) filter (where a.priced_time is not null and a.priced_time = r.last)::text as priced_to_last,
            count(*) filter (where a.cycle_total = coalesce(r.span, 0))::text as usage_exact
       from pms_account a left join reads r on r.meter_id = a.meter_id left join charges c on c.account_id = a.id
      where a.tenant_id = $1`,
    [FLEET_TENANT],
  );
  const ledger = await checkLedger(db, FLEET_TENANT);
  const logOnly = await logOnlyRate(db, Math.min(METERS, 20_000));
  const doublePriced = Number(money!.more_charges) + Number(money!.over_usage);

  // The gateways read each meter's daily frozen data at its first poll of a local day (their
  // clock, not the meters'): a window over local midnight holds that round for every meter too.
  const dayOf = (at: number) => new Date(at).toLocaleDateString("sv-SE", { timeZone: GATEWAY_TIME_ZONE });
  if (dayOf(t0) !== dayOf(t1))
    console.log(
      `note: the window crossed midnight in ${GATEWAY_TIME_ZONE} (${dayOf(t0)} → ${dayOf(t1)}): every meter's first poll of the new day read its daily frozen data too (9 requests, not 4), a heavier round than the steady schedule's`,
    );
  console.log(
    `every DTU leased ${run.registeredS.toFixed(1)} s after the fleet started (${run.leases.map((l) => l.n).join(" + ")} leases); first round (with the day's frozen data) ${run.firstRoundS.toFixed(1)} s more; then the window of ${windowS.toFixed(0)} s`,
  );
  row(
    "reads stored a second (window)",
    (inWindow / windowS).toFixed(0),
    `${inWindow} rows with read_time in the window`,
  );
  row(
    "reference: reads asked by the schedule",
    (METERS / INTERVAL_S).toFixed(0),
    `${METERS} meters ÷ ${INTERVAL_S} s; ratio ${(inWindow / windowS / (METERS / INTERVAL_S)).toFixed(3)}`,
  );
  row(
    "reference: reading log alone",
    logOnly.toFixed(0),
    "rows/s, 1,000 a statement, same database, after the run",
  );
  row(
    "readings answered by the meters",
    String(answeredTotal),
    `whole run; ${run.answered.requests} requests, ${run.answered.replies} replies`,
  );
  row(
    "readings stored (reading log)",
    String(storedTotal),
    `${run.visibleAtEnd} visible at T; drained ${Math.max(0, run.drainS).toFixed(1)} s after hang-up`,
  );
  row("lost readings", String(lost), `extra ${extra}, duplicate (meter, time) rows ${duplicates}`);
  row(
    "double-priced accounts",
    String(doublePriced),
    `${money!.more_charges} with more charges than reads, ${money!.over_usage} charged above their span`,
  );
  row(
    "ledger check (balances = Σ entries)",
    ledger.length === 0 ? "consistent" : `${ledger.length} off`,
    `${money!.accounts} accounts, ${money!.charges} usage charges; ${money!.usage_exact} with cycle usage = first→last register, ${money!.priced_to_last} priced to their last read`,
  );
  row(
    "lag behind schedule at T, max",
    `${(lags.at(-1)! / 1000).toFixed(1)} s`,
    `p99 ${(percentile(lags, 0.99) / 1000).toFixed(1)} s, p50 ${(percentile(lags, 0.5) / 1000).toFixed(1)} s (≤ 0: on time; bound ${INTERVAL_S} s); never read: ${never}`,
  );
  run.children.forEach((child, i) => {
    row(
      `RSS ${child.name}, peak / at T`,
      `${mib(run.rss.peak.get(child.pid) ?? 0)} / ${mib(run.rssAtEnd.get(child.pid) ?? 0)}`,
      `CPU ${run.cpu[i]!.toFixed(1)} s in the window (${((100 * run.cpu[i]!) / windowS).toFixed(0)}% of a core)`,
    );
  });
  row(
    "machine CPU busy (all cores)",
    `${(100 * run.machineBusy).toFixed(0)}%`,
    "over the window: gateways, fleet, PostgreSQL and the rest",
  );
  row("gateway exit codes (SIGTERM)", run.codes.join(", "));

  const failures = [
    lost > 0 && `${lost} readings lost`,
    extra > 0 && `${extra} readings stored that no meter answered`,
    duplicates > 0 && `${duplicates} duplicate reading rows`,
    doublePriced > 0 && `${doublePriced} accounts priced twice`,
    ledger.length > 0 && `ledger check: ${ledger.length} mismatches`,
    never > 0 && `${never} meters never read`,
    lags.at(-1)! > intervalMs && `lag ${lags.at(-1)} ms beyond one interval`,
    run.codes.some((code) => code !== 0) && `gateway exit codes ${run.codes.join(", ")}`,
  ].filter(Boolean);
  if (failures.length > 0) fail(failures.join("; "));
  console.log("passed: 0 lost, 0 double-priced, lag within one interval");
}

await main();
