/**
 * Global search benchmark: a tenant with 10,000 rooms in a realistic area tree (2 parks × 10
 * buildings × 2 units × 25 floors × 10 rooms), an owner each, 10,000 electric and 2,000 water
 * meters behind 100 collectors, and a second tenant of the same size beside it (its rows must be
 * skipped, not found). Times the whole HTTP call of typical searches (a room by "building room", an
 * owner by phone, a meter by its last digits, one digit alone) against a plain primary-key read
 * through the same HTTP stack in the same run (meter/detail), and says whether the trigram indexes
 * were used.
 *   tsx bench/search.ts [--database pglite|postgres] [--runs 40]
 */
import { randomBytes } from "node:crypto";
import type { RoomHit } from "@meterline/contracts";
import type { FastifyInstance } from "fastify";
import { buildApp } from "../apps/server/src/app.ts";
import type { Db } from "../apps/server/src/db/client.ts";
import { md5Hex } from "../apps/server/src/modules/auth/password.ts";
import {
  BENCH_ADMIN_PASSWORD,
  count,
  type DatabaseKind,
  fail,
  freshDatabase,
  line,
  machine,
  percentile,
  settings,
  timed,
} from "./money-common.ts";
import { fillTenant, SEARCH_FLEET } from "./search-fill.ts";

const options = settings({ database: "pglite", runs: "40" });
const KIND = options.database as DatabaseKind;
const RUNS = count(options.runs, "runs");
const { rooms: ROOMS, waterShare: WATER_SHARE, collectors: COLLECTORS } = SEARCH_FLEET;
/** What "fast enough" is: the search box must feel instant (issue 11). */
const BUDGET_MS = 100;
const BASIC = `Basic ${Buffer.from("saber:saber_secret").toString("base64")}`;

async function login(app: FastifyInstance): Promise<string> {
  const res = await app.inject({
    method: "POST",
    url: "/api/blade-auth/oauth/token",
    query: {
      tenantId: "000000",
      username: "admin",
      password: md5Hex(BENCH_ADMIN_PASSWORD),
      grant_type: "password",
      scope: "all",
    },
    headers: { authorization: BASIC, "tenant-id": "000000" },
  });
  if (res.statusCode !== 200) throw new Error(`login failed: ${res.body}`);
  return res.json().access_token;
}

/** How often the search indexes were scanned so far (PostgreSQL's statistics; PGlite keeps them too). */
async function searchIndexScans(db: Db): Promise<number> {
  const [row] = await db.query<{ scans: string | null }>(
    "select sum(idx_scan)::text as scans from pg_stat_user_indexes where indexrelname like '%\\_search'",
  );
  return Number(row?.scans ?? 0);
}

async function main() {
  const database = await freshDatabase(KIND);
  const { db } = database;
  try {
    console.log(machine());
    console.log(`database: ${database.where}`);
    console.log(
      `per tenant: ${ROOMS} rooms (1,062 areas), ${ROOMS} owners, ${ROOMS} electric + ${ROOMS / WATER_SHARE} water meters, ${COLLECTORS} collectors; two tenants; ${RUNS} runs per query after one warm-up`,
    );
    const fill = await timed(async () => {
      await fillTenant(db, "000000", 0);
      await fillTenant(db, "900001", 100_000_000);
      await db.query("analyze");
    });
    line("fill both tenants (set-based SQL) + analyze", fill.ms);
    const app = await buildApp({
      db,
      config: {
        jwtSecret: randomBytes(32).toString("hex"),
        dataKey: randomBytes(32).toString("hex"),
        captchaEnabled: false,
        timeZone: "Asia/Shanghai",
      },
    });
    const token = await login(app);
    const get = async (url: string) => {
      const res = await app.inject({
        method: "GET",
        url,
        headers: { authorization: BASIC, "blade-auth": `bearer ${token}` },
      });
      if (res.statusCode !== 200) fail(`${url}: ${res.statusCode} ${res.body.slice(0, 200)}`);
      return res.json().data;
    };
    /** Median and 95th percentile of RUNS calls after a warm-up, and the last answer. */
    const measure = async (url: string) => {
      const answer = await get(url);
      const samples: number[] = [];
      for (let i = 0; i < RUNS; i++) samples.push((await timed(() => get(url))).ms);
      samples.sort((a, b) => a - b);
      return { answer, median: percentile(samples, 0.5), p95: percentile(samples, 0.95) };
    };

    const reference = await measure("/api/blade-pms/meter/detail?id=4000123");
    const row = (what: string, m: { median: number; p95: number }, extra = "") =>
      console.log(
        `${what.padEnd(44)} median ${m.median.toFixed(1).padStart(6)} ms   p95 ${m.p95.toFixed(1).padStart(6)} ms   ${(m.median / reference.median).toFixed(1).padStart(5)}× the reference${extra}`,
      );
    row("reference: meter/detail by primary key", reference);

    const phone = `13${String((4321 * 7919) % 1_000_000_000).padStart(9, "0")}`;
    const meterCode = String(7777 * 7919 + 12).padStart(12, "0");
    /** `indexed: false`: no word of three characters, so no trigram to look up: a scan, shown but not budgeted. */
    const cases: {
      what: string;
      keyword: string;
      check: (d: Record<string, unknown[]>) => boolean;
      indexed?: false;
    }[] = [
      {
        what: 'room by "3号楼 305"',
        keyword: "3号楼 305",
        check: (d) =>
          d.rooms!.length === 5 && d.rooms!.every((r) => /3号楼 \/.*305/.test((r as RoomHit).path)),
      },
      { what: "owner by whole phone", keyword: phone, check: (d) => d.owners!.length === 1 },
      { what: "owner by name", keyword: "业主4321", check: (d) => d.owners!.length >= 1 },
      {
        what: "meter by its last 6 digits",
        keyword: meterCode.slice(-6),
        check: (d) => d.meters!.length >= 1,
      },
      {
        what: "one digit alone (scan: no trigram)",
        keyword: "7",
        indexed: false,
        check: (d) => d.meters!.length === 5,
      },
      {
        what: "no match",
        keyword: "不存在的东西",
        check: (d) => Object.values(d).every((l) => l.length === 0),
      },
    ];
    const scansBefore = await searchIndexScans(db);
    let worst = 0;
    for (const c of cases) {
      const m = await measure(`/api/blade-pms/search?keyword=${encodeURIComponent(c.keyword)}`);
      const counts = Object.entries(m.answer as Record<string, unknown[]>)
        .map(([kind, rows]) => `${kind} ${rows.length}`)
        .join(", ");
      row(c.what, m, `   (${counts})`);
      if (!c.check(m.answer)) fail(`${c.what}: unexpected answer ${JSON.stringify(m.answer).slice(0, 300)}`);
      if (c.indexed !== false) worst = Math.max(worst, m.median);
    }
    const scans = (await searchIndexScans(db)) - scansBefore;
    console.log(`trigram search indexes scanned ${scans} times during the searches`);
    console.log(
      `slowest median of the indexed searches ${worst.toFixed(1)} ms against a budget of ${BUDGET_MS} ms (the console asks from two characters typed)`,
    );
    if (worst >= BUDGET_MS) fail(`a search took ${worst.toFixed(1)} ms (median), over ${BUDGET_MS} ms`);
    await app.close();
  } finally {
    await database.drop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
