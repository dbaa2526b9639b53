/**
 * The days-until-empty forecast measured on the demo site's own history: the demo is seeded into a
 * fresh embedded database (60 days of usage priced by each room's scheme, as `npm start` makes it),
 * each account's usage charges are read back day by day from the ledger, and the forecast's
 * backtest (packages/analytics forecast.ts: at each day from the 28th, 10 days of the account's
 * average spend set aside, predicted days until spent against the days the history took) runs on
 * them. The reference of the same run is the flat forecast, "balance ÷ average = 10 days".
 *   npx tsx bench/forecast-demo.ts
 */
import os from "node:os";
import { DEMO_TENANT_ID, seedDemoSite } from "../apps/server/src/demo/demo-site.ts";
import { backtest, type DaySpend } from "../packages/analytics/src/index.ts";
import { BENCH_ADMIN_PASSWORD, freshDatabase } from "./money-common.ts";

const DAY_MS = 86_400_000;
const BUDGET_DAYS = 10;
const WARMUP = 28;

/** The flat reference on the same cases as backtest: always BUDGET_DAYS days. */
function flatError(history: readonly DaySpend[]): { sum: number; cases: number } {
  let sum = 0;
  let cases = 0;
  for (let start = WARMUP; start < history.length; start++) {
    const past = history.slice(Math.max(0, start - 28), start);
    const balance = (past.reduce((total, day) => total + day.fen, 0) / past.length) * BUDGET_DAYS;
    if (!(balance > 0)) continue;
    let left = balance;
    for (let index = start; index < history.length; index++) {
      left -= history[index]!.fen;
      if (left <= 0) {
        sum += Math.abs(BUDGET_DAYS - (index - start + 1));
        cases++;
        break;
      }
    }
  }
  return { sum, cases };
}

/** Every day from the first to the last as a series, days without a charge as 0. */
function series(days: Map<string, number>): DaySpend[] {
  const sorted = [...days.keys()].sort();
  const first = Date.parse(`${sorted[0]}T00:00:00Z`);
  const last = Date.parse(`${sorted.at(-1)}T00:00:00Z`);
  const out: DaySpend[] = [];
  for (let at = first; at <= last; at += DAY_MS) {
    const day = new Date(at).toISOString().slice(0, 10);
    out.push({ day, fen: days.get(day) ?? 0 });
  }
  // The first and the last day are partial (the account opened, the history ends): left out.
  return out.slice(1, -1);
}

const database = await freshDatabase("pglite");
try {
  const seeding = performance.now();
  await seedDemoSite(database.db, { adminPassword: BENCH_ADMIN_PASSWORD });
  const seededMs = performance.now() - seeding;
  const rows = await database.db.query<{ account_id: string; day: string; fen: string }>(
    `select account_id::text as account_id, to_char(usage_day, 'YYYY-MM-DD') as day, (-sum(amount))::text as fen
       from pms_ledger where tenant_id = $1 and entry_type = 6 group by account_id, usage_day`,
    [DEMO_TENANT_ID],
  );
  const byAccount = new Map<string, Map<string, number>>();
  for (const row of rows) {
    const days = byAccount.get(row.account_id) ?? new Map<string, number>();
    days.set(row.day, Number(row.fen));
    byAccount.set(row.account_id, days);
  }
  let forecastSum = 0;
  let forecastCases = 0;
  let flatSum = 0;
  let flatCases = 0;
  let accounts = 0;
  for (const days of byAccount.values()) {
    const history = series(days);
    const measured = backtest(history, { warmup: WARMUP, budgetDays: BUDGET_DAYS });
    if (measured.cases === 0) continue;
    accounts++;
    forecastSum += measured.meanAbsoluteError * measured.cases;
    forecastCases += measured.cases;
    const flat = flatError(history);
    flatSum += flat.sum;
    flatCases += flat.cases;
  }
  const forecast = forecastSum / forecastCases;
  const flat = flatSum / flatCases;
  console.log(
    `conditions: ${database.where}; demo seeded in ${(seededMs / 1000).toFixed(1)} s; ${os.cpus().length} cores, Node ${process.version}`,
  );
  console.log(
    `demo history: ${byAccount.size} accounts with usage charges, ${accounts} with backtest cases (${WARMUP} days warm-up, ${BUDGET_DAYS}-day budgets)`,
  );
  console.log(`forecast days-until-spent MAE: ${forecast.toFixed(2)} days over ${forecastCases} cases`);
  console.log(`reference, flat "balance ÷ average": ${flat.toFixed(2)} days over ${flatCases} cases`);
  console.log(`ratio forecast / flat: ${(forecast / flat).toFixed(2)}`);
} finally {
  await database.drop();
}
