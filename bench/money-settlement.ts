/**
 * Daily settlement benchmark: closeDay over N accounts whose ledger holds an opening deposit, a few
 * days of usage charges and, for every tenth account, a recharge during the closed day. Runs on a
 * fresh PostgreSQL database of its own (goal: 100,000 accounts within 60 s) and on a file-backed
 * PGlite (10,000 accounts). The reference from the same run is a plain `insert … select` of the same
 * number of rows into a copy of the account-day table: the cost of writing the rows at all.
 *   tsx bench/money-settlement.ts [--database both|postgres|pglite] [--accounts 100000]
 *     [--pglite-accounts 10000] [--entries-per-day 8] [--history-days 1] [--batch 2000]
 *     [--explain yes] (prints the plan of a middle batch of closeDay, run with EXPLAIN ANALYZE)
 *   (or the same as environment variables: DATABASE=postgres ACCOUNTS=5000 …)
 */
import type { Db, Queryable } from "../apps/server/src/db/client.ts";
import { closeDay } from "../apps/server/src/modules/money/daily-close.ts";
import {
  type BenchDatabase,
  count,
  type DatabaseKind,
  fail,
  freshDatabase,
  line,
  machine,
  mib,
  settings,
  timed,
} from "./money-common.ts";

const options = settings({
  database: "both",
  accounts: "100000",
  "pglite-accounts": "10000",
  "entries-per-day": "8",
  "history-days": "1",
  batch: "2000",
  explain: "no",
});
const ENTRIES_PER_DAY = count(options["entries-per-day"], "entries-per-day");
const HISTORY_DAYS = count(options["history-days"], "history-days");
const BATCH = count(options.batch, "batch");
const CHARGES = (HISTORY_DAYS + 1) * ENTRIES_PER_DAY;
if (ENTRIES_PER_DAY < 1 || CHARGES > 998)
  throw new Error("entries-per-day × (history-days + 1) must be 1…998");

/** The closed day and its zone: fixed, so every run settles the same ledger. */
const DAY = "2026-06-15";
const TIME_ZONE = "Asia/Shanghai";
const DEPOSIT = 50_000n;
const CHARGE = 59n;
const USAGE = 100n;
const RECHARGE = 10_000n;
const STEP_SECONDS = 86_400 / ENTRIES_PER_DAY;
/** Every tenth account is recharged one second past noon of the closed day. */
const RECHARGE_OFFSET = HISTORY_DAYS * 86_400 + 43_201;
const CHARGES_BEFORE_RECHARGE = Array.from({ length: CHARGES }, (_, i) => i + 1).filter(
  (j) => (j - 0.5) * STEP_SECONDS < RECHARGE_OFFSET,
).length;

/**
 * Accounts 1…n (70 % electric, 30 % water), all opened before the history starts, and their ledger:
 * the deposit an hour before the history, `entries-per-day` usage charges spread evenly over each day
 * of history and over the closed day, and the recharge. Every balance_after is the running sum.
 */
async function fill(db: Db, accounts: number): Promise<number> {
  const bounds = `(select ($1::date - ${HISTORY_DAYS})::timestamp at time zone $2 as t0)`;
  await db.query(
    `insert into pms_account (id, tenant_id, owner_id, room_id, energy_type, meter_id, control_status, balance,
                              cycle_key, opened_time, update_time)
     select g, '000000', g, g, case when g % 10 < 7 then 1 else 2 end, g, 1,
            ${DEPOSIT} - ${CHARGE} * ${CHARGES} + case when g % 10 = 0 then ${RECHARGE} else 0 end,
            to_char($1::date, 'YYYY-MM'), b.t0 - interval '2 hours', b.t0
       from generate_series(1, $3::int) g, ${bounds} b`,
    [DAY, TIME_ZONE, accounts],
  );
  await db.query(
    `insert into pms_ledger (id, tenant_id, account_id, owner_id, entry_type, amount, balance_after, usage,
                             usage_day, cause, creator, create_time)
     select g * 1000, '000000', g, g, 1, ${DEPOSIT}, ${DEPOSIT}, null, null, '开户预存', 'bench', b.t0 - interval '1 hour'
       from generate_series(1, $3::int) g, ${bounds} b
     union all
     select g * 1000 + j, '000000', g, g, 6, -${CHARGE},
            ${DEPOSIT} - ${CHARGE} * j + case when g % 10 = 0 and j > ${CHARGES_BEFORE_RECHARGE} then ${RECHARGE} else 0 end,
            ${USAGE}, ((b.t0 + (j - 0.5) * interval '${STEP_SECONDS} seconds') at time zone $2)::date, '用量', '计费',
            b.t0 + (j - 0.5) * interval '${STEP_SECONDS} seconds'
       from generate_series(1, $3::int) g, generate_series(1, ${CHARGES}) j, ${bounds} b
     union all
     select g * 1000 + 999, '000000', g, g, 2, ${RECHARGE},
            ${DEPOSIT} - ${CHARGE} * ${CHARGES_BEFORE_RECHARGE} + ${RECHARGE}, null, null, '充值', 'bench',
            b.t0 + interval '${RECHARGE_OFFSET} seconds'
       from generate_series(10, $3::int, 10) g, ${bounds} b`,
    [DAY, TIME_ZONE, accounts],
  );
  await db.query("analyze pms_account");
  await db.query("analyze pms_ledger");
  const [{ n }] = (await db.query<{ n: string }>("select count(*)::text as n from pms_ledger")) as [
    { n: string },
  ];
  return Number(n);
}

/** Every account-day of the closed day is there once and adds up, and closes at the account's balance. */
async function verify(db: Db, accounts: number): Promise<void> {
  const [row] = await db.query<{ days: string; wrong: string }>(
    `select count(*)::text as days,
            count(*) filter (where d.closing_balance <> d.opening_balance + d.credit - d.debit - d.usage_charge - d.fee
                                or d.closing_balance <> a.balance
                                or d.opening_balance <> ${DEPOSIT} - ${CHARGE} * ${HISTORY_DAYS * ENTRIES_PER_DAY}
                                or d.usage <> ${USAGE} * ${ENTRIES_PER_DAY}
                                or d.usage_charge <> ${CHARGE} * ${ENTRIES_PER_DAY})::text as wrong
       from pms_account_day d join pms_account a on a.id = d.account_id
      where d.day = $1::date`,
    [DAY],
  );
  if (Number(row!.days) !== accounts) fail(`${row!.days} account-days closed, expected ${accounts}`);
  if (Number(row!.wrong) !== 0) fail(`${row!.wrong} account-days do not add up`);
}

/** The reference: the same number of rows written by one plain insert … select, nothing computed. */
async function plainInsert(db: Db): Promise<number> {
  await db.query(
    "create table bench_account_day (like pms_account_day including defaults including constraints including indexes)",
  );
  const { ms } = await timed(() =>
    db.query(
      `insert into bench_account_day (tenant_id, account_id, day, opening_balance, usage, usage_charge, fee, credit,
                                      debit, closing_balance, entries)
       select tenant_id, id, $1::date, balance, 0, 0, 0, 0, 0, balance, 0 from pms_account`,
      [DAY],
    ),
  );
  return ms;
}

/**
 * The plan of closeDay's statement for a batch in the middle of the accounts: closeDay runs once with
 * its statements recorded, the rows are removed again, and that batch's statement is explained in a
 * transaction with the same settings (`set local …`) closeDay gave its own.
 */
async function explainBatch(db: Db): Promise<void> {
  await db.query("delete from pms_account_day where day = $1::date", [DAY]);
  const statements: { sql: string; params: readonly unknown[] }[] = [];
  const recorded = (q: Queryable): Queryable => ({
    query: (sql, params) => {
      statements.push({ sql, params: params ?? [] });
      return q.query(sql, params);
    },
  });
  await closeDay(
    { ...db, ...recorded(db), transaction: (fn) => db.transaction((tx) => fn(recorded(tx))) },
    DAY,
    TIME_ZONE,
    { batch: BATCH },
  );
  await db.query("delete from pms_account_day where day = $1::date", [DAY]);
  const batches = statements.filter((s) => s.sql.includes("insert into pms_account_day"));
  const settings = [...new Set(statements.filter((s) => /^\s*set /.test(s.sql)).map((s) => s.sql))];
  const middle = batches[Math.floor(batches.length / 2)]!;
  const plan = await db.transaction(async (tx) => {
    for (const sql of settings) await tx.query(sql);
    return tx.query<{ "QUERY PLAN": string }>(`explain (analyze, buffers) ${middle.sql}`, middle.params);
  });
  console.log(
    `  plan of batch ${Math.floor(batches.length / 2) + 1} of ${batches.length}${settings.length ? ` (${settings.join("; ")})` : ""}:`,
  );
  for (const row of plan) console.log(`    ${row["QUERY PLAN"]}`);
}

async function runOn(kind: DatabaseKind, accounts: number): Promise<void> {
  const started = await timed(() => freshDatabase(kind));
  const bench: BenchDatabase = started.value;
  try {
    const { db } = bench;
    const filled = await timed(() => fill(db, accounts));
    console.log(`\n== ${kind}: ${bench.where}`);
    console.log(
      `${accounts} accounts (70 % electric, 30 % water), ${filled.value} ledger entries: a deposit, ${ENTRIES_PER_DAY} usage charges a day over ${HISTORY_DAYS} day(s) of history and the closed day ${DAY} (${TIME_ZONE}), a recharge on every tenth account; tables analysed; batch ${BATCH} accounts`,
    );
    line("setup: migrate + seed (not measured)", started.ms);
    line("setup: accounts and ledger by generate_series", filled.ms, filled.value);

    const reference = await plainInsert(db);
    line(`reference: plain insert … select of ${accounts} rows`, reference, accounts);

    const first = await timed(() => closeDay(db, DAY, TIME_ZONE, { batch: BATCH }));
    if (first.value !== accounts) fail(`closeDay wrote ${first.value} account-days, expected ${accounts}`);
    await verify(db, accounts);
    line(`closeDay ${DAY}, batch ${BATCH}`, first.ms, accounts);
    console.log(
      `  ${first.value} account-days written and verified; ratio to the plain insert ${(first.ms / reference).toFixed(1)}`,
    );
    const again = await timed(() => closeDay(db, DAY, TIME_ZONE, { batch: BATCH }));
    if (again.value !== 0) fail(`the second closeDay wrote ${again.value} account-days`);
    line("closeDay again (idempotent: writes nothing)", again.ms, accounts);

    await db.query("delete from pms_account_day where day = $1::date", [DAY]);
    const single = await timed(() => closeDay(db, DAY, TIME_ZONE, { batch: accounts + 1 }));
    if (single.value !== accounts) fail(`one-batch closeDay wrote ${single.value} account-days`);
    await verify(db, accounts);
    line("closeDay in one batch of all accounts (for comparison)", single.ms, accounts);
    if (options.explain === "yes") await explainBatch(db);
    if (kind === "postgres")
      console.log(
        `  settlement goal ≤ 60 s for 100,000 accounts: ${accounts >= 100_000 ? (first.ms <= 60_000 ? "met" : "NOT met") : `not judged at ${accounts} accounts`}`,
      );
    console.log(
      `peak RSS of this process ${mib(process.resourceUsage().maxRSS * 1024)}, CPU user ${(process.cpuUsage().user / 1e6).toFixed(1)} s`,
    );
  } finally {
    await bench.drop();
  }
}

console.log(machine());
const kinds: DatabaseKind[] =
  options.database === "both" ? ["postgres", "pglite"] : [options.database as DatabaseKind];
for (const kind of kinds) {
  if (kind !== "postgres" && kind !== "pglite") throw new Error(`database: postgres, pglite or both`);
  await runOn(kind, count(kind === "postgres" ? options.accounts : options["pglite-accounts"], "accounts"));
}
