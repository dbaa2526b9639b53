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
 * a statement that takes each account only if its version is still the one planned from
 * (pricing-write.ts). Answers the outcomes of the readings it priced and the indexes of those left
 * for the locked way: readings of accounts another writer changed meanwhile, of accounts whose
 * charge may move supply (a cut or restore is queued with the balance change, under lock), and
 * of a part whose statement failed.
 *
 * A large batch is priced in parts by owner, each written as soon as it is planned while the next
 * is planned, the parts' statements running side by side on their own connections: a wave's
 * pricing then takes about half the time where the database has a core to spare (the end of a
 * burst, a server with more cores than the gateway), and no two parts touch the same account or
 * owner row, so they never wait for each other.
 */
async function priceUnchanged(
  db: Db,
  readings: readonly PricedReading[],
  timeZone: string,
  memory: PricedAccountMemory | undefined,
): Promise<{ outcomes: (PricingOutcome | undefined)[]; left: number[] }> {
  const accounts = await accountsOf(db, readings, memory);
  const parts = partsByOwner(readings, accounts);
  const written: ReturnType<typeof planAndWrite>["written"][] = [];
  for (const part of parts) {
    const priced = planAndWrite(
      db,
      accounts,
      part.map((i) => readings[i]!),
      timeZone,
      memory,
    );
    written.push(priced.written);
    // The next part is planned while this one is written (a part that failed to plan is left
    // for the locked way with its `written`).
    await priced.planned.catch(() => undefined);
  }
  const outcomes: (PricingOutcome | undefined)[] = new Array(readings.length).fill(undefined);
  const left: number[] = [];
  const answers = await Promise.allSettled(written);
  answers.forEach((answer, p) => {
    const part = parts[p]!;
    if (answer.status === "rejected") {
      left.push(...part);
      return;
    }
    answer.value.outcomes.forEach((outcome, n) => {
      outcomes[part[n]!] = outcome;
    });
    for (const n of answer.value.left) left.push(part[n]!);
  });
  // The locked way prices what is left in arrival order.
  left.sort((a, b) => a - b);
  return { outcomes, left };
}

/** Below this many readings a batch is priced as one part: a quiet site's wave is one statement. */
const PARTED_FROM = 200;

/**
 * The readings' indexes in two parts of about equal size, every owner's readings in one part and
 * in arrival order (a meter's readings stay together, as its account has one owner).
 */
function partsByOwner(readings: readonly PricedReading[], accounts: ReadonlyMap<string, VersionedAccount>) {
  if (readings.length < PARTED_FROM) return [readings.map((_, i) => i)];
  const parts: [number[], number[]] = [[], []];
  const partOfOwner = new Map<string, 0 | 1>();
  readings.forEach((reading, i) => {
    const owner = accounts.get(readingKey(reading))?.owner_id ?? "";
    let part = partOfOwner.get(owner);
    if (part === undefined) {
      part = parts[0].length <= parts[1].length ? 0 : 1;
      partOfOwner.set(owner, part);
    }
    parts[part].push(i);
  });
  return parts.filter((part) => part.length > 0);
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

/**
 * Plans the readings over their accounts and writes them: `planned` settles once the plan is made
 * (the accounts' objects moved), `written` with the outcomes and the readings left. A failure
 * anywhere after planning began forgets the part's accounts: none is remembered as it now stands.
 */
function planAndWrite(
  db: Db,
  accounts: ReadonlyMap<string, VersionedAccount>,
  readings: readonly PricedReading[],
  timeZone: string,
  memory: PricedAccountMemory | undefined,
) {
  const planned = planInSlices(accounts, readings, timeZone);
  const written = planned.then((plan) => writePlan(db, plan, readings, memory));
  written.catch(() => {
    for (const reading of readings) memory?.forget(readingKey(reading));
  });
  return { planned: planned.then(() => undefined), written };
}

async function writePlan(
  db: Db,
  { outcomes, entries, touched }: BatchPlan<VersionedAccount>,
  readings: readonly PricedReading[],
  memory: PricedAccountMemory | undefined,
) {
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
 * gateway, one statement for a small batch and one a part for a large one); what that leaves, a
 * part whose statement fails, and the whole batch if its accounts cannot be read, is priced under
 * lock (locked-pricing.ts), where a bad reading fails alone.
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
