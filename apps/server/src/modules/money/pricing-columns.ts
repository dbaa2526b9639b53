import { balanceLevel, type ChargePart } from "@meterline/billing";
import type { Column } from "../../db/column-params.ts";
import { nextId } from "../../db/ids.ts";
import { wholePart } from "./account.repository.ts";
import { thresholdsOf } from "./account-book.ts";
import type { PricedAccount } from "./usage-pricing.ts";

/** One ledger entry of a batch, with its account's and owner's identity. */
export interface BatchEntry {
  id: string;
  account: PricedAccount;
  type: number;
  amount: bigint;
  balanceAfter: bigint;
  usage: bigint | null;
  usageDay: string;
  cause: string;
  parts: readonly ChargePart[];
  /** The one part the charge was priced whole in, kept on the entry (wholePart); null otherwise. */
  wholePart: string | null;
}

/** Adds one entry to the batch and moves the account's balance and alarm state as `book` does. */
export function entryOf(
  account: PricedAccount,
  type: number,
  amount: bigint,
  cause: string,
  usageDay: string,
  usage: bigint | null,
  parts: readonly ChargePart[],
): BatchEntry {
  const balanceAfter = BigInt(account.balance) + amount;
  const alarmLevel = balanceLevel(balanceAfter, thresholdsOf(account));
  account.balance = balanceAfter.toString();
  account.alarm_level = alarmLevel;
  account.arrears_status = alarmLevel === 3 ? 1 : 0;
  return {
    id: nextId(),
    account,
    type,
    amount,
    balanceAfter,
    usage,
    usageDay,
    cause,
    parts,
    wholePart: wholePart(parts, usage, amount),
  };
}

/**
 * The entries' columns where the statement takes each entry's tenant and owner from its account's
 * row (the versioned write joins the accounts it wrote): id, account, type, amount, balance after,
 * usage, usage day, cause, whole part.
 */
export const ENTRY_OF_ACCOUNT: readonly Column<BatchEntry>[] = [
  { name: "id", type: "bigint", of: (e) => e.id },
  { name: "account_id", type: "bigint", of: (e) => e.account.id },
  { name: "entry_type", type: "int", shared: true, of: (e) => e.type },
  { name: "amount", type: "bigint", of: (e) => e.amount.toString() },
  { name: "balance_after", type: "bigint", of: (e) => e.balanceAfter.toString() },
  { name: "usage", type: "bigint", of: (e) => e.usage?.toString() ?? null },
  { name: "usage_day", type: "date", shared: true, of: (e) => e.usageDay },
  { name: "cause", type: "varchar", shared: true, of: (e) => e.cause.slice(0, 255) },
  { name: "part", type: "varchar", shared: true, of: (e) => e.wholePart },
];

/** The entries' columns sent whole: ENTRY_OF_ACCOUNT's with the tenant and the owner. */
export const ENTRY: readonly Column<BatchEntry>[] = [
  ...ENTRY_OF_ACCOUNT,
  { name: "tenant_id", type: "varchar", shared: true, of: (e) => e.account.tenant_id },
  { name: "owner_id", type: "bigint", of: (e) => e.account.owner_id },
];

/** A part of an entry whose charge is not whole in one part. */
interface PartRow {
  entry: BatchEntry;
  part: ChargePart;
}

/** The parts' columns: entry, tenant, account, part, usage, charge. */
export const PART: readonly Column<PartRow>[] = [
  { name: "ledger_id", type: "bigint", of: (p) => p.entry.id },
  { name: "tenant_id", type: "varchar", shared: true, of: (p) => p.entry.account.tenant_id },
  { name: "account_id", type: "bigint", of: (p) => p.entry.account.id },
  { name: "part", type: "varchar", of: (p) => p.part.part },
  { name: "usage", type: "bigint", of: (p) => p.part.usage.toString() },
  { name: "charge", type: "bigint", of: (p) => p.part.charge.toString() },
];

/** The parts' rows of the entries whose charge is not whole in one part (wholePart). */
export const partRows = (entries: readonly BatchEntry[]): PartRow[] =>
  entries.flatMap((e) => (e.wholePart === null ? e.parts.map((part) => ({ entry: e, part })) : []));

/**
 * An account's new balance, alarm state and priced position: balance, alarm level, arrears status,
 * the eleven cycle and register columns (in pricedPosition's order, written out so that no account
 * of a wave needs an array of its own), priced time, fee month.
 */
export const ACCOUNT: readonly Column<PricedAccount>[] = [
  { name: "balance", type: "bigint", of: (a) => a.balance },
  { name: "alarm_level", type: "int", shared: true, of: (a) => a.alarm_level },
  { name: "arrears_status", type: "int", shared: true, of: (a) => a.arrears_status },
  { name: "cycle_key", type: "varchar", shared: true, of: (a) => a.cycle_key },
  { name: "cycle_total", type: "bigint", of: (a) => a.cycle_total },
  { name: "cycle_tip", type: "bigint", of: (a) => a.cycle_tip },
  { name: "cycle_peak", type: "bigint", of: (a) => a.cycle_peak },
  { name: "cycle_peace", type: "bigint", of: (a) => a.cycle_peace },
  { name: "cycle_low", type: "bigint", of: (a) => a.cycle_low },
  { name: "register_total", type: "bigint", of: (a) => a.register_total },
  { name: "register_tip", type: "bigint", of: (a) => a.register_tip },
  { name: "register_peak", type: "bigint", of: (a) => a.register_peak },
  { name: "register_peace", type: "bigint", of: (a) => a.register_peace },
  { name: "register_low", type: "bigint", of: (a) => a.register_low },
  {
    name: "priced_time",
    type: "timestamptz",
    of: (a) => (a.priced_time ? new Date(a.priced_time).toISOString() : null),
  },
  { name: "fee_month", type: "varchar", shared: true, of: (a) => a.fee_month },
];

/** The account's key columns before ACCOUNT's in both updates of pricing: id and tenant. */
export const ACCOUNT_KEY: readonly Column<PricedAccount>[] = [
  { name: "id", type: "bigint", of: (a) => a.id },
  { name: "tenant_id", type: "varchar", shared: true, of: (a) => a.tenant_id },
];

/** What both updates of pricing set on an account `a` from its row `u` of ACCOUNT's columns. */
export const ACCOUNT_SET = `${ACCOUNT.map(({ name }) => `${name} = u.${name}`).join(", ")},
       update_time = case when u.balance <> a.balance then now() else a.update_time end`;
