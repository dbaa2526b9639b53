/**
 * Page benchmark (issue 12): the electric readings page (dataread/page) through the whole Meterline
 * stack (token, permissions, scopes, envelope, labels, API log) against a thin Fastify + pg server
 * running the very statements Meterline issued for the same page (the page with its total in one, captured
 * from one call), on the same table of 1,000,000 readings of 1,000 meters on PostgreSQL. Both are
 * driven by a child process keeping 20 keep-alive connections busy; prints requests per second and
 * p99 of both and their ratio, and what the unfiltered page (with its total) costs against the
 * same page filtered to one meter.
 *   tsx bench/page.ts [--rows 1000000] [--meters 1000] [--connections 20] [--seconds 4]
 * The database is created on BENCH_POSTGRES_URL's server (default postgres://postgres@127.0.0.1:5432)
 * and dropped at the end.
 */
import { type ChildProcess, fork } from "node:child_process";
import { randomBytes } from "node:crypto";
import type { AddressInfo } from "node:net";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import Fastify, { type FastifyInstance } from "fastify";
import pg from "pg";
import { buildApp } from "../apps/server/src/app.ts";
import type { Db } from "../apps/server/src/db/client.ts";
import { ensurePartitions } from "../apps/server/src/db/partitions.ts";
import { hashPassword, md5Hex } from "../apps/server/src/modules/auth/password.ts";
import type { LoadRequest, LoadResult } from "./http-load.ts";
import {
  BENCH_ADMIN_PASSWORD,
  count,
  fail,
  freshDatabase,
  line,
  machine,
  percentile,
  settings,
  timed,
} from "./money-common.ts";

const options = settings({ rows: "1000000", meters: "1000", connections: "20", seconds: "4", explain: "no" });
const ROWS = count(options.rows, "rows");
const METERS = count(options.meters, "meters");
const CONNECTIONS = count(options.connections, "connections");
const SECONDS = count(options.seconds, "seconds");
/** Each case's seconds are split over this many rounds, the cases taking turns. */
const ROUNDS = 2;
const BASIC = `Basic ${Buffer.from("saber:saber_secret").toString("base64")}`;
const PAGE = "/api/blade-pms/dataread/page?current=1&size=10";
/** Goals of issue 12. */
const GOAL_RATIO = 0.5;
const GOAL_P99_MS = 10;
const GOAL_UNFILTERED = 2;

/** The operator's tenant: the readings belong to it, and the page is read as its operators read it. */
const TENANT = "100001";
const OPERATOR = "reader";
const OPERATOR_PASSWORD = "bench-reader";
const AREA = 5_000_000;
const ROOM = 5_100_000;
const METER = 6_000_000;

/** Rooms and meters to link to (their labels are part of the page), then the readings, set-based. */
async function fill(db: Db): Promise<void> {
  // A tenant, and an operator of it whose role is granted the readings screen.
  await db.query("insert into sys_tenant (id, tenant_id, tenant_name) values (4000000, $1, '基准租户')", [
    TENANT,
  ]);
  await db.query(
    "insert into sys_role (id, tenant_id, role_name, role_alias) values (4000001, $1, '抄表员', 'reader')",
    [TENANT],
  );
  await db.query(
    "insert into sys_role_menu (id, role_id, menu_id) select 4000002, 4000001, id from sys_menu where code = 'dataRead'",
  );
  await db.query(
    `insert into sys_user (id, tenant_id, account, password, name, real_name, role_id, status)
     values (4000003, $1, $2, $3, $2, $2, '4000001', 1)`,
    [TENANT, OPERATOR, await hashPassword(md5Hex(OPERATOR_PASSWORD))],
  );
  await db.query(
    `insert into pms_area (id, tenant_id, parent_id, ancestors, area_name, area_type, sort)
     values ($1, $2, 0, '0', '基准园区', 1, 1)`,
    [AREA, TENANT],
  );
  await db.query(
    `insert into pms_room (id, tenant_id, area_id, room_name, room_type)
     select $1::bigint + g, $4, $2, g::text, 1 from generate_series(1, $3::int) g`,
    [ROOM, AREA, METERS, TENANT],
  );
  await db.query(
    `insert into pms_meter (id, tenant_id, product_code, protocol, meter_type, control_status, ct_ratio, run_status)
     select $1::bigint + g, $3, lpad(g::text, 12, '0'), 'dlt645_2007', 1, 0, 1, 1 from generate_series(1, $2::int) g`,
    [METER, METERS, TENANT],
  );
  // Every meter read once a quarter of an hour, newest first; registers grow with time.
  await db.query(
    `insert into pms_data_read (id, tenant_id, meter_id, room_id, product_code, read_time, total_value,
                                tip_value, peak_value, peace_value, low_value, balance, switch_status, missing)
     select 10000000 + g, $5, $1::bigint + m, $2::bigint + m, lpad(m::text, 12, '0'),
            timestamptz '2026-01-01' + (g / $3::int) * interval '15 minutes',
            (g / $3::int) * 0.25, 0, 0, 0, 0, 100 - (g % 97), 1, ''
       from generate_series(0, $4::int - 1) g, lateral (select 1 + g % $3::int as m) k`,
    [METER, ROOM, METERS, ROWS, TENANT],
  );
  // As a site's daily partition job leaves them: each month of reads in its own partition.
  await ensurePartitions(db);
  await db.query("vacuum analyze pms_data_read");
  await db.query("analyze");
}

async function login(app: FastifyInstance, tenantId: string, username: string, password: string) {
  const res = await app.inject({
    method: "POST",
    url: "/api/blade-auth/oauth/token",
    query: { tenantId, username, password: md5Hex(password), grant_type: "password", scope: "all" },
    headers: { authorization: BASIC, "tenant-id": tenantId },
  });
  if (res.statusCode !== 200) fail(`login: ${res.body}`);
  return res.json().access_token as string;
}

interface Figure {
  perSecond: number;
  p50: number;
  p99: number;
}

interface Statement {
  text: string;
  values: unknown[];
}

/**
 * The statements one call of `url` issues on the readings table: one, the page's rows carrying the
 * total in a `__total` column (crud/store.ts pageWithTotal), or a count and the rows.
 */
async function pageStatements(app: FastifyInstance, db: Db, url: string, headers: Record<string, string>) {
  const seen: Statement[] = [];
  const query = db.query.bind(db);
  db.query = ((text: string, values?: unknown[]) => {
    if (text.includes('"pms_data_read"') || text.includes("pms_data_read "))
      seen.push({ text, values: [...(values ?? [])] });
    return query(text, values);
  }) as Db["query"];
  const res = await app.inject({ method: "GET", url, headers });
  db.query = query;
  if (res.statusCode !== 200) fail(`${url}: ${res.statusCode} ${res.body.slice(0, 300)}`);
  if (seen.length !== 1 && seen.length !== 2)
    fail(`${url}: expected the page with its total, or a count and a page, saw ${seen.length} statements`);
  return { statements: seen, answer: res.json().data as { total: number; totalExact?: boolean } };
}

/** The thin reference: Fastify and a pg pool of the same size running the captured statements. */
async function referenceServer(url: string, routes: Record<string, Statement[]>) {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  // end() settles before its sockets are closed; the forced drop at the end may cut one of them.
  pool.on("error", () => {});
  const app = Fastify();
  for (const [path, statements] of Object.entries(routes)) {
    const [first, second] = statements;
    app.get(path, async () => {
      if (!second) {
        const { rows } = await pool.query(first!.text, first!.values);
        const total = Number(rows[0]?.__total ?? 0);
        for (const row of rows) delete row.__total;
        return { code: 200, data: { records: rows, total } };
      }
      const total = await pool.query(first!.text, first!.values);
      const rows = await pool.query(second.text, second.values);
      return { code: 200, data: { records: rows.rows, total: Number(total.rows[0].n) } };
    });
  }
  await app.listen({ host: "127.0.0.1", port: 0 });
  return { app, pool, origin: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}` };
}

function startLoad(): {
  child: ChildProcess;
  run: (request: Omit<LoadRequest, "type">) => Promise<LoadResult>;
} {
  const child = fork(fileURLToPath(new URL("./http-load.ts", import.meta.url)), [], {
    execArgv: ["--import", "tsx"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  let waiting: ((result: LoadResult) => void) | undefined;
  child.on("message", (message: LoadResult | { type: "ready" }) => {
    if (message.type === "result") waiting?.(message);
  });
  const run = (request: Omit<LoadRequest, "type">) =>
    new Promise<LoadResult>((resolve) => {
      waiting = resolve;
      child.send({ type: "load", ...request });
    });
  return { child, run };
}

/** The median time of one statement alone, over a few runs (no load). */
async function statementMs(db: Db, text: string, values: unknown[] = []) {
  const samples: number[] = [];
  for (let i = 0; i < 7; i++) samples.push((await timed(() => db.query(text, values))).ms);
  return percentile(
    samples.sort((a, b) => a - b),
    0.5,
  );
}

async function main() {
  const database = await freshDatabase("postgres");
  const { db } = database;
  const load = startLoad();
  let reference: Awaited<ReturnType<typeof referenceServer>> | undefined;
  let meterline: FastifyInstance | undefined;
  try {
    console.log(machine());
    console.log(`database: ${database.where}`);
    const filled = await timed(() => fill(db));
    line(`fill ${ROWS} readings of ${METERS} meters (generate_series) + vacuum analyze`, filled.ms, ROWS);

    meterline = await buildApp({
      db,
      config: {
        jwtSecret: randomBytes(32).toString("hex"),
        dataKey: randomBytes(32).toString("hex"),
        captchaEnabled: false,
        timeZone: "Asia/Shanghai",
      },
    });
    await meterline.listen({ host: "127.0.0.1", port: 0 });
    const origin = `http://127.0.0.1:${(meterline.server.address() as AddressInfo).port}`;
    const bearer = async (tenantId: string, account: string, password: string) => ({
      authorization: BASIC,
      "blade-auth": `bearer ${await login(meterline!, tenantId, account, password)}`,
    });
    const headers = await bearer(TENANT, OPERATOR, OPERATOR_PASSWORD);
    // The platform administrator reads across tenants: no tenant condition, each row's tenant named.
    const administrator = await bearer("000000", "admin", BENCH_ADMIN_PASSWORD);
    const filteredUrl = `${PAGE}&meterId=${METER + 7}`;
    const unfiltered = await pageStatements(meterline, db, PAGE, headers);
    const filtered = await pageStatements(meterline, db, filteredUrl, headers);
    if (filtered.answer.total !== ROWS / METERS || filtered.answer.totalExact !== true)
      fail(`the filtered page must count exactly: ${JSON.stringify(filtered.answer).slice(0, 200)}`);
    console.log(
      `unfiltered page answers total ${unfiltered.answer.total} (totalExact ${unfiltered.answer.totalExact}); ` +
        `filtered to one meter: total ${filtered.answer.total} (totalExact ${filtered.answer.totalExact})`,
    );
    reference = await referenceServer(database.url!, {
      "/unfiltered": unfiltered.statements,
      "/filtered": filtered.statements,
    });

    const fullCount = await statementMs(db, "select count(*) from pms_data_read");
    const pageAlone = await statementMs(db, unfiltered.statements[0]!.text, unfiltered.statements[0]!.values);
    console.log(
      `one statement alone (median of 7): count(*) of all ${ROWS} rows ${fullCount.toFixed(1)} ms; ` +
        `the unfiltered page's ${unfiltered.statements.length === 1 ? "statement (its rows and bounded total)" : "bounded count"} ${pageAlone.toFixed(2)} ms`,
    );
    // --explain yes: the plans of the unfiltered page's statements, to see where its time goes.
    if (options.explain === "yes") {
      for (const statement of unfiltered.statements) {
        const plan = await db.query<{ "QUERY PLAN": string }>(
          `explain (analyze, buffers) ${statement.text}`,
          statement.values,
        );
        console.log(`${statement.text}\n${plan.map((row) => row["QUERY PLAN"]).join("\n")}`);
        console.log(
          `alone (median of 7): ${(await statementMs(db, statement.text, statement.values)).toFixed(2)} ms`,
        );
      }
    }
    console.log(
      `load: ${CONNECTIONS} keep-alive connections from a child process, ${SECONDS} s per case in ${ROUNDS} rounds taking turns, after a 1 s warm-up each, page size 10, signed in as an operator of the readings' tenant (role granted the readings screen) unless said`,
    );
    // The cases take turns, round after round, so that a burst of other work on the machine
    // falls on all of them rather than on one.
    const cases = [
      { what: "Meterline dataread/page, one meter", at: origin, path: filteredUrl },
      { what: "reference, same statements, one meter", at: reference.origin, path: "/filtered" },
      { what: "Meterline dataread/page, unfiltered", at: origin, path: PAGE },
      { what: "reference, same statements, unfiltered", at: reference.origin, path: "/unfiltered" },
      { what: "Meterline unfiltered, platform administrator", at: origin, path: PAGE, as: administrator },
    ];
    const figures = cases.map(() => ({ latencies: [] as number[], wallMs: 0 }));
    for (const c of cases)
      await load.run({
        origin: c.at,
        path: c.path,
        headers: c.as ?? headers,
        connections: CONNECTIONS,
        durationMs: 1000,
      });
    for (let round = 0; round < ROUNDS; round++) {
      for (const [i, c] of cases.entries()) {
        const result = await load.run({
          origin: c.at,
          path: c.path,
          headers: c.as ?? headers,
          connections: CONNECTIONS,
          durationMs: (SECONDS * 1000) / ROUNDS,
        });
        if (result.failed > 0 || (JSON.parse(result.sample).data?.records?.length ?? 0) !== 10)
          fail(`${c.what}: ${result.failed} failed answers; sample ${result.sample.slice(0, 200)}`);
        figures[i]!.latencies.push(...result.latencies);
        figures[i]!.wallMs += result.wallMs;
      }
    }
    const [mf, rf, mu, ru, ma] = cases.map((c, i) => {
      const { latencies, wallMs } = figures[i]!;
      const sorted = latencies.sort((a, b) => a - b);
      const result = {
        perSecond: sorted.length / (wallMs / 1000),
        p50: percentile(sorted, 0.5),
        p99: percentile(sorted, 0.99),
      };
      console.log(
        `${c.what.padEnd(44)} ${result.perSecond.toFixed(0).padStart(6)} req/s   p50 ${result.p50.toFixed(1).padStart(6)} ms   p99 ${result.p99.toFixed(1).padStart(6)} ms   (${sorted.length} requests)`,
      );
      return result;
    }) as [Figure, Figure, Figure, Figure, Figure];

    const ratio = mf.perSecond / rf.perSecond;
    const ratioUnfiltered = mu.perSecond / ru.perSecond;
    const cost = mf.perSecond / mu.perSecond;
    const acrossTenants = mf.perSecond / ma.perSecond;
    console.log(
      `Meterline / reference throughput: filtered ${ratio.toFixed(2)}×, unfiltered ${ratioUnfiltered.toFixed(2)}× (goal ≥ ${GOAL_RATIO}×); ` +
        `Meterline p99 filtered ${mf.p99.toFixed(1)} ms, unfiltered ${mu.p99.toFixed(1)} ms (goal ≤ ${GOAL_P99_MS} ms)`,
    );
    console.log(
      `unfiltered page with its total costs ${cost.toFixed(2)}× the filtered page (time per request; goal ≤ ${GOAL_UNFILTERED}×); ` +
        `the platform administrator's, across tenants, ${acrossTenants.toFixed(2)}×`,
    );
    const verdict = (what: string, met: boolean) => console.log(`${met ? "met    " : "NOT MET"}  ${what}`);
    verdict(`throughput ratio ≥ ${GOAL_RATIO}× (filtered page)`, ratio >= GOAL_RATIO);
    verdict(`p99 ≤ ${GOAL_P99_MS} ms (filtered page)`, mf.p99 <= GOAL_P99_MS);
    // 20 connections kept busy answer at most 20 / throughput apart on average (Little's law): when
    // the thin reference, on the same cores as its client and PostgreSQL, cannot reach the absolute
    // p99 either, the machine hides that goal and the p99 against the reference is the figure.
    if (rf.p99 > GOAL_P99_MS) {
      console.log(
        `         the reference itself: p99 ${rf.p99.toFixed(1)} ms at ${rf.perSecond.toFixed(0)} req/s on ` +
          `${availableParallelism()} cores shared with its client and PostgreSQL; Meterline's p99 is ` +
          `${(mf.p99 / rf.p99).toFixed(2)}× the reference's`,
      );
    }
    verdict(`unfiltered page ≤ ${GOAL_UNFILTERED}× the filtered page`, cost <= GOAL_UNFILTERED);
    verdict(
      `the platform administrator's unfiltered page ≤ ${GOAL_UNFILTERED}× the filtered page`,
      acrossTenants <= GOAL_UNFILTERED,
    );
  } finally {
    load.child.send({ type: "exit" });
    await meterline?.close();
    await reference?.app.close();
    await reference?.pool.end();
    await database.drop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
