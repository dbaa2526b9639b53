/**
 * The SQL chain of one authenticated list call (GET /api/blade-system/post/list as a user whose role
 * is granted every menu, so grants, API scopes, data scopes and dictionary labels all apply).
 * Prints the SQL statements per call before (shared cache off, every call logged at once, as the
 * server did) and after (shared cache on, the API log batched and keeping writes, errors and slow
 * calls), and requests/s of both next to a thin Fastify server running the page's own SQL on the
 * same database in the same run. Embedded PGlite by default; BENCH_DATABASE_URL for PostgreSQL.
 *   npx tsx bench/request-chain.ts
 */
import { type ChildProcess, fork } from "node:child_process";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import Fastify, { type FastifyInstance } from "fastify";
import { buildApp } from "../apps/server/src/app.ts";
import { type Db, openDb, type Queryable } from "../apps/server/src/db/client.ts";
import { migrate } from "../apps/server/src/db/migrate.ts";
import { seed } from "../apps/server/src/db/seed.ts";
import { md5Hex } from "../apps/server/src/modules/auth/password.ts";
import { DEFAULT_API_LOG } from "../apps/server/src/plugins/api-log.ts";
import { addRole, addUser } from "../apps/server/test/fixtures.ts";
import type { Burst, BurstResult } from "./http-burst.ts";

const BASIC = `Basic ${Buffer.from("saber:saber_secret").toString("base64")}`;
const LIST = "/api/blade-system/post/list?current=1&size=10";
const COUNTED_CALLS = 20;
const CONCURRENCY = 20;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);

/** A handle on `db` that counts every statement sent through it (transactions included). */
function counting(db: Db): { db: Db; count: () => number } {
  let statements = 0;
  const counted = (q: Queryable): Queryable => ({
    query: (sql, params) => {
      statements++;
      return q.query(sql, params);
    },
  });
  const wrapper: Db = {
    kind: db.kind,
    query: counted(db).query,
    transaction: (fn) => db.transaction((tx) => fn(counted(tx))),
    watchChanges: (watcher) => db.watchChanges(watcher),
    script: (sql) => db.script(sql),
    close: () => db.close(),
  };
  return { db: wrapper, count: () => statements };
}

async function serve(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: "127.0.0.1" });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

function startClient(): { child: ChildProcess; burst: (message: Burst) => Promise<BurstResult> } {
  const child = fork(fileURLToPath(new URL("./http-burst.ts", import.meta.url)), [], {
    execArgv: ["--import", "tsx"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  let waiting: ((result: BurstResult) => void) | undefined;
  child.on("message", (message: BurstResult | { type: "ready" }) => {
    if (message.type === "result") waiting?.(message);
  });
  const burst = (message: Burst) =>
    new Promise<BurstResult>((resolve) => {
      waiting = resolve;
      child.send(message);
    });
  return { child, burst };
}

/** Requests/s of CONCURRENCY callers repeating GET `path` for SECONDS. */
async function rate(burst: (m: Burst) => Promise<BurstResult>, origin: string, token: string, path: string) {
  const requests = Array.from({ length: CONCURRENCY }, () => ({ method: "GET" as const, path }));
  const headers = { authorization: BASIC, "blade-auth": `bearer ${token}` };
  let done = 0;
  let wallMs = 0;
  while (wallMs < SECONDS * 1000) {
    const result = await burst({ type: "burst", origin, headers, requests });
    const bad = result.answers.find((a) => a.status !== 200);
    if (bad) throw new Error(`${path} answered ${bad.status}: ${bad.body.slice(0, 200)}`);
    done += result.answers.length;
    wallMs += result.wallMs;
  }
  return (done / wallMs) * 1000;
}

async function main() {
  const raw = await openDb({ databaseUrl: process.env.BENCH_DATABASE_URL });
  await migrate(raw);
  await seed(raw, { adminPassword: "admin" });
  const config = {
    jwtSecret: "b".repeat(40),
    dataKey: "d".repeat(40),
    captchaEnabled: false,
    timeZone: "Asia/Shanghai",
  };
  // Before: every call written to the log as it ends and nothing cached, as the server used to.
  const before = counting(raw);
  const old = await buildApp({
    db: before.db,
    config: { ...config, apiLog: { ...DEFAULT_API_LOG, all: true } },
  });
  old.sharedCache.listening(false);
  const after = counting(raw);
  const now = await buildApp({ db: after.db, config });

  const role = await addRole(raw, "000000", "benchClerk");
  await raw.query("insert into sys_role_menu (id, role_id, menu_id) select id, $1, id from sys_menu", [role]);
  await addUser(raw, { tenantId: "000000", account: "bench", password: "bench-pw", roleIds: [role] });
  const login = await now.inject({
    method: "POST",
    url: "/api/blade-auth/oauth/token",
    query: {
      tenantId: "000000",
      username: "bench",
      password: md5Hex("bench-pw"),
      grant_type: "password",
      scope: "all",
    },
    headers: { authorization: BASIC },
  });
  const token = login.json().access_token as string;
  for (let i = 0; i < 30; i++) {
    await now.inject({
      method: "POST",
      url: "/api/blade-system/post/submit",
      headers: { authorization: BASIC, "blade-auth": `bearer ${token}` },
      payload: { category: 1 + (i % 2), postCode: `b${i}`, postName: `岗位${i}`, sort: i },
    });
  }

  const perCall = async (app: FastifyInstance, counter: () => number, flushEach: boolean) => {
    const call = () =>
      app.inject({
        method: "GET",
        url: LIST,
        headers: { authorization: BASIC, "blade-auth": `bearer ${token}` },
      });
    await call();
    await app.apiLog.flush();
    const start = counter();
    for (let i = 0; i < COUNTED_CALLS; i++) {
      const res = await call();
      if (res.statusCode !== 200) throw new Error(`list answered ${res.statusCode}: ${res.body}`);
      // The old server wrote each call's log row as the call ended: one INSERT per call.
      if (flushEach) await app.apiLog.flush();
    }
    return (counter() - start) / COUNTED_CALLS;
  };
  const statementsBefore = await perCall(old, before.count, true);
  const statementsAfter = await perCall(now, after.count, false);

  // The reference: the page's own SQL (count and page) with no auth, scopes, labels or log.
  const thin = Fastify();
  thin.get("/posts", async () => {
    const [total] = await raw.query<{ n: string }>(
      "select count(*) as n from sys_post where tenant_id = '000000' and is_deleted = 0",
    );
    const records = await raw.query(
      "select * from sys_post where tenant_id = '000000' and is_deleted = 0 order by sort, id limit 10",
    );
    return { code: 200, data: { total: Number(total?.n), records } };
  });
  const { child, burst } = startClient();
  await new Promise((resolve) => child.once("message", resolve));
  const [thinOrigin, oldOrigin, nowOrigin] = [await serve(thin), await serve(old), await serve(now)];
  const reference = await rate(burst, thinOrigin, token, "/posts");
  const oldRate = await rate(burst, oldOrigin, token, LIST);
  const nowRate = await rate(burst, nowOrigin, token, LIST);

  const where = raw.kind === "postgres" ? "PostgreSQL" : "embedded PGlite";
  console.log(
    `request chain: GET ${LIST} as a granted tenant user, ${where}, ${CONCURRENCY} callers, ${SECONDS} s each`,
  );
  console.log(
    `  SQL statements per call: before ${statementsBefore.toFixed(1)}, after ${statementsAfter.toFixed(1)}`,
  );
  console.log(`  thin reference (count + page only): ${reference.toFixed(0)} req/s`);
  console.log(
    `  before (no cache, log per call):    ${oldRate.toFixed(0)} req/s (${(oldRate / reference).toFixed(2)}×)`,
  );
  console.log(
    `  after (shared cache, batched log):  ${nowRate.toFixed(0)} req/s (${(nowRate / reference).toFixed(2)}×)`,
  );
  child.send({ type: "exit" });
  await Promise.all([thin.close(), old.close(), now.close()]);
  await raw.close();
}

await main();
