import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { resources } from "@meterline/contracts";
import { resourceTableStatements } from "../src/crud/schema-sync.ts";
import type { Queryable } from "../src/db/client.ts";
import { migrate } from "../src/db/migrate.ts";
import { ensurePartitions } from "../src/db/partitions.ts";
import { type ElectricRegisters, electricDayRead } from "../src/modules/metering/daily-usage.db.ts";
import { type ElectricRead, insertElectricReads } from "../src/modules/metering/reading-log.db.ts";
import { sweepReadings } from "../src/modules/metering/reading-retention.ts";
import { startTestServer, type TestServer } from "./helpers.ts";

/** The partitions of a table, by name, in order. */
async function partitions(db: Queryable, table: string): Promise<string[]> {
  const rows = await db.query<{ relname: string }>(
    `select c.relname from pg_inherits i join pg_class c on c.oid = i.inhrelid
      where i.inhparent = to_regclass($1) order by c.relname`,
    [table],
  );
  return rows.map((r) => r.relname);
}

/** Every row of a table as text, in id order: equal digests mean the very same rows. */
async function digest(db: Queryable, table: string, where = "true"): Promise<{ rows: number; md5: string }> {
  const [row] = await db.query<{ rows: string; md5: string | null }>(
    `select count(*) as rows, md5(coalesce(string_agg(t::text, '|' order by id), '')) as md5 from ${table} t where ${where}`,
  );
  return { rows: Number(row!.rows), md5: row!.md5 ?? "" };
}

const kind = async (db: Queryable, table: string) =>
  (
    await db.query<{ relkind: string }>("select relkind from pg_class where oid = to_regclass($1)", [table])
  )[0]?.relkind;

/** Reads of one meter every `hours` from `from` (UTC) to `to`, with ids from `firstId`. */
async function addReads(db: Queryable, table: string, firstId: number, from: string, to: string, hours = 6) {
  await db.query(
    `insert into ${table} (id, tenant_id, meter_id, product_code, read_time, total_value, source, voided)
     select $1 + row_number() over (), '000000', 9001, '000000009001', t, 100 + extract(epoch from t) / 1e6, 'gateway', 0
       from generate_series($2::timestamptz, $3::timestamptz, make_interval(hours => $4)) t`,
    [firstId, from, to, hours],
  );
}

describe("readings partitioned by month", () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => server.close());

  test("the migration turns plain reading and daily tables with rows into months, keeping every row", async () => {
    const db = server.db;
    // The tables as an older Meterline made them: plain, the id alone as primary key.
    const plain = Object.values(resources).filter((def) =>
      ["pms_data_read", "pms_data_daily"].includes(def.table),
    );
    await db.query("drop table pms_data_read");
    await db.query("drop table pms_data_daily");
    for (const statement of resourceTableStatements(plain)) await db.query(statement);
    assert.equal(await kind(db, "pms_data_read"), "r");
    await addReads(db, "pms_data_read", 1000, "2025-01-20 00:00:00+00", "2025-03-31 23:59:00+00");
    // A row the writers would never leave without a time is kept all the same.
    await db.query(
      "insert into pms_data_read (id, tenant_id, meter_id, total_value) values (999, '000000', 9001, 1)",
    );
    await db.query(
      `insert into pms_data_daily (id, tenant_id, meter_id, day_date, start_value, end_value, usage, closed, update_time)
       select 5000 + row_number() over (), '000000', 9001, d, 1, 2, 1, 1, d
         from generate_series('2025-01-30'::date, '2025-02-02'::date, interval '1 day') d`,
    );
    const reads = await digest(db, "pms_data_read", "id <> 999");
    const days = await digest(db, "pms_data_daily");
    assert.ok(reads.rows > 250);

    // Asked again, as an operator would by deleting their records: the step converts these two
    // tables, and the reading source backfill that follows it runs on the partitioned table.
    await db.query(
      "delete from schema_migration where version in ('038_reading_partitions', 'after-resources/024_reading_source_backfill.sql')",
    );
    assert.ok((await migrate(db)).includes("038_reading_partitions"));

    assert.equal(await kind(db, "pms_data_read"), "p");
    assert.equal(await kind(db, "pms_data_daily"), "p");
    assert.deepEqual(await digest(db, "pms_data_read", "id <> 999"), reads, "every read, unchanged");
    assert.deepEqual(await digest(db, "pms_data_daily"), days, "every day, unchanged");
    assert.equal((await digest(db, "pms_data_read", "id = 999")).rows, 1, "the read without a time too");
    const months = await partitions(db, "pms_data_read");
    for (const m of ["202501", "202502", "202503"]) assert.ok(months.includes(`pms_data_read_p${m}`), m);
    assert.ok(months.includes("pms_data_read_default"));
    const [placed] = await db.query<{ part: string }>(
      "select tableoid::regclass::text as part from pms_data_read where read_time = '2025-02-28 18:00:00+00'",
    );
    assert.equal(placed?.part, "pms_data_read_p202502", "a read lands in the month of its UTC time");

    // The keys the writers rely on: (id, read time) is the primary key, the daily upsert's key holds.
    await assert.rejects(
      db.query(
        "insert into pms_data_read (id, tenant_id, meter_id, read_time) select id, tenant_id, meter_id, read_time from pms_data_read where id = 1001",
      ),
      /duplicate key/,
    );
    const target = { tenantId: "000000", meterId: "9001", roomId: null, productCode: "000000009001" };
    const at = (total: string): ElectricRegisters => [total, null, null, null, null];
    await electricDayRead(db, target, "2025-02-03", at("7.00"), new Date("2025-02-03T01:00:00Z"));
    await electricDayRead(db, target, "2025-02-03", at("9.00"), new Date("2025-02-03T02:00:00Z"));
    const day = await db.query<{ end_value: string; closed: number }>(
      "select end_value, closed from pms_data_daily where meter_id = 9001 and day_date = '2025-02-03'",
    );
    assert.deepEqual(
      day.map((r) => r.end_value),
      ["9.00"],
      "one row per meter and day, its end moved by the second read",
    );
    const earlier = await db.query<{ closed: number }>(
      "select closed from pms_data_daily where meter_id = 9001 and day_date < '2025-02-03'",
    );
    assert.ok(
      earlier.every((r) => r.closed === 1),
      "the first read of a day closes the days before it",
    );
  });

  test("the partition job makes the next months ahead and gives a read of an unexpected month its own", async () => {
    const db = server.db;
    const june2030 = new Date("2030-06-15T00:00:00Z");
    const made = await ensurePartitions(db, june2030);
    for (const m of ["203006", "203007", "203008", "203009"]) {
      assert.ok(made.includes(`pms_data_read_p${m}`), m);
      assert.ok(made.includes(`pms_water_data_daily_p${m}`), m);
    }
    assert.ok(!made.some((name) => name.includes("_his_")), "archives only receive whole months");
    assert.deepEqual(await ensurePartitions(db, june2030), [], "a second run finds nothing to do");

    // A meter clock years ahead: kept in the default partition, then given its month by the job.
    await addReads(db, "pms_water_data_read", 7000, "2041-01-05 00:00:00+00", "2041-01-05 12:00:00+00");
    const [stray] = await db.query<{ part: string }>(
      "select tableoid::regclass::text as part from pms_water_data_read where id = 7001",
    );
    assert.equal(stray?.part, "pms_water_data_read_default");
    assert.deepEqual(await ensurePartitions(db, june2030), ["pms_water_data_read_p204101"]);
    const moved = await db.query<{ part: string }>(
      "select distinct tableoid::regclass::text as part from pms_water_data_read where id between 7001 and 7003",
    );
    assert.deepEqual(
      moved.map((r) => r.part),
      ["pms_water_data_read_p204101"],
    );
    assert.equal((await digest(db, "pms_water_data_read_default")).rows, 0);
  });

  test("retention moves whole past months to history and keeps the others", async () => {
    const db = server.db;
    await db.query("update sys_param set param_value = '31' where param_key = 'reading.retentionDays'");
    await addReads(db, "pms_data_read", 20_000, "2024-04-01 00:00:00+00", "2024-05-31 18:00:00+00");
    const now = new Date("2024-07-10T00:00:00Z");
    // May ends 40 days before `now`, June only 10 days: April and May leave, June stays.
    await addReads(db, "pms_data_read", 30_000, "2024-06-01 00:00:00+00", "2024-06-30 18:00:00+00");
    // Months before any partition was made land in the default partition; the job gives them theirs.
    await ensurePartitions(db, now);
    const old = await digest(db, "pms_data_read", "read_time < '2024-06-01'");
    const june = await digest(db, "pms_data_read", "read_time >= '2024-06-01' and read_time < '2024-07-01'");
    const historyBefore = await digest(db, "pms_data_read_his");
    const daily = await digest(db, "pms_data_daily");

    const moved = await sweepReadings(db, now);
    // The months made by the first test (January to March 2025) are past too, by `now` they are not.
    assert.equal(moved, old.rows);
    const live = await partitions(db, "pms_data_read");
    assert.ok(!live.includes("pms_data_read_p202404") && !live.includes("pms_data_read_p202405"));
    assert.ok(live.includes("pms_data_read_p202406"), "June is still live");
    const history = await partitions(db, "pms_data_read_his");
    assert.ok(history.includes("pms_data_read_his_p202404") && history.includes("pms_data_read_his_p202405"));
    assert.deepEqual(
      await digest(db, "pms_data_read_his", "read_time < '2024-06-01'"),
      old,
      "moved unchanged",
    );
    assert.deepEqual(
      await digest(db, "pms_data_read", "read_time >= '2024-06-01' and read_time < '2024-07-01'"),
      june,
    );
    assert.equal((await digest(db, "pms_data_read", "read_time < '2024-06-01'")).rows, 0);
    assert.equal((await digest(db, "pms_data_read_his")).rows, historyBefore.rows + old.rows);
    assert.deepEqual(await digest(db, "pms_data_daily"), daily, "daily usage is not swept");
    assert.equal(await sweepReadings(db, now), 0, "a second sweep finds nothing more");
  });
});

describe("a month moved out of the default partition while it is written", () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => server.close());

  /** A gateway read of March 2019, a month with no partition yet: the id is its second of the month. */
  const read = (id: number): ElectricRead => ({
    id: String(id),
    tenantId: "000000",
    meterId: "9001",
    roomId: null,
    productCode: "000000009001",
    readTime: new Date(Date.UTC(2019, 2, 1) + id * 1000),
    registers: ["1.00", null, null, null, null],
    balance: null,
    switchStatus: null,
    missing: "",
  });

  test("every read the writers write while the job moves their month lands, once, in that month", async () => {
    const db = server.db;
    const month = "pms_data_read_p201903";
    assert.ok(!(await partitions(db, "pms_data_read")).includes(month), "March 2019 starts in the default");
    // Reads already waiting in the default partition, so that the move takes a while.
    const SEEDED = 20_000;
    await db.query(
      `insert into pms_data_read (id, tenant_id, meter_id, product_code, read_time, total_value, source, voided)
       select 2000000 + g, '000000', 9001, '000000009001', '2019-03-20 00:00:00+00'::timestamptz + make_interval(secs => g),
              1, 'gateway', 0
         from generate_series(1, $1::int) g`,
      [SEEDED],
    );

    // Four writers as the gateway's batch insert writes, 100 reads a statement with a breath
    // between statements as polls come in, until the job is done and 10,000 reads are written. A
    // refused statement is not retried: the gateway does not either.
    const WRITERS = 4;
    const BATCH = 100;
    const AT_LEAST = 10_000;
    let nextId = 1;
    let jobState: "waiting" | "running" | "done" = "waiting";
    let issuedWhileMoving = 0;
    const refused: string[] = [];
    const writer = async () => {
      while (jobState !== "done" || nextId <= AT_LEAST) {
        const first = nextId;
        nextId += BATCH;
        if (jobState === "running") issuedWhileMoving += 1;
        await insertElectricReads(
          db,
          Array.from({ length: BATCH }, (_, i) => read(first + i)),
        ).catch((error: Error) => refused.push(error.message));
        await new Promise((resolve) => setTimeout(resolve, Math.random() < 0.5 ? 0 : 1));
      }
    };
    let jobError = "";
    let made: string[] = [];
    const job = async () => {
      jobState = "running";
      made = await ensurePartitions(db).catch((error: Error) => {
        jobError = error.message;
        return [];
      });
      jobState = "done";
    };
    const waitFor = async (what: () => Promise<boolean>) => {
      while (!(await what())) await new Promise((resolve) => setTimeout(resolve, 5));
    };
    let writers: Promise<void>[] = [];
    let moving: Promise<void> = Promise.resolve();
    if (db.kind === "postgres") {
      // A report reading the log (as the console's pages do) holds the job up in the middle of its
      // move; the writers start while it waits, so they are sure to meet the move half done.
      const lockWaits = async () =>
        Number(
          (
            await db.query<{ n: string }>(
              "select count(*) as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'",
            )
          )[0]?.n,
        );
      await db.transaction(async (report) => {
        await report.query("select count(*) from pms_data_read");
        moving = job();
        await waitFor(async () => (await lockWaits()) >= 1);
        writers = Array.from({ length: WRITERS }, writer);
        await waitFor(async () => (await lockWaits()) >= 1 + WRITERS);
      });
    } else {
      // PGlite runs one statement at a time: the writers' statements queue before, after (never
      // inside) the job's transaction.
      writers = Array.from({ length: WRITERS }, writer);
      await waitFor(async () => nextId > 10 * BATCH);
      moving = job();
    }
    await Promise.all([...writers, moving]);

    const attempted = nextId - 1;
    assert.ok(attempted >= AT_LEAST);
    assert.ok(issuedWhileMoving >= WRITERS, "writes went on while the job moved the month");
    const [keys] = await db.query<{ rows: string; ids: string; low: string; high: string }>(
      `select count(*)::text as rows, count(distinct id)::text as ids, min(id)::text as low, max(id)::text as high
         from pms_data_read where id < 2000000 and read_time >= '2019-03-01' and read_time < '2019-04-01'`,
    );
    assert.deepEqual(
      keys,
      { rows: String(attempted), ids: String(attempted), low: "1", high: String(attempted) },
      "every written key is there exactly once",
    );
    assert.deepEqual(refused, [], "no write was refused");
    const places = await db.query<{ part: string; rows: string }>(
      `select tableoid::regclass::text as part, count(*)::text as rows from pms_data_read
        where read_time >= '2019-03-01' and read_time < '2019-04-01' group by 1`,
    );
    assert.deepEqual(places, [{ part: month, rows: String(attempted + SEEDED) }], "all in their month");
    assert.equal(jobError, "", "the job ran through");
    assert.ok(made.includes(month), "the month has its partition");
  });

  test("a job that waits too long for its table gives up for this run, keeps the rows and does the other tables", {
    skip: !process.env.TEST_DATABASE_URL && "PGlite has one connection: no lock is held while the job runs",
  }, async () => {
    const db = server.db;
    await db.query(
      `insert into pms_data_read (id, tenant_id, meter_id, product_code, read_time, total_value, source, voided)
         values (3000001, '000000', 9001, '000000009001', '2018-07-02 00:00:00+00', 1, 'gateway', 0)`,
    );
    await db.query(
      `insert into pms_water_data_read (id, tenant_id, meter_id, product_code, read_time, total_value, source, voided)
         values (3000002, '000000', 9002, '00000000009002', '2018-08-02 00:00:00+00', 1, 'gateway', 0)`,
    );
    // A long report on the electric log: the job waits 200 ms for it, then leaves that table be.
    // The report ends after 3 s in any case, so that a job that waited on would not wait forever.
    let failure = "";
    let job: Promise<unknown> = Promise.resolve();
    await db.transaction(async (report) => {
      await report.query("select count(*) from pms_data_read");
      job = ensurePartitions(db, new Date(), "200ms").catch((error: Error) => (failure = error.message));
      await Promise.race([job, new Promise((resolve) => setTimeout(resolve, 3000))]);
    });
    await job;
    assert.match(failure, /pms_data_read: canceling statement due to lock timeout/);
    assert.doesNotMatch(failure, /pms_water_data_read/);
    const place = async (table: string, id: number) =>
      (
        await db.query<{ part: string }>(
          `select tableoid::regclass::text as part from ${table} where id = $1`,
          [id],
        )
      )[0]?.part;
    assert.equal(await place("pms_data_read", 3000001), "pms_data_read_default", "kept where it was");
    assert.equal(
      await place("pms_water_data_read", 3000002),
      "pms_water_data_read_p201808",
      "the other table's turn came",
    );
    assert.deepEqual(await ensurePartitions(db), ["pms_data_read_p201807"], "the next run moves it");
  });
});
