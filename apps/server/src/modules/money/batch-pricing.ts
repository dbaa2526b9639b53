import { setImmediate } from "node:timers/promises";
import type { Db } from "../../db/client.ts";
import { supplyMayChange } from "./arrears.ts";
import { type BatchPlan, planBatch } from "./batch-plan.ts";
import { priceLocked } from "./locked-pricing.ts";
import {
  accountKey,
  type PricedAccountMemory,
  readingKey,
  readPricedAccounts,
  type VersionedAccount,
} from "./priced-accounts.ts";
import { writeUnchanged } from "./pricing-write.ts";
import type { PricedReading, PricingOutcome } from "./usage-pricing.ts";

/** The accounts of the readings: those the process remembers, the rest read in one statement. */
async function accountsOf(
  db: Db,
  readings: readonly PricedReading[],
  memory: PricedAccountMemory | undefined,
): Promise<Map<string, VersionedAccount>> {
  const accounts = new Map<string, VersionedAccount>();
  const unknown: PricedReading[] = [];
  for (const reading of readings) {
    const key = readingKey(reading);
    if (accounts.has(key)) continue;
    const known = memory?.recall(key);
    if (known) accounts.set(key, known);
    else unknown.push(reading);
  }
  const read = await readPricedAccounts(db, unknown);
  for (const [key, account] of read) accounts.set(key, account);
  return accounts;
}

/**
 * Prices a batch without holding a lock across a round trip: the accounts taken from what the
 * process remembers or read as they are, the batch planned over them, and everything written by
 * one statement that takes each account only if its version is still the one planned from
 * (pricing-write.ts). Answers the outcomes of the readings it priced and the indexes of those left
 * for the locked way: readings of accounts another writer changed meanwhile, and of accounts whose
 * charge may move supply (a cut or restore is queued with the balance change, under lock).
 */
async function priceUnchanged(
  db: Db,
  readings: readonly PricedReading[],
  timeZone: string,
  memory: PricedAccountMemory | undefined,
): Promise<{ outcomes: (PricingOutcome | undefined)[]; left: number[] }> {
  const accounts = await accountsOf(db, readings, memory);
  try {
    return await planAndWrite(db, accounts, readings, timeZone, memory);
  } catch (error) {
    // Planned over in place (remembered ones too): after a failure anywhere between planning and
    // the write's answer, none of them is remembered as it now stands.
    for (const key of accounts.keys()) memory?.forget(key);
    throw error;
  }
}

/**
 * The batch planned a slice at a time, the event loop let through between slices and before the
 * write: a wave's planning is milliseconds of JavaScript, and the store of the next wave, running
 * beside it, would otherwise wait that long for each answer of the database.
 */
async function planInSlices<A extends VersionedAccount>(
  accounts: ReadonlyMap<string, A>,
  readings: readonly PricedReading[],
  timeZone: string,
): Promise<BatchPlan<A>> {
  let plan: BatchPlan<A> | undefined;
  for (let start = 0; start < readings.length; start += PLAN_SLICE) {
    await setImmediate();
    plan = planBatch(accounts, readings.slice(start, start + PLAN_SLICE), timeZone, plan);
  }
  await setImmediate();
  return plan ?? planBatch(accounts, [], timeZone);
}

const PLAN_SLICE = 100;

async function planAndWrite(
  db: Db,
  accounts: ReadonlyMap<string, VersionedAccount>,
  readings: readonly PricedReading[],
  timeZone: string,
  memory: PricedAccountMemory | undefined,
) {
  const { outcomes, entries, touched } = await planInSlices(accounts, readings, timeZone);
  const held = new Set<string>();
  for (const { account, charged } of touched.values())
    if (charged && supplyMayChange(account)) held.add(account.id);
  const written = await writeUnchanged(
    db,
    [...touched.values()].filter((t) => !held.has(t.account.id)).map((t) => t.account),
    entries.filter((e) => !held.has(e.account.id)),
  );
  const unwritten = new Set<string>();
  for (const { account } of touched.values()) {
    const key = accountKey(account.tenant_id, account.energy_type, account.meter_id);
    const version = written.get(account.id);
    if (version !== undefined) {
      account.row_version = version;
      memory?.remember(key, account);
    } else {
      memory?.forget(key);
      unwritten.add(key);
    }
  }
  const left: number[] = [];
  if (unwritten.size > 0)
    readings.forEach((reading, i) => {
      if (unwritten.has(readingKey(reading))) left.push(i);
    });
  return { outcomes, left };
}

/**
 * Prices the readings of a batch (issue: set-based ingest), each reading in arrival order by the
 * same rules as a single reading. First without a lock (priceUnchanged: in the steady state of a
 * gateway, one statement for the whole batch); what that leaves, and the whole batch if its
 * statement fails, is priced under lock (locked-pricing.ts), where a bad reading fails alone.
 * `memory` (a gateway process keeps one) spares reading the accounts it wrote last. Answers each
 * reading's outcome by its index.
 */
export async function priceBatch(
  db: Db,
  readings: readonly PricedReading[],
  timeZone: string,
  memory?: PricedAccountMemory,
): Promise<(PricingOutcome | undefined)[]> {
  if (readings.length === 0) return [];
  const first = await priceUnchanged(db, readings, timeZone, memory).catch(() => undefined);
  if (!first) return priceLocked(db, readings, timeZone);
  if (first.left.length === 0) return first.outcomes;
  const again = await priceLocked(
    db,
    first.left.map((i) => readings[i]!),
    timeZone,
  );
  const outcomes = [...first.outcomes];
  first.left.forEach((i, n) => {
    outcomes[i] = again[n];
  });
  return outcomes;
}
