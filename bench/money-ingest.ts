/**
 * Readings ingest benchmark: the readings sink (what the gateway hands every poll to) with pricing
 * on, against the same ingest with pricing off, in one run on one database. Two sets of electric
 * meters of the same size, in rooms, with the same flat charging scheme: the priced set has open
 * remote-control accounts (the server keeps the balance, so every reading is priced, charged and
 * booked), the other none (the sink's lookup says so and skips pricing). Rounds alternate the two
 * sets, so both meet the same table sizes; each reading advances every register by 1.00 kWh.
 * Afterwards every priced account must have been charged exactly its usage at once, to the fen.
 *   tsx bench/money-ingest.ts [--meters 1000] [--rounds 6] [--concurrency 10] [--database postgres|pglite]
 *   (or METERS=… ROUNDS=… CONCURRENCY=… DATABASE=…)
 */
import type { MeterReading } from "@meterline/gateway";
import type { Db } from "../apps/server/src/db/client.ts";
import { DbReadingsSink } from "../apps/server/src/modules/metering/readings-sink.db.ts";
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

const options = settings({ meters: "1000", rounds: "6", concurrency: "10", database: "postgres" });
const METERS = count(options.meters, "meters");
const ROUNDS = count(options.rounds, "rounds");
const CONCURRENCY = Math.max(1, count(options.concurrency, "concurrency"));
const KIND = options.database as DatabaseKind;
if (KIND !== "postgres" && KIND !== "pglite") throw new Error("database: postgres or pglite");

const TENANT = "000000";
const TIME_ZONE = "Asia/Shanghai";
/** Readings every 15 minutes from here: fixed, so every run prices the same month. */
const FIRST_READING = Date.parse("2026-06-10T00:15:00+08:00");
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
     select g, $1, g, g, 1, g, 1, 1, 1, ${DEPOSIT}, '2026-06', ${START.join(", ")}, $2
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

/** Records the readings `concurrency` at a time, as the gateway's parallel polls do; each one's time kept. */
async function ingest(sink: DbReadingsSink, readings: MeterReading[], latencies: number[]): Promise<number> {
  const start = performance.now();
  let next = 0;
  const worker = async () => {
    while (next < readings.length) {
      const reading = readings[next++]!;
      const begun = performance.now();
      await sink.record(reading);
      latencies.push(performance.now() - begun);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return performance.now() - start;
}

/** Each priced account was charged its whole usage priced at once; the unpriced meters booked nothing. */
async function verify(db: Db): Promise<bigint> {
  // Flat price: ROUNDS kWh × 0.5883 yuan = ROUNDS × 58.83 fen, rounded half away from zero once.
  const charged = (BigInt(ROUNDS) * 5883n + 50n) / 100n;
  const [row] = await db.query<{ wrong: string; entries: string; other: string; reads: string }>(
    `select (select count(*) from pms_account a
              where a.balance <> ${DEPOSIT} - $1::bigint
                 or (select sum(amount) from pms_ledger l where l.account_id = a.id) <> a.balance)::text as wrong,
            (select count(*) from pms_ledger where entry_type = 6)::text as entries,
            (select count(*) from pms_ledger where account_id > ${METERS})::text as other,
            (select count(*) from pms_data_read)::text as reads`,
    [charged.toString()],
  );
  if (Number(row!.reads) !== 2 * METERS * ROUNDS)
    fail(`${row!.reads} readings stored, expected ${2 * METERS * ROUNDS}`);
  if (Number(row!.wrong) !== 0)
    fail(`${row!.wrong} priced accounts do not end at deposit − usage priced at once`);
  if (Number(row!.entries) !== METERS * ROUNDS)
    fail(`${row!.entries} usage charges booked, expected one per priced reading (${METERS * ROUNDS})`);
  if (Number(row!.other) !== 0) fail("the unpriced meters have ledger entries");
  return charged;
}

function print(what: string, ms: number, latencies: number[]): void {
  const sorted = [...latencies].sort((a, b) => a - b);
  console.log(
    `${what.padEnd(34)} ${(ms / 1000).toFixed(2).padStart(7)} s ${String(Math.round(latencies.length / (ms / 1000))).padStart(6)} readings/s   p50 ${percentile(sorted, 0.5).toFixed(1).padStart(6)} ms   p99 ${percentile(sorted, 0.99).toFixed(1).padStart(6)} ms   RSS ${mib(process.memoryUsage().rss)}`,
  );
}

async function main(): Promise<void> {
  console.log(machine());
  const bench: BenchDatabase = await freshDatabase(KIND);
  try {
    const { db } = bench;
    await fill(db);
    const sink = new DbReadingsSink(db, TIME_ZONE);
    console.log(`database: ${bench.where}`);
    console.log(
      `${METERS} priced meters (flat ${PRICE} 元/kWh, remote control, open account) and ${METERS} unpriced meters (no account), electric, in rooms with owners; ${ROUNDS} rounds of one reading per meter (15 minutes apart, +1.00 kWh each), the sets alternating round by round; ${CONCURRENCY} readings recorded at once (the pool has 10 connections)`,
    );
    // One round of each set first, off the clock: connections, JIT and caches warm for both.
    await ingest(
      sink,
      range(UNPRICED_BASE).map((id) => readingOf(id, 1)),
      [],
    );
    await ingest(
      sink,
      range(PRICED_BASE).map((id) => readingOf(id, 1)),
      [],
    );
    const off = { ms: 0, latencies: [] as number[] };
    const on = { ms: 0, latencies: [] as number[] };
    for (let round = 2; round <= ROUNDS; round++) {
      off.ms += await ingest(
        sink,
        range(UNPRICED_BASE).map((id) => readingOf(id, round)),
        off.latencies,
      );
      on.ms += await ingest(
        sink,
        range(PRICED_BASE).map((id) => readingOf(id, round)),
        on.latencies,
      );
    }
    const charged = await verify(db);
    console.log(`measured: rounds 2…${ROUNDS} (round 1 of both sets warms up)`);
    print("pricing off (no account)", off.ms, off.latencies);
    print("pricing on (priced and booked)", on.ms, on.latencies);
    const perOff = off.ms / off.latencies.length;
    const perOn = on.ms / on.latencies.length;
    console.log(
      `  ratio on / off: ${(perOn / perOff).toFixed(2)} (time per reading ${perOn.toFixed(2)} ms against ${perOff.toFixed(2)} ms)`,
    );
    console.log(
      `  verified: ${2 * METERS * ROUNDS} readings stored; each priced account charged ${text(charged)} 元 for ${ROUNDS}.00 kWh in ${ROUNDS} entries, the ledger sums to its balance; no entry for an unpriced meter`,
    );
    console.log(
      `peak RSS ${mib(process.resourceUsage().maxRSS * 1024)}, CPU user ${(process.cpuUsage().user / 1e6).toFixed(1)} s`,
    );
  } finally {
    await bench.drop();
  }
}

const range = (base: number) => Array.from({ length: METERS }, (_, i) => base + i);

await main();
