/**
 * Recharge benchmark: 1,000 recharges sent at once through HTTP to one account, as a cashier (a
 * role with the recharge button, so every call looks its permissions up), on a server built as
 * `npm start` builds it and listening on loopback; the client is a child process. The reference
 * from the same run is a trivial authenticated GET (/api/blade-auth/oauth/clear-cache: the session
 * check and nothing else) sent the same way, and the same number of recharges spread over as many
 * accounts (no account lock to queue on). The run fails unless the account ends at exactly its
 * deposit plus the recharges, with exactly one ledger entry per recharge.
 *   tsx bench/money-recharge.ts [--recharges 1000] [--database postgres|pglite]
 *   (or RECHARGES=… DATABASE=…)
 */
import { type ChildProcess, fork } from "node:child_process";
import { randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import type { FastifyInstance } from "fastify";
import { buildApp } from "../apps/server/src/app.ts";
import type { Db } from "../apps/server/src/db/client.ts";
import { nextId } from "../apps/server/src/db/ids.ts";
import { hashPassword, md5Hex } from "../apps/server/src/modules/auth/password.ts";
import type { Burst, BurstAnswer, BurstRequest, BurstResult } from "./http-burst.ts";
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

const options = settings({ recharges: "1000", database: "postgres" });
const RECHARGES = count(options.recharges, "recharges");
const KIND = options.database as DatabaseKind;
if (KIND !== "postgres" && KIND !== "pglite") throw new Error("database: postgres or pglite");

const TENANT = "000000";
const DEPOSIT = 10_000n;
/** The one account every recharge of the main burst goes to; the spread burst uses the next ones. */
const ACCOUNT = 1;
const CASHIER = { account: "bench-cashier", password: "Bench-Cashier-2026" };
const BASIC = `Basic ${Buffer.from("saber:saber_secret").toString("base64")}`;
/** Recharge i is (i mod 100) + 1 fen, so the sum proves every single one was booked once. */
const amountOf = (i: number) => BigInt((i % 100) + 1);
const yuan = (fen: bigint) => `${fen / 100n}.${String(fen % 100n).padStart(2, "0")}`;

/** The burst account and one account per spread recharge, each with its deposit in the ledger. */
async function fill(db: Db): Promise<void> {
  const last = ACCOUNT + RECHARGES;
  await db.query(
    `insert into pms_owner (id, tenant_id, owner_name, owner_code, balance)
     select g, $1, '业主' || g, 'BENCH' || g, ${DEPOSIT} / 100.0 from generate_series(${ACCOUNT}, ${last}) g`,
    [TENANT],
  );
  await db.query(
    `insert into pms_account (id, tenant_id, owner_id, room_id, energy_type, meter_id, control_status, balance)
     select g, $1, g, g, 1, g, 1, ${DEPOSIT} from generate_series(${ACCOUNT}, ${last}) g`,
    [TENANT],
  );
  await db.query(
    `insert into pms_ledger (id, tenant_id, account_id, owner_id, entry_type, amount, balance_after, cause, creator)
     select g, $1, g, g, 1, ${DEPOSIT}, ${DEPOSIT}, '开户预存', 'bench' from generate_series(${ACCOUNT}, ${last}) g`,
    [TENANT],
  );
  const roleId = nextId();
  await db.query(
    "insert into sys_role (id, tenant_id, role_name, role_alias) values ($1, $2, '收银员', 'cashier')",
    [roleId, TENANT],
  );
  await db.query(
    `insert into sys_role_menu (id, role_id, menu_id)
     select (select coalesce(max(id), 0) from sys_role_menu) + row_number() over (), $1, m.id from sys_menu m
      where m.code in ('ownerRecharge', 'ownerRecharge_recharge')`,
    [roleId],
  );
  await db.query(
    `insert into sys_user (id, tenant_id, account, password, name, real_name, role_id)
     values ($1, $2, $3, $4, $3, '收银员', $5)`,
    [nextId(), TENANT, CASHIER.account, await hashPassword(md5Hex(CASHIER.password)), roleId],
  );
}

async function signIn(app: FastifyInstance): Promise<string> {
  const res = await app.inject({
    method: "POST",
    url: "/api/blade-auth/oauth/token",
    query: {
      tenantId: TENANT,
      username: CASHIER.account,
      password: md5Hex(CASHIER.password),
      grant_type: "password",
      scope: "all",
    },
    headers: { authorization: BASIC, "tenant-id": TENANT },
  });
  if (res.statusCode !== 200) throw new Error(`cashier sign-in failed: ${res.body}`);
  return res.json().access_token;
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
    new Promise<BurstResult>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("the burst took over 5 minutes")), 300_000);
      waiting = (result) => {
        clearTimeout(timer);
        resolve(result);
      };
      child.send(message);
    });
  return { child, burst };
}

interface Figures {
  wallMs: number;
  p50: number;
  p99: number;
  max: number;
  perSecond: number;
  cpuMs: number;
}

function figuresOf(result: BurstResult, cpuMs: number): Figures {
  const sorted = result.answers.map((a) => a.ms).sort((a, b) => a - b);
  return {
    wallMs: result.wallMs,
    p50: percentile(sorted, 0.5),
    p99: percentile(sorted, 0.99),
    max: sorted[sorted.length - 1]!,
    perSecond: result.answers.length / (result.wallMs / 1000),
    cpuMs,
  };
}

function print(what: string, f: Figures): void {
  console.log(
    `${what.padEnd(52)} ${(f.wallMs / 1000).toFixed(2).padStart(6)} s ${f.perSecond.toFixed(0).padStart(6)} req/s   p50 ${f.p50.toFixed(0).padStart(5)} ms   p99 ${f.p99.toFixed(0).padStart(5)} ms   max ${f.max.toFixed(0).padStart(5)} ms   server CPU ${(f.cpuMs / 1000).toFixed(1)} s   RSS ${mib(process.memoryUsage().rss)}`,
  );
}

function allOk(what: string, answers: BurstAnswer[]): void {
  // The envelope says success as true, or as "true" in the family's plain answers.
  const failed = answers.filter((a) => a.status !== 200 || String(JSON.parse(a.body).success) !== "true");
  if (failed.length > 0)
    fail(
      `${what}: ${failed.length} of ${answers.length} failed, e.g. ${failed[0]!.status} ${failed[0]!.body}`,
    );
}

/** The account's balance, its ledger's sum, and its entries by type. */
async function ledgerOf(db: Db, accountId: number) {
  const [row] = await db.query<{ balance: string; sum: string; recharges: string; entries: string }>(
    `select a.balance::text as balance, sum(l.amount)::text as sum,
            count(*) filter (where l.entry_type = 2)::text as recharges, count(*)::text as entries
       from pms_account a join pms_ledger l on l.account_id = a.id where a.id = $1 group by a.balance`,
    [accountId],
  );
  return {
    balance: BigInt(row!.balance),
    sum: BigInt(row!.sum),
    recharges: Number(row!.recharges),
    entries: Number(row!.entries),
  };
}

async function verifyOneAccount(db: Db, answers: BurstAnswer[]): Promise<bigint> {
  let expected = DEPOSIT;
  for (let i = 0; i < RECHARGES; i++) expected += amountOf(i);
  const ledger = await ledgerOf(db, ACCOUNT);
  if (ledger.balance !== expected)
    fail(`balance ${yuan(ledger.balance)}, expected deposit + recharges = ${yuan(expected)}`);
  if (ledger.sum !== expected)
    fail(`the ledger sums to ${yuan(ledger.sum)}, the balance is ${yuan(expected)}`);
  if (ledger.recharges !== RECHARGES || ledger.entries !== RECHARGES + 1)
    fail(`${ledger.recharges} recharge entries (${ledger.entries} in all), expected exactly ${RECHARGES}`);
  // Each recharge saw the balance the one before it left: every answer's balance is different.
  const after = new Set(answers.map((a) => JSON.parse(a.body).data.balanceAfter as string));
  if (after.size !== RECHARGES) fail(`only ${after.size} distinct balances answered: recharges overlapped`);
  return expected;
}

async function verifySpread(db: Db): Promise<void> {
  const [row] = await db.query<{ wrong: string; recharges: string }>(
    `select count(*) filter (where a.balance <> ${DEPOSIT} + coalesce(r.amount, -1))::text as wrong,
            coalesce(sum(r.n), 0)::text as recharges
       from pms_account a
       left join (select account_id, sum(amount) as amount, count(*) as n from pms_ledger where entry_type = 2
                   group by account_id) r on r.account_id = a.id
      where a.id between $1 and $2`,
    [ACCOUNT + 1, ACCOUNT + RECHARGES],
  );
  if (Number(row!.wrong) !== 0 || Number(row!.recharges) !== RECHARGES)
    fail(
      `spread recharges: ${row!.wrong} accounts off, ${row!.recharges} entries for ${RECHARGES} recharges`,
    );
}

async function main(): Promise<void> {
  console.log(machine());
  const bench: BenchDatabase = await freshDatabase(KIND);
  let client: ReturnType<typeof startClient> | undefined;
  let app: FastifyInstance | undefined;
  try {
    const { db } = bench;
    await fill(db);
    app = await buildApp({
      db,
      config: {
        jwtSecret: randomBytes(32).toString("hex"),
        dataKey: randomBytes(32).toString("hex"),
        captchaEnabled: false,
        timeZone: "Asia/Shanghai",
      },
    });
    // The listen queue must hold a whole burst of new connections, or some wait for a SYN retry.
    const origin = await app.listen({ host: "127.0.0.1", port: 0, backlog: 4096 });
    const token = await signIn(app);
    client = startClient();
    const headers = { authorization: BASIC, "blade-auth": `bearer ${token}` };
    console.log(`database: ${bench.where}`);
    console.log(
      `server: Fastify on ${origin}, in this process; client: a child process sending each burst at once, one keep-alive connection per request in flight; signed in as a cashier (recharge button only)`,
    );
    const run = async (requests: BurstRequest[]) => {
      const cpu = process.cpuUsage();
      const result = await client!.burst({ type: "burst", origin, headers, requests });
      const used = process.cpuUsage(cpu);
      return { result, figures: figuresOf(result, (used.user + used.system) / 1000) };
    };
    const get: BurstRequest = { method: "GET", path: "/api/blade-auth/oauth/clear-cache" };
    const recharge = (accountId: number, i: number): BurstRequest => ({
      method: "POST",
      path: "/api/blade-pms/datarecharge/submit",
      body: {
        accountId: String(accountId),
        amount: yuan(amountOf(i)),
        paymentMethod: (i % 5) + 1,
        idempotencyKey: `bench-${accountId}-${String(i).padStart(6, "0")}`,
      },
    });

    const warm = await run(Array.from({ length: RECHARGES }, () => get));
    allOk("warm-up", warm.result.answers);
    print(`warm-up: ${RECHARGES} GETs at once (opens the connections)`, warm.figures);
    const reference = await run(Array.from({ length: RECHARGES }, () => get));
    allOk("reference GET", reference.result.answers);
    print(`reference: ${RECHARGES} authenticated GETs at once`, reference.figures);

    const one = await run(Array.from({ length: RECHARGES }, (_, i) => recharge(ACCOUNT, i)));
    allOk("recharges", one.result.answers);
    const balance = await verifyOneAccount(db, one.result.answers);
    print(`${RECHARGES} recharges at once on one account`, one.figures);
    console.log(
      `  balance ${yuan(balance)} = deposit ${yuan(DEPOSIT)} + ${RECHARGES} recharges, exactly; ${RECHARGES} recharge entries in the ledger, which sums to the balance`,
    );
    console.log(
      `  against the GET: throughput ${(one.figures.perSecond / reference.figures.perSecond).toFixed(2)}×, p99 ${(one.figures.p99 / reference.figures.p99).toFixed(1)}×`,
    );

    const spread = await run(Array.from({ length: RECHARGES }, (_, i) => recharge(ACCOUNT + 1 + i, i)));
    allOk("spread recharges", spread.result.answers);
    await verifySpread(db);
    print(`${RECHARGES} recharges at once on ${RECHARGES} accounts`, spread.figures);
    console.log(
      `  one account against ${RECHARGES} accounts: throughput ${(one.figures.perSecond / spread.figures.perSecond).toFixed(2)}×, p99 ${(one.figures.p99 / spread.figures.p99).toFixed(1)}×`,
    );
    console.log(
      `peak RSS of the server process ${mib(process.resourceUsage().maxRSS * 1024)}, CPU user ${(process.cpuUsage().user / 1e6).toFixed(1)} s`,
    );
  } finally {
    if (client) {
      client.child.send({ type: "exit" });
      await new Promise((resolve) => client!.child.once("exit", resolve));
    }
    await app?.close();
    await bench.drop();
  }
}

await main();
