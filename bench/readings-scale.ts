/**
 * Readings at scale (issue 21): a volume of quarter-hourly electric reads on the PostgreSQL server,
 * written through the reading log's multi-row insert by several processes at once, then what a site
 * of that size asks of it every day:
 *   - ingest: rows per second of each process and of all together, and the bytes a row takes;
 *   - one meter's 30-day page (the newest 20 with the range's count) and the whole 30 days;
 *   - a day's daily-usage close: every meter's first and last read of a local day into its daily
 *     row, closed (set-based, once and again as a re-run);
 *   - retention: a month deleted row by row in batches (as the sweep did before partitions; rolled
 *     back), the sweep moving whole months to history, and a month dropped as a partition.
 *   tsx bench/readings-scale.ts [--meters 10000] [--days 90] [--minutes 15] [--processes 2]
 *                               [--batch 1000] [--concurrency 2]
 * The default is 10,000 meters × 90 days × 96 reads a day = 86.4 million reads (about 24 GB with
 * its indexes); `--meters 1000` gives 8.64 million. The reads end at the start of the current month (UTC). The database is created on
 * BENCH_POSTGRES_URL's server (default postgres://postgres@127.0.0.1:5432) and dropped at the end.
 */
import { fork } from "node:child_process";
import { freemem, totalmem } from "node:os";
import { fileURLToPath } from "node:url";
import type { Db } from "../apps/server/src/db/client.ts";
import {
  addMonths,
  ensurePartitions,
  type Month,
  monthOf,
  partitionName,
} from "../apps/server/src/db/partitions.ts";
import { sweepReadings } from "../apps/server/src/modules/metering/reading-retention.ts";
import {
  count,
  fail,
  freshDatabase,
  line,
  machine,
  mib,
  percentile,
  settings,
  timed,
} from "./money-common.ts";
import type { IngestRequest, IngestResult } from "./readings-ingest-worker.ts";

const options = settings({
  meters: "10000",
  days: "90",
  minutes: "15",
  processes: "2",
  batch: "1000",
  concurrency: "2",
});
const METERS = count(options.meters, "meters");
const DAYS = count(options.days, "days");
const MINUTES = count(options.minutes, "minutes");
const PROCESSES = Math.max(1, count(options.processes, "processes"));
const BATCH = Math.max(1, count(options.batch, "batch"));
const CONCURRENCY = Math.max(1, count(options.concurrency, "concurrency"));
const TENANT = "100001";
const FIRST_METER = 6_000_001;
const DAY_MS = 86_400_000;
const TIME_ZONE = "Asia/Shanghai";
/** Rows per statement of the row-by-row delete, as the sweep before partitions used. */
const DELETE_BATCH = 10_000;

const utcMonthStart = (m: Month) => new Date(Date.UTC(m.year, m.month - 1, 1));

/** Each process writes the reads of its share of the meters; answers each one's rows and time. */
async function ingestAll(url: string, from: number, steps: number): Promise<IngestResult[]> {
  const share = Math.ceil(METERS / PROCESSES);
  const runs = Array.from({ length: PROCESSES }, (_, i) => {
    const meters = Math.min(share, METERS - i * share);
    const request: IngestRequest = {
      url,
      tenantId: TENANT,
      firstMeter: FIRST_METER + i * share,
      meters,
      from,
      steps,
      stepMs: MINUTES * 60_000,
      batch: BATCH,
      concurrency: CONCURRENCY,
    };
    const child = fork(fileURLToPath(new URL("./readings-ingest-worker.ts", import.meta.url)), [], {
      execArgv: ["--import", "tsx"],
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
    return new Promise<IngestResult>((resolve, reject) => {
      child.on("message", (message: { type: string } & IngestResult) => {
        if (message.type === "ready") child.send(request);
        else resolve({ rows: message.rows, ms: message.ms });
      });
      child.on("exit", (code) => {
        if (code !== 0) reject(new Error(`ingest process ${i} exited with ${code}`));
      });
    });
  });
  return Promise.all(runs);
}

async function bytesOf(db: Db, table: string): Promise<number> {
  const [row] = await db.query<{ bytes: string | null }>(
    `select sum(pg_total_relation_size(inhrelid)) as bytes from pg_inherits where inhparent = to_regclass($1)`,
    [table],
  );
  return Number(row?.bytes ?? 0);
}

/** The median and the worst of `runs` timings of `fn`, after one warm-up run. */
async function sample(runs: number, fn: () => Promise<unknown>): Promise<{ p50: number; max: number }> {
  await fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) times.push((await timed(fn)).ms);
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 0.5), max: times.at(-1)! };
}

async function main(): Promise<void> {
  console.log(`readings-scale: ${machine()}, memory ${mib(totalmem())} (${mib(freemem())} free)`);
  const bench = await freshDatabase("postgres");
  try {
    const { db } = bench;
    const now = new Date();
    const end = utcMonthStart(monthOf(now)).getTime();
    const from = end - DAYS * DAY_MS;
    const steps = (DAYS * DAY_MS) / (MINUTES * 60_000);
    console.log(
      `conditions: ${bench.where}; ${METERS} meters × ${DAYS} days every ${MINUTES} min = ${METERS * steps} reads ` +
        `from ${new Date(from).toISOString()} to ${new Date(end).toISOString()}; ${PROCESSES} ingest processes, ` +
        `${BATCH} rows per insert, ${CONCURRENCY} inserts in flight per process`,
    );
    // The months of the data exist before it arrives, as the partition job keeps them in production.
    for (let m = monthOf(new Date(from)); utcMonthStart(m).getTime() < end; m = addMonths(m, 1))
      await ensurePartitions(db, utcMonthStart(m));

    const started = performance.now();
    const results = await ingestAll(bench.url!, from, steps);
    const wall = performance.now() - started;
    results.forEach((r, i) => {
      line(`ingest, process ${i + 1} of ${PROCESSES}`, r.ms, r.rows);
    });
    const rows = results.reduce((sum, r) => sum + r.rows, 0);
    line(`ingest, all ${PROCESSES} processes together`, wall, rows);
    const [{ n } = { n: "0" }] = await db.query<{ n: string }>("select count(*) as n from pms_data_read");
    if (Number(n) !== rows) fail(`${rows} reads written, ${n} stored`);
    await db.query("vacuum analyze pms_data_read");
    const bytes = await bytesOf(db, "pms_data_read");
    console.log(
      `stored: ${n} reads, ${mib(bytes)} with indexes = ${Math.round(bytes / Number(n))} bytes a read; ` +
        `${METERS * (DAY_MS / (MINUTES * 60_000))} reads a day`,
    );

    // One meter's last 30 days: the page the console shows first, then the whole range.
    const meter = FIRST_METER + Math.floor(METERS / 2);
    const range = [TENANT, meter, new Date(end - 30 * DAY_MS), new Date(end)];
    const where = "tenant_id = $1 and meter_id = $2 and read_time >= $3 and read_time < $4";
    const page = await sample(20, () =>
      Promise.all([
        db.query(`select * from pms_data_read where ${where} order by read_time desc limit 20`, range),
        db.query(`select count(*) from pms_data_read where ${where}`, range),
      ]),
    );
    console.log(
      `one meter's 30-day page (20 rows and the count): p50 ${page.p50.toFixed(2)} ms, max ${page.max.toFixed(2)} ms`,
    );
    const whole = await sample(10, () =>
      db.query(`select read_time, total_value from pms_data_read where ${where} order by read_time`, range),
    );
    console.log(
      `one meter's 30 days, every read: p50 ${whole.p50.toFixed(2)} ms, max ${whole.max.toFixed(2)} ms`,
    );

    // The last whole local day of the data, closed for every meter from its reads.
    const day = new Date(end - 2 * DAY_MS).toISOString().slice(0, 10);
    const close = `
      with firsts as (
        select meter_id, min(product_code) as product_code,
               (array_agg(total_value order by read_time))[1] as opening,
               (array_agg(total_value order by read_time desc))[1] as closing
          from pms_data_read
         where tenant_id = $1 and read_time >= ($2::date)::timestamp at time zone $3
           and read_time < ($2::date + 1)::timestamp at time zone $3
         group by meter_id)
      insert into pms_data_daily as d (id, tenant_id, meter_id, product_code, day_date, start_value, end_value,
                                       usage, start_source, closed, update_time)
      select $4::bigint + row_number() over (), $1, meter_id, product_code, $2::date, opening, closing,
             closing - opening, 'reading', 1, now()
        from firsts
      on conflict (tenant_id, meter_id, day_date) do update set
        end_value = excluded.end_value, usage = excluded.end_value - d.start_value, closed = 1
      returning 1`;
    const closed = await timed(() => db.query(close, [TENANT, day, TIME_ZONE, 900_000_000_000]));
    line(`daily-usage close of ${day}, every meter`, closed.ms, closed.value.length);
    const again = await timed(() => db.query(close, [TENANT, day, TIME_ZONE, 910_000_000_000]));
    line(`the same close again (idempotent re-run)`, again.ms, again.value.length);

    // Retention: the oldest whole month of the data.
    const month = addMonths(monthOf(new Date(from)), 1);
    const monthFrom = utcMonthStart(month);
    const monthTo = utcMonthStart(addMonths(month, 1));
    const [{ n: monthRows } = { n: "0" }] = await db.query<{ n: string }>(
      "select count(*) as n from pms_data_read where read_time >= $1 and read_time < $2",
      [monthFrom, monthTo],
    );
    console.log(`retention of ${monthFrom.toISOString().slice(0, 7)}: ${monthRows} reads`);
    const rollback = new Error("rolled back");
    const rowByRow = await timed(async () => {
      let deleted = 0;
      await db
        .transaction(async (tx) => {
          for (;;) {
            const batch = await tx.query(
              `delete from pms_data_read where id in (
                 select id from pms_data_read where tenant_id = $1 and read_time >= $2 and read_time < $3 limit ${DELETE_BATCH})
               returning 1`,
              [TENANT, monthFrom, monthTo],
            );
            deleted += batch.length;
            if (batch.length < DELETE_BATCH) break;
          }
          throw rollback;
        })
        .catch((error: unknown) => {
          if (error !== rollback) throw error;
        });
      return deleted;
    });
    line(`  row by row, batches of ${DELETE_BATCH} (rolled back)`, rowByRow.ms, rowByRow.value);
    // The sweep as it runs 32 days after that month ended, keeping 31 days: that month (and any
    // before it) leaves, the next stays.
    await db.query("update sys_param set param_value = '31' where param_key = 'reading.retentionDays'");
    const swept = await timed(() => sweepReadings(db, new Date(monthTo.getTime() + 32 * DAY_MS)));
    line("  the sweep: every month past the cutoff, detached and attached to history", swept.ms, swept.value);
    const part = partitionName("pms_data_read_his", month);
    const dropped = await timed(() => db.query(`drop table ${part}`));
    line(`  dropping the month's partition from history`, dropped.ms);
    console.log(
      `  row-by-row delete / partition drop = ${Math.round(rowByRow.ms / Math.max(dropped.ms, 0.01))}×, ` +
        `/ whole-month move = ${(rowByRow.ms / swept.ms).toFixed(1)}×`,
    );
  } finally {
    await bench.drop();
  }
}

await main();
