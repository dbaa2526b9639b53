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

/**
 * Plans a batch's readings over their accounts (by meter key) in arrival order by the same rules
 * as a single reading (planCharge): the entries to append, the accounts moved (written over the
 * given objects) and each reading's outcome by its index; a reading of a meter without a priced
 * account, or one not newer than its account's last priced reading, has none.
 */
export function planBatch<A extends PricedAccount>(
  accounts: ReadonlyMap<string, A>,
  readings: readonly PricedReading[],
  timeZone: string,
) {
  const entries: BatchEntry[] = [];
  const touched = new Map<string, TouchedAccount<A>>();
  const outcomes = readings.map((reading) => {
    const account = accounts.get(readingKey(reading));
    if (!account) return undefined;
    const plan = planCharge(account, reading, timeZone);
    if (!plan) return undefined;
    if (plan.charge > 0n)
      entries.push(
        entryOf(
          account,
          LEDGER_TYPE.usageCharge,
          -plan.charge,
          `用量 ${plan.day}`,
          plan.day,
          plan.usage,
          plan.parts,
        ),
      );
    if (plan.fee > 0n)
      entries.push(
        entryOf(account, LEDGER_TYPE.monthlyFee, -plan.fee, `月固定费 ${plan.month}`, plan.day, null, []),
      );
    applyPlan(account, plan, reading.at);
    const before = touched.get(account.id);
    touched.set(account.id, {
      account,
      charged: (before?.charged ?? false) || plan.charge > 0n || plan.fee > 0n,
      at: reading.at,
    });
    return {
      accountId: account.id,
      charged: plan.charge,
      fee: plan.fee,
      balanceAfter: BigInt(account.balance),
    } satisfies PricingOutcome;
  });
  return { outcomes, entries, touched };
}
