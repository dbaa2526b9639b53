import { balanceLevel, type ChargePart } from "@meterline/billing";
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
 * The entries as the ledger's columns, one array each: id, tenant, account, owner, type, amount,
 * balance after, usage, usage day, cause, whole part (the writer is one value for all).
 */
export const entryColumns = (entries: readonly BatchEntry[]) => [
  entries.map((e) => e.id),
  entries.map((e) => e.account.tenant_id),
  entries.map((e) => e.account.id),
  entries.map((e) => e.account.owner_id),
  entries.map((e) => e.type),
  entries.map((e) => e.amount.toString()),
  entries.map((e) => e.balanceAfter.toString()),
  entries.map((e) => e.usage?.toString() ?? null),
  entries.map((e) => e.usageDay),
  entries.map((e) => e.cause.slice(0, 255)),
  entries.map((e) => e.wholePart),
];

/**
 * The parts' rows of the entries whose charge is not whole in one part, as their columns: entry,
 * tenant, account, part, usage, charge.
 */
export function partColumns(entries: readonly BatchEntry[]) {
  const parts = entries.flatMap((e) =>
    e.wholePart === null ? e.parts.map((part) => ({ entry: e, part })) : [],
  );
  return [
    parts.map((p) => p.entry.id),
    parts.map((p) => p.entry.account.tenant_id),
    parts.map((p) => p.entry.account.id),
    parts.map((p) => p.part.part),
    parts.map((p) => p.part.usage.toString()),
    parts.map((p) => p.part.charge.toString()),
  ];
}

/**
 * The accounts' new balance, alarm state and priced position, one array per column: balance,
 * alarm level, arrears status, the eleven cycle and register columns, priced time, fee month.
 */
export const accountColumns = (accounts: readonly PricedAccount[]) => [
  accounts.map((a) => a.balance),
  accounts.map((a) => a.alarm_level),
  accounts.map((a) => a.arrears_status),
  // The priced position, column by column in pricedPosition's order (written out, so that no
  // account of a wave needs an array of its own).
  accounts.map((a) => a.cycle_key),
  accounts.map((a) => a.cycle_total),
  accounts.map((a) => a.cycle_tip),
  accounts.map((a) => a.cycle_peak),
  accounts.map((a) => a.cycle_peace),
  accounts.map((a) => a.cycle_low),
  accounts.map((a) => a.register_total),
  accounts.map((a) => a.register_tip),
  accounts.map((a) => a.register_peak),
  accounts.map((a) => a.register_peace),
  accounts.map((a) => a.register_low),
  accounts.map((a) => (a.priced_time ? new Date(a.priced_time).toISOString() : null)),
  accounts.map((a) => a.fee_month),
];

/** The account columns accountColumns answers, in its order, with their types. */
const ACCOUNT_COLUMNS = [
  ["balance", "bigint"],
  ["alarm_level", "int"],
  ["arrears_status", "int"],
  ["cycle_key", "varchar"],
  ["cycle_total", "bigint"],
  ["cycle_tip", "bigint"],
  ["cycle_peak", "bigint"],
  ["cycle_peace", "bigint"],
  ["cycle_low", "bigint"],
  ["register_total", "bigint"],
  ["register_tip", "bigint"],
  ["register_peak", "bigint"],
  ["register_peace", "bigint"],
  ["register_low", "bigint"],
  ["priced_time", "timestamptz"],
  ["fee_month", "varchar"],
] as const;

/**
 * accountColumns' arrays as statement text, from parameter `$first` on (`$n::type[], …`), and the
 * names of their columns: the two updates of pricing (locked and versioned) unnest them alike.
 */
export const accountArrays = (first: number) => ({
  arrays: ACCOUNT_COLUMNS.map(([, type], i) => `$${first + i}::${type}[]`).join(", "),
  names: ACCOUNT_COLUMNS.map(([name]) => name).join(", "),
});

/** What both updates of pricing set on an account `a` from its row `u` of accountColumns. */
export const ACCOUNT_SET = `${ACCOUNT_COLUMNS.map(([name]) => `${name} = u.${name}`).join(", ")},
       update_time = case when u.balance <> a.balance then now() else a.update_time end`;
