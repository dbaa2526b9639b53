import { LEDGER_TYPE } from "./account-book.ts";
import { readingKey } from "./priced-accounts.ts";
import { type BatchEntry, entryOf } from "./pricing-columns.ts";
import {
  applyPlan,
  type PricedAccount,
  type PricedReading,
  type PricingOutcome,
  planCharge,
} from "./usage-pricing.ts";

/** An account a batch moved: charged (an entry was booked) or only its priced position moved. */
export interface TouchedAccount<A extends PricedAccount> {
  account: A;
  charged: boolean;
  /** The time of its last reading in the batch. */
  at: Date;
}

/** What planning a batch has found so far: each reading's outcome by its index, the entries, the accounts moved. */
export interface BatchPlan<A extends PricedAccount> {
  outcomes: (PricingOutcome | undefined)[];
  entries: BatchEntry[];
  touched: Map<string, TouchedAccount<A>>;
}

/**
 * Plans a batch's readings over their accounts (by meter key) in arrival order by the same rules
 * as a single reading (planCharge): the entries to append, the accounts moved (written over the
 * given objects) and each reading's outcome by its index; a reading of a meter without a priced
 * account, or one not newer than its account's last priced reading, has none. Given `plan`, the
 * readings continue it (a batch planned in slices, each after the one before).
 */
export function planBatch<A extends PricedAccount>(
  accounts: ReadonlyMap<string, A>,
  readings: readonly PricedReading[],
  timeZone: string,
  plan: BatchPlan<A> = { outcomes: [], entries: [], touched: new Map() },
): BatchPlan<A> {
  const { entries, touched } = plan;
  for (const reading of readings) {
    const account = accounts.get(readingKey(reading));
    const charge = account ? planCharge(account, reading, timeZone) : undefined;
    if (!account || !charge) {
      plan.outcomes.push(undefined);
      continue;
    }
    if (charge.charge > 0n)
      entries.push(
        entryOf(
          account,
          LEDGER_TYPE.usageCharge,
          -charge.charge,
          `用量 ${charge.day}`,
          charge.day,
          charge.usage,
          charge.parts,
        ),
      );
    if (charge.fee > 0n)
      entries.push(
        entryOf(
          account,
          LEDGER_TYPE.monthlyFee,
          -charge.fee,
          `月固定费 ${charge.month}`,
          charge.day,
          null,
          [],
        ),
      );
    applyPlan(account, charge, reading.at);
    const before = touched.get(account.id);
    touched.set(account.id, {
      account,
      charged: (before?.charged ?? false) || charge.charge > 0n || charge.fee > 0n,
      at: reading.at,
    });
    plan.outcomes.push({
      accountId: account.id,
      charged: charge.charge,
      fee: charge.fee,
      balanceAfter: BigInt(account.balance),
    });
  }
  return plan;
}
