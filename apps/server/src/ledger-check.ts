import path from "node:path";
import { openDb } from "./db/client.ts";
import { checkLedger } from "./modules/money/ledger-check.ts";

/**
 * `npm run ledger:check`: proves every balance is the sum of its ledger, on the PostgreSQL server of
 * DATABASE_URL or the embedded database in DATA_DIR (stop the server first: the embedded database
 * has one user at a time). Prints what differs and exits 1 if anything does.
 */
async function main() {
  const databaseUrl = process.env.DATABASE_URL || undefined;
  const db = await openDb({ databaseUrl, dataDir: path.resolve(process.env.DATA_DIR ?? "data") });
  try {
    const mismatches = await checkLedger(db, process.env.TENANT_ID || undefined);
    const [{ accounts } = { accounts: "0" }] = await db.query<{ accounts: string }>(
      "select count(*)::text as accounts from pms_account",
    );
    if (mismatches.length === 0) {
      console.log(`ledger consistent: ${accounts} accounts, every balance is the sum of its entries`);
      return;
    }
    for (const m of mismatches)
      console.log(`${m.problem}\ttenant ${m.tenantId}\t${m.id}\texpected ${m.expected}\tfound ${m.found}`);
    console.log(`${mismatches.length} mismatches in ${accounts} accounts`);
    process.exitCode = 1;
  } finally {
    await db.close();
  }
}

await main();
