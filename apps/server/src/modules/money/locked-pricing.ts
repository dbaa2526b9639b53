import type { Db, Queryable } from "../../db/client.ts";
import { columnParams, columnRows } from "../../db/column-params.ts";
import { prepared } from "../../db/prepared.ts";
import { settleSupply } from "./arrears.ts";
import { planBatch } from "./batch-plan.ts";
import { readPricedAccounts } from "./priced-accounts.ts";
import {
  ACCOUNT,
  ACCOUNT_KEY,
  ACCOUNT_SET,
  type BatchEntry,
  ENTRY,
  PART,
  partRows,
} from "./pricing-columns.ts";
import {
  PRICING,
  type PricedAccount,
  type PricedReading,
  type PricingOutcome,
  priceReading,
} from "./usage-pricing.ts";

const ENTRY_ROWS = columnRows(ENTRY, 1, "u");
/** The writer's name follows the entries' parameters, then the parts'. */
const PART_ROWS = columnRows(PART, ENTRY_ROWS.next + 1, "p");

/**
 * Appends the batch's entries and their parts in one statement whatever the batch's size, all
 * stamped with the one instant the statement reads the clock (a part carries its entry's time, so a
 * month's parts are read by the same range as its entries). Nothing is joined to what the insert
 * returns: a set joined to another set is a plan that can go quadratic once the statement is
 * prepared (db/prepared.ts), while each array driving its own insert cannot.
 */
async function appendEntries(tx: Queryable, entries: readonly BatchEntry[]): Promise<void> {
  if (entries.length === 0) return;
  await tx.query(
    prepared(`with stamp as materialized (select clock_timestamp() as at),
          entry as (
            insert into pms_ledger (${ENTRY_ROWS.names}, creator, create_time)
            select u.*, $${ENTRY_ROWS.next}::varchar, stamp.at
              from ${ENTRY_ROWS.sql}
             cross join stamp)
     insert into pms_ledger_part (${PART_ROWS.names}, create_time)
     select p.*, stamp.at
       from ${PART_ROWS.sql}
      cross join stamp`),
    [...columnParams(ENTRY, entries), PRICING.name, ...columnParams(PART, partRows(entries))],
  );
}

const UPDATE = [...ACCOUNT_KEY, ...ACCOUNT];
const UPDATE_ROWS = columnRows(UPDATE, 1, "u");

/**
 * Every priced account's new balance, alarm state and priced position in one statement, the
 * accounts found by their primary key probed with the batch's ids (joined to the batch's rows
 * alone, the planner hashed the whole table for every batch).
 */
async function updateAccounts(tx: Queryable, accounts: readonly PricedAccount[]): Promise<void> {
  if (accounts.length === 0) return;
  await tx.query(
    prepared(`update pms_account a set ${ACCOUNT_SET}
       from ${UPDATE_ROWS.sql}
      where a.id = any($1::bigint[]) and a.id = u.id and a.tenant_id = u.tenant_id`),
    columnParams(UPDATE, accounts),
  );
}

/**
 * The owners' balances (the sum of their accounts, in yuan) moved by the batch's entries: owners
 * locked in id order (two batches sharing owners queue instead of deadlocking), then updated.
 */
async function moveOwners(tx: Queryable, entries: readonly BatchEntry[]): Promise<void> {
  const moves = new Map<string, { tenantId: string; amount: bigint }>();
  for (const e of entries) {
    const move = moves.get(e.account.owner_id) ?? { tenantId: e.account.tenant_id, amount: 0n };
    move.amount += e.amount;
    moves.set(e.account.owner_id, move);
  }
  if (moves.size === 0) return;
  const ids = [...moves.keys()];
  const tenants = ids.map((id) => moves.get(id)!.tenantId);
  // One statement: the owners locked in id order by the materialised select (its count, an
  // init plan, runs it whole before the update), then moved. Both find the owners through their
  // primary key probed with the batch's ids, so a wave costs its own owners, not the table.
  await tx.query(
    prepared(`with locked as materialized (
       select o.id from pms_owner o
        where o.id = any($1::bigint[]) and o.tenant_id = any($4::varchar[])
        order by o.id for update of o)
     update pms_owner o set balance = o.balance + m.amount / 100.0
       from unnest($1::bigint[], $2::varchar[], $3::bigint[]) as m(id, tenant_id, amount)
      where o.id = m.id and o.tenant_id = m.tenant_id and o.id = any($1::bigint[])
        and (select count(*) from locked) >= 0`),
    [ids, tenants, ids.map((id) => moves.get(id)!.amount.toString()), [...new Set(tenants)]],
  );
}

/**
 * Prices the readings of a batch in one transaction (issue: set-based ingest): the batch's accounts
 * locked by one ordered `for update`, each reading planned in arrival order by the same rules as a
 * single reading (planCharge), the entries appended by one multi-row insert, the accounts and
 * owners moved by one update each. Readings of meters without a priced account are left alone.
 * Answers each reading's outcome by its index.
 */
async function priceBatchIn(
  tx: Queryable,
  readings: readonly PricedReading[],
  timeZone: string,
): Promise<(PricingOutcome | undefined)[]> {
  const accounts = await readPricedAccounts(tx, readings, true);
  const { outcomes, entries, touched } = planBatch(accounts, readings, timeZone);
  await appendEntries(tx, entries);
  await updateAccounts(
    tx,
    [...touched.values()].map((t) => t.account),
  );
  await moveOwners(tx, entries);
  // Supply follows the balance as after any charge: a cut queued where the account fell to its line.
  for (const { account, charged, at } of touched.values())
    if (charged) await settleSupply(tx, account, at, timeZone);
  return outcomes;
}

const RETRYABLE = new Set(["40P01", "40001"]);
const codeOf = (error: unknown) =>
  typeof error === "object" && error !== null && "code" in error ? String(error.code) : "";

/**
 * priceBatchIn in its own transaction: the way of what the versioned write leaves (batch-pricing.ts).
 * A deadlock or serialization failure retries the batch; any other failure (a row the batch cannot
 * price) isolates it: each reading is priced alone, so one bad reading fails by itself and the rest
 * are booked.
 */
export async function priceLocked(
  db: Db,
  readings: readonly PricedReading[],
  timeZone: string,
): Promise<(PricingOutcome | undefined)[]> {
  if (readings.length === 0) return [];
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction((tx) => priceBatchIn(tx, readings, timeZone));
    } catch (error) {
      if (RETRYABLE.has(codeOf(error)) && attempt < 3) continue;
      if (readings.length === 1) throw error;
      break;
    }
  }
  const outcomes: (PricingOutcome | undefined)[] = [];
  for (const reading of readings)
    outcomes.push(await priceReading(db, reading, timeZone).catch(() => undefined));
  return outcomes;
}
