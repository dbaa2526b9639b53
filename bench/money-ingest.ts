/**
 * Readings ingest benchmark: the readings sink (what the gateway hands every poll to) with pricing
 * on, against the same ingest with pricing off, in one run on one database. Two sets of electric
 * meters of the same size, in rooms, with the same flat charging scheme: the priced set has open
 * remote-control accounts (the server keeps the balance, so every reading is priced, charged and
 * booked), the other none (the sink's lookup says so and skips pricing). Rounds alternate the two
 * sets, so both meet the same table sizes, and each set goes first every other round; each reading
 * advances every register by 1.00 kWh. Rounds 1 and 2 of both sets warm up off the clock.
 * Afterwards every priced account must have been charged exactly its usage at once, to the fen.
 * Every statement is counted by a wrapper around the database handle (a transaction's BEGIN and
 * COMMIT count as two), so round trips per reading are counted, not estimated. References from the
 * same run: the reading-log insert alone in batches of the same size (what the readings cost before
 * anything else is done with them), and a sample written by the per-reading path (`recordOne`, the
 * sink's fallback and its way before batching). The sink runs as the gateway runs it: meters'
 * places from the process's cache, and a reading's caller hears once it is stored while the stage
 * behind prices and judges; each round is timed until that stage is done, so the rates count
 * readings stored, priced and judged, and the latencies are a poll's persistence (hand-over to
 * stored).
 *   --concurrency: readings in flight at once, as many DTU sessions answering together (the sink
 *   batches what arrives while a batch is written). --burst yes: each round's readings all handed
 *   over in the same instant (every meter answering at the top of the hour).
 *   --remembered: the priced accounts the sink remembers (50,000, the gateway's default); a fleet
 *   larger than that is partly read each wave.
 *   PROFILE=1 adds each statement's total time, slowest first, and the CPU a reading took in this
 *   process and in the database's processes (this machine's); PROFILE=cpu also writes this
 *   process's CPU profile of each measured round.
 *   --rounds: 14 by default, so 12 rounds of each set are measured: a round is about a second, and
 *   this machine's speed moves by half from one second to the next (one run's rounds of the same
 *   set measured 6,700 to 12,500 readings a second), which four measured rounds did not average out.
 *   tsx bench/money-ingest.ts [--meters 10000] [--rounds 14] [--concurrency 1000] [--burst no]
 *                             [--remembered 50000] [--database postgres|pglite]
 *                             [--start ISO time of round 1]
 *                             (or METERS=… ROUNDS=… …)
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { Session } from "node:inspector";
import type { MeterReading } from "@meterline/gateway";
import { startSharedCache } from "../apps/server/src/cache/shared-cache.ts";
import type { Db, Queryable } from "../apps/server/src/db/client.ts";
import { nextId } from "../apps/server/src/db/ids.ts";
import { insertElectricReads } from "../apps/server/src/modules/metering/reading-log.db.ts";
import { DbReadingsSink } from "../apps/server/src/modules/metering/readings-sink.db.ts";
import { localDay } from "../apps/server/src/modules/metering/usage-periods.ts";
import { DEFAULT_PRICED_ACCOUNTS } from "../apps/server/src/modules/money/priced-accounts.ts";
import {
  type BenchDatabase,
  count,
  type DatabaseKind,
  fail,
  freshDatabase,
  machine,
  mib,
  percentile,
  settings,
} from "./money-common.ts";

const options = settings({
  meters: "10000",
  rounds: "14",
  concurrency: "1000",
  burst: "no",
  sample: "200",
  keep: "no",
  database: "postgres",
  start: "",
  remembered: String(DEFAULT_PRICED_ACCOUNTS),
});
const METERS = count(options.meters, "meters");
const ROUNDS = count(options.rounds, "rounds");
/** Rounds 1 and 2 of both sets warm up, off the clock (statistics are taken between them). */
const WARM_ROUNDS = 2;
if (ROUNDS <= WARM_ROUNDS)
  throw new Error(`rounds: more than ${WARM_ROUNDS} (the first ${WARM_ROUNDS} warm up)`);
const BURST = options.burst === "yes";
const CONCURRENCY = BURST ? Number.MAX_SAFE_INTEGER : Math.max(1, count(options.concurrency, "concurrency"));
const SAMPLE = Math.min(count(options.sample, "sample"), METERS);
/** The priced accounts the sink remembers (the gateway's default): fewer than --meters reads the rest each wave. */
const REMEMBERED = count(options.remembered, "remembered");
const KIND = options.database as DatabaseKind;
if (KIND !== "postgres" && KIND !== "pglite") throw new Error("database: postgres or pglite");

const TENANT = "000000";
const TIME_ZONE = "Asia/Shanghai";
/**
 * Readings every 15 minutes from the second day of this month (UTC): the month's own partition of
 * the reading log takes them, as in service (a month long past would land in the default partition).
 */
const FIRST_READING = (() => {
  // --start 2026-11-30T15:30:00Z: rounds from then (a local midnight or a month's first day between
  // two rounds shows what a day's and a month's first readings cost).
  if (options.start) {
    const at = Date.parse(options.start);
    if (!Number.isFinite(at)) throw new Error("start: an ISO time, e.g. 2026-11-30T15:30:00Z");
    return at;
  }
  const now = new Date();
  return Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 2, 0, 15);
})();
const INTERVAL_MS = 15 * 60_000;
const DEPOSIT = 1_000_000n;
const PRICE = "0.5883";
/** Registers in 0.01 kWh: total, then tip, peak, flat and valley, and each reading's step. */
const START = [1_000_000n, 100_000n, 300_000n, 400_000n, 200_000n] as const;
const STEP = [100n, 10n, 30n, 40n, 20n] as const;
/** The sets' meter ids: priced 1…n, unpriced after them. */
const PRICED_BASE = 1;
const UNPRICED_BASE = 1 + METERS;

/** Meters 1…2n, each in a room with an owner; the first n with an open remote-control account. */
async function fill(db: Db): Promise<void> {
  const total = 2 * METERS;
  await db.query(
    `insert into pms_charging_scheme (id, tenant_id, scheme_name, energy_type, price_mode, price)
     values (1, $1, '居民电价', 1, 1, ${PRICE})`,
    [TENANT],
  );
  await db.query(
    `insert into pms_alarm_scheme (id, tenant_id, scheme_name, energy_type, first_alarm, second_alarm, arrears_limit,
                                   trip_on_arrears)
     values (1, $1, '余额告警', 1, 50, 20, 10, 1)`,
    [TENANT],
  );
  await db.query(
    `insert into pms_meter (id, tenant_id, product_code, protocol, control_status, account_status, online_status,
                            charging_scheme_id, alarm_scheme_id)
     select g, $1, lpad(g::text, 12, '0'), 'dlt645-2007', 1, case when g <= ${METERS} then 1 else 0 end, 1, 1, 1
       from generate_series(1, ${total}) g`,
    [TENANT],
  );
  await db.query(
    `insert into pms_room (id, tenant_id, room_name, room_code) select g, $1, 'R' || g, 'R' || g
       from generate_series(1, ${total}) g`,
    [TENANT],
  );
  await db.query(
    `insert into pms_room_meter (id, tenant_id, room_id, energy_type, meter_id)
     select g, $1, g, 1, g from generate_series(1, ${total}) g`,
    [TENANT],
  );
  await db.query(
    `insert into pms_owner (id, tenant_id, owner_name, owner_code, balance)
     select g, $1, '业主' || g, 'O' || g, case when g <= ${METERS} then ${DEPOSIT} / 100.0 else 0 end
       from generate_series(1, ${total}) g`,
    [TENANT],
  );
  await db.query(
    `insert into pms_owner_room (id, tenant_id, owner_id, room_id) select g, $1, g, g from generate_series(1, ${total}) g`,
    [TENANT],
  );
  await db.query(
    `insert into pms_account (id, tenant_id, owner_id, room_id, energy_type, meter_id, control_status,
                              charging_scheme_id, alarm_scheme_id, balance, cycle_key, register_total, register_tip,
                              register_peak, register_peace, register_low, priced_time)
     select g, $1, g, g, 1, g, 1, 1, 1, ${DEPOSIT}, '${new Date(FIRST_READING).toISOString().slice(0, 7)}', ${START.join(", ")}, $2
       from generate_series(1, ${METERS}) g`,
    [TENANT, new Date(FIRST_READING - INTERVAL_MS)],
  );
  await db.query(
    `insert into pms_ledger (id, tenant_id, account_id, owner_id, entry_type, amount, balance_after, cause, creator,
                             create_time)
     select g, $1, g, g, 1, ${DEPOSIT}, ${DEPOSIT}, '开户预存', 'bench', $2 from generate_series(1, ${METERS}) g`,
    [TENANT, new Date(FIRST_READING - INTERVAL_MS)],
  );
  for (const table of ["pms_meter", "pms_room_meter", "pms_account", "pms_ledger", "pms_owner"])
    await db.query(`analyze ${table}`);
}

/** The database handle with every round trip counted: statements, and BEGIN and COMMIT of a transaction. */
const PROF = new Map<string, Map<string, number>>();
/** What the statements counted now belong to (PROFILE=1 prints the measured sets' apart). */
let phase = "warm-up";
/** CPU seconds used so far by every process named postgres on this machine (the server and its backends). */
function databaseCpu(): number {
  let ticks = 0;
  for (const pid of readdirSync("/proc")) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      if (!stat.includes("(postgres)")) continue;
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // gone meanwhile
    }
  }
  return ticks / 100;
}
const CPU = new Map<string, { node: number; database: number }>();
/** PROFILE=cpu: this process's CPU profile of each measured set's round, written to the working directory. */
const inspector = new Session();
let round = 0;
const inspect = (method: string) =>
  new Promise<unknown>((resolve, reject) =>
    inspector.post(method, (error, result) => (error ? reject(error) : resolve(result))),
  );
function counted(db: Db): { db: Db; trips: () => number } {
  let trips = 0;
  const countedQuery =
    (q: Queryable) =>
    async <T>(sql: string, params?: readonly unknown[]) => {
      trips++;
      const t0 = performance.now();
      try {
        return await q.query<T>(sql, params);
      } finally {
        if (process.env.PROFILE) {
          const key = sql.replace(/\s+/g, " ").trim().slice(0, 70);
          const took = performance.now() - t0;
          const into = PROF.get(phase) ?? new Map<string, number>();
          into.set(key, (into.get(key) ?? 0) + took);
          PROF.set(phase, into);
        }
      }
    };
  const wrapped: Db = Object.create(db) as Db;
  wrapped.query = countedQuery(db) as Db["query"];
  wrapped.transaction = <T>(fn: (tx: Queryable) => Promise<T>) => {
    trips += 2;
    return db.transaction((tx) => fn({ query: countedQuery(tx) as Queryable["query"] }));
  };
  return { db: wrapped, trips: () => trips };
}

const text = (units: bigint) => `${units / 100n}.${String(units % 100n).padStart(2, "0")}`;

/** Round r's reading of a meter, as the gateway hands a DL/T 645-2007 poll to the sink. */
function readingOf(meterId: number, round: number): MeterReading {
  const [total, ...bands] = START.map((start, i) => text(start + STEP[i]! * BigInt(round)));
  return {
    meterId: String(meterId),
    address: String(meterId).padStart(12, "0"),
    at: new Date(FIRST_READING + (round - 1) * INTERVAL_MS),
    energy: { total: total!, tariffs: bands },
    relay: "closed",
    missing: [],
  };
}

/**
 * The last ingest's drain: from its last reading stored to everything priced and judged (the waves
 * still behind the store when the set ran out). Part of the set's time, printed apart.
 */
let lastDrain = 0;

/** Settles when the sink has stored, priced and judged everything handed to it (set once it exists). */
let settled: () => Promise<void> = async () => undefined;

/**
 * Records the readings `concurrency` at a time, as many DTU sessions answering together do (all at
 * once in burst mode); each one's time from hand-over to stored is kept.
 */
async function ingest(
  record: (reading: MeterReading) => Promise<void>,
  readings: MeterReading[],
  latencies: number[],
  concurrency = CONCURRENCY,
): Promise<number> {
  const start = performance.now();
  let next = 0;
  const worker = async () => {
    while (next < readings.length) {
      const reading = readings[next++]!;
      const begun = performance.now();
      await record(reading);
      latencies.push(performance.now() - begun);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, readings.length) }, worker));
  const stored = performance.now();
  await settled();
  lastDrain = performance.now() - stored;
  return performance.now() - start;
}

/** The reference: the same readings' log rows alone, inserted in batches of the sink's size. */
async function logOnly(db: Db, readings: MeterReading[]): Promise<number> {
  const start = performance.now();
  for (let i = 0; i < readings.length; i += 1000) {
    await insertElectricReads(
      db,
      readings.slice(i, i + 1000).map((r) => ({
        id: nextId(),
        tenantId: TENANT,
        meterId: String(9_000_000 + Number(r.meterId)),
        roomId: null,
        productCode: r.address,
        readTime: r.at,
        registers: [r.energy!.total, ...r.energy!.tariffs] as [string, string, string, string, string],
        balance: null,
        switchStatus: 0,
        missing: "",
      })),
    );
  }
  return performance.now() - start;
}

/** Each priced account was charged its whole usage priced at once; the unpriced meters booked nothing. */
async function verify(db: Db): Promise<bigint> {
  // Flat price: each local month's kWh × 0.5883 yuan = 58.83 fen a round, rounded half away from
  // zero once a month (the pricing cycle; --start may put the rounds in two months).
  const chargedOver = (rounds: number) => {
    const kWhByMonth = new Map<string, bigint>();
    for (let round = 1; round <= rounds; round++) {
      const month = localDay(new Date(FIRST_READING + (round - 1) * INTERVAL_MS), TIME_ZONE).slice(0, 7);
      kWhByMonth.set(month, (kWhByMonth.get(month) ?? 0n) + 1n);
    }
    return [...kWhByMonth.values()].reduce((sum, kWh) => sum + (kWh * 5883n + 50n) / 100n, 0n);
  };
  const charged = chargedOver(ROUNDS);
  // The sample written by the per-reading path took one reading more.
  const sampled = chargedOver(ROUNDS + 1);
  const [row] = await db.query<{ wrong: string; entries: string; other: string; reads: string }>(
    `select (select count(*) from pms_account a
              where a.balance <> ${DEPOSIT} - case when a.id <= ${SAMPLE} then $2::bigint else $1::bigint end
                 or (select sum(amount) from pms_ledger l where l.account_id = a.id) <> a.balance)::text as wrong,
            (select count(*) from pms_ledger where entry_type = 6)::text as entries,
            (select count(*) from pms_ledger where account_id > ${METERS})::text as other,
            (select count(*) from pms_data_read)::text as reads`,
    [charged.toString(), sampled.toString()],
  );
  // Both sets every round, the log-only reference's rows (measured rounds), and the per-reading sample.
  const expected = 2 * METERS * ROUNDS + (ROUNDS - WARM_ROUNDS) * METERS + SAMPLE;
  if (Number(row!.reads) !== expected) fail(`${row!.reads} readings stored, expected ${expected}`);
  if (Number(row!.wrong) !== 0)
    fail(`${row!.wrong} priced accounts do not end at deposit − usage priced at once`);
  if (Number(row!.entries) !== METERS * ROUNDS + SAMPLE)
    fail(
      `${row!.entries} usage charges booked, expected one per priced reading (${METERS * ROUNDS + SAMPLE})`,
    );
  if (Number(row!.other) !== 0) fail("the unpriced meters have ledger entries");
  return charged;
}

interface Measured {
  ms: number;
  latencies: number[];
  trips: number;
}

function print(what: string, m: Measured): void {
  const sorted = [...m.latencies].sort((a, b) => a - b);
  const n = m.latencies.length;
  console.log(
    `${what.padEnd(34)} ${String(Math.round(n / (m.ms / 1000))).padStart(6)} readings/s   ${(m.trips / n).toFixed(3).padStart(6)} round trips/reading   poll stored p50 ${percentile(sorted, 0.5).toFixed(1).padStart(6)} ms  p99 ${percentile(sorted, 0.99).toFixed(1).padStart(6)} ms`,
  );
}

async function main(): Promise<void> {
  console.log(machine());
  const bench: BenchDatabase = await freshDatabase(KIND);
  try {
    await fill(bench.db);
    const { db, trips } = counted(bench.db);
    // As the gateway runs it: meters' places from the process's shared cache, and a poll heard of
    // once its reading is stored while the stage behind prices and judges (each round is timed
    // until that stage is done too, so the rates are readings stored, priced and judged).
    const shared = await startSharedCache(db);
    const sink = new DbReadingsSink(db, TIME_ZONE, {
      acknowledgeStored: true,
      rememberedAccounts: REMEMBERED,
    });
    const record = (reading: MeterReading) => sink.record(reading);
    settled = () => sink.idle();
    console.log(`database: ${bench.where}`);
    console.log(
      `${METERS} priced meters (flat ${PRICE} 元/kWh, remote control, open account) and ${METERS} unpriced meters (no account), electric, in rooms with owners; ${ROUNDS} rounds of one reading per meter (15 minutes apart, +1.00 kWh each), the sets alternating round by round, each first every other round; ${BURST ? "burst: each round's readings handed over at once" : `${CONCURRENCY} readings in flight at once`}; the sink batches up to 1,000 and remembers ${REMEMBERED} priced accounts`,
    );
    /** A round of both sets off the clock. */
    const warmUp = async (round: number) => {
      for (const base of [UNPRICED_BASE, PRICED_BASE])
        await ingest(
          record,
          range(base).map((id) => readingOf(id, round)),
          [],
        );
    };
    // Round 1 of each set first: connections, JIT and caches warm for both.
    await warmUp(1);
    // Statistics as autovacuum keeps them in service, now that the month's partitions have rows.
    for (const table of [
      "pms_data_read",
      "pms_data_daily",
      "pms_meter_current_data",
      "pms_account",
      "pms_ledger",
    ])
      await bench.db.query(`analyze ${table}`);
    // Round 2 of both sets, still off the clock: the statements' kept plans were dropped by the
    // statistics and are made again here (the first set to run after them paid for it, a tenth of
    // its rate in that round).
    await warmUp(2);
    const off: Measured = { ms: 0, latencies: [], trips: 0 };
    const on: Measured = { ms: 0, latencies: [], trips: 0 };
    const log: Measured = { ms: 0, latencies: [], trips: 0 };
    /** Each measured round's milliseconds of both sets: the spread is printed beside the totals. */
    const perRound: { off: number; on: number; drains: { off: number; on: number } }[] = [];
    const measure = async (into: Measured, run: () => Promise<number>, readings: number) => {
      phase = into === off ? "pricing off" : into === on ? "pricing on" : "other";
      const before = trips();
      const cpu = { node: process.cpuUsage().user + process.cpuUsage().system, database: databaseCpu() };
      if (process.env.PROFILE === "cpu") await inspect("Profiler.start");
      into.ms += await run();
      if (process.env.PROFILE === "cpu") {
        const { profile } = (await inspect("Profiler.stop")) as { profile: unknown };
        writeFileSync(`money-ingest.${phase.replace(" ", "-")}.${round}.cpuprofile`, JSON.stringify(profile));
      }
      const used = CPU.get(phase) ?? { node: 0, database: 0 };
      used.node += (process.cpuUsage().user + process.cpuUsage().system - cpu.node) / 1e6;
      used.database += databaseCpu() - cpu.database;
      CPU.set(phase, used);
      into.trips += trips() - before;
      if (into === log) into.latencies.push(...Array.from({ length: readings }, () => 0));
    };
    if (process.env.PROFILE === "cpu") {
      inspector.connect();
      await inspect("Profiler.enable");
    }
    for (round = WARM_ROUNDS + 1; round <= ROUNDS; round++) {
      const unpriced = range(UNPRICED_BASE).map((id) => readingOf(id, round));
      const priced = range(PRICED_BASE).map((id) => readingOf(id, round));
      const drains = { off: 0, on: 0 };
      const offRound = () =>
        measure(off, () => ingest(record, unpriced, off.latencies), METERS).then(() => {
          drains.off = lastDrain;
        });
      const onRound = () =>
        measure(on, () => ingest(record, priced, on.latencies), METERS).then(() => {
          drains.on = lastDrain;
        });
      // Each set goes first every other round: neither always runs just after the log-only burst
      // or always inherits the other's background work (WAL, checkpoints, pruning).
      const before = { off: off.ms, on: on.ms };
      if (round % 2 === 0) await offRound().then(onRound);
      else await onRound().then(offRound);
      perRound.push({ off: off.ms - before.off, on: on.ms - before.on, drains });
      await measure(log, () => logOnly(db, priced), METERS);
    }
    const batched = { ...sink.counts };
    // The per-reading path on a sample of the priced meters, one more round, 10 at a time (as before batching).
    const before: Measured = { ms: 0, latencies: [], trips: 0 };
    const sample = range(PRICED_BASE)
      .slice(0, SAMPLE)
      .map((id) => readingOf(id, ROUNDS + 1));
    await measure(before, () => ingest((r) => sink.recordOne(r), sample, before.latencies, 10), SAMPLE);
    await shared.stop();
    const charged = await verify(bench.db);
    console.log(`measured: rounds ${WARM_ROUNDS + 1}…${ROUNDS} (rounds 1 and 2 of both sets warm up)`);
    print("pricing off (no account)", off);
    print("pricing on (priced and booked)", on);
    print("reference: reading log alone", log);
    print("reference: per-reading path", before);
    const { waves, readings } = batched;
    console.log(
      `  batches: ${waves} waves stored by the sink in rounds 1…${ROUNDS}, ${(readings / waves).toFixed(0)} readings each on average`,
    );
    const { hits, loaded } = shared.cache.counts.meterPlace;
    const forgotten = shared.cache.drops.meterPlace;
    console.log(
      `  meters' places: ${hits} lookups answered by the process's cache, ${loaded} read from the database, forgotten ${forgotten} times`,
    );
    const rate = (m: Measured) => m.latencies.length / (m.ms / 1000);
    const rates = (set: "off" | "on") => perRound.map((r) => Math.round(METERS / (r[set] / 1000))).join(" ");
    console.log(`  each round (readings/s): pricing off ${rates("off")}; pricing on ${rates("on")}`);
    const drained = (set: "off" | "on") => perRound.map((r) => r.drains[set].toFixed(0)).join(" ");
    console.log(
      `  each round's drain, its last reading stored to all priced and judged (ms, in its time): pricing off ${drained("off")}; pricing on ${drained("on")}`,
    );
    console.log(
      `  ratio on / off ${(rate(on) / rate(off)).toFixed(2)}; priced against the log alone ${(rate(on) / rate(log)).toFixed(2)}; priced batched against per reading ${(rate(on) / rate(before)).toFixed(1)}×`,
    );
    console.log(
      `  verified: ${2 * METERS * ROUNDS + SAMPLE} readings stored; each priced account charged ${text(charged)} 元 for ${ROUNDS}.00 kWh in ${ROUNDS} entries (the sample one more), the ledger sums to its balance; no entry for an unpriced meter`,
    );
    if (process.env.PROFILE)
      for (const set of ["pricing off", "pricing on"]) {
        const statements = [...(PROF.get(set) ?? [])].sort((a, b) => b[1] - a[1]);
        const total = statements.reduce((sum, [, ms]) => sum + ms, 0);
        const cpu = CPU.get(set)!;
        const perReading = (seconds: number) =>
          ((seconds * 1e6) / (METERS * (ROUNDS - WARM_ROUNDS))).toFixed(0);
        console.log(
          `  ${set}: CPU per reading ${perReading(cpu.node)} µs in this process, ${perReading(cpu.database)} µs in the database`,
        );
        console.log(
          `  ${set}, ms waited on each statement in rounds ${WARM_ROUNDS + 1}…${ROUNDS} (all: ${total.toFixed(0)} ms):`,
        );
        for (const [k, v] of statements.slice(0, 20)) console.log(v.toFixed(0).padStart(8), k);
      }
    console.log(
      `peak RSS ${mib(process.resourceUsage().maxRSS * 1024)}, CPU user ${(process.cpuUsage().user / 1e6).toFixed(1)} s`,
    );
  } finally {
    // --keep yes: the database stays for a look at its plans afterwards (named in the output).
    if (options.keep === "yes") await bench.db.close();
    else await bench.drop();
  }
}

const range = (base: number) => Array.from({ length: METERS }, (_, i) => base + i);

await main();
