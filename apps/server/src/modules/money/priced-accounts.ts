import type { Queryable } from "../../db/client.ts";
import { prepared } from "../../db/prepared.ts";
import { PRICED_FROM, PRICED_SELECT, type PricedAccount, type PricedReading } from "./usage-pricing.ts";

/**
 * A priced account as read, with the versions of the rows it was read from: the account's and its
 * schemes' `xmin`, the transaction that last wrote each. A write of pricing that finds the same
 * versions knows that nothing it read has changed since (pricing-write.ts).
 */
export interface VersionedAccount extends PricedAccount {
  row_version: string;
  charging_scheme_id: string | null;
  charging_version: string | null;
  alarm_scheme_id: string | null;
  alarm_version: string | null;
}

export const accountKey = (tenantId: string, energyType: number, meterId: string) =>
  `${tenantId}:${energyType}:${meterId}`;

export const readingKey = (reading: PricedReading) =>
  accountKey(reading.tenantId, reading.energyType, reading.meterId);

const distinct = <T>(values: T[]) => [...new Set(values)];

/**
 * The open priced accounts of the readings' meters with their versions, by meter key. Unlocked,
 * for the write that takes each account only if its version is still the one read here; locked
 * (`lock`), in id order, so two processes pricing overlapping batches under lock queue instead of
 * deadlocking. Found by the open-meter index probed with the readings' tenants, kinds and meters
 * (`= any`) whatever the table's size: a join to the wave's rows let the planner scan every account.
 */
export async function readPricedAccounts(
  q: Queryable,
  readings: readonly PricedReading[],
  lock = false,
): Promise<Map<string, VersionedAccount>> {
  if (readings.length === 0) return new Map();
  const rows = await q.query<VersionedAccount>(
    prepared(`${PRICED_SELECT}, a.xmin::text as row_version, a.charging_scheme_id::text as charging_scheme_id,
            c.xmin::text as charging_version, a.alarm_scheme_id::text as alarm_scheme_id, s.xmin::text as alarm_version
       ${PRICED_FROM}
      where a.tenant_id = any($1::varchar[]) and a.energy_type = any($2::int[]) and a.meter_id = any($3::bigint[])
        and a.status = 1 and a.control_status = 1${lock ? "\n      order by a.id for update of a" : ""}`),
    [
      distinct(readings.map((r) => r.tenantId)),
      distinct(readings.map((r) => r.energyType)),
      distinct(readings.map((r) => r.meterId)),
    ],
  );
  // Meter ids are unique across kinds and tenants, so the probe's combinations find only the
  // readings' own accounts; each is taken by its exact key all the same.
  return new Map(rows.map((row) => [accountKey(row.tenant_id, row.energy_type, row.meter_id), row]));
}

/**
 * How many priced accounts a gateway process remembers unless GATEWAY_PRICED_ACCOUNTS says
 * otherwise: ~1 kB each, so a process pricing 50,000 meters holds ~50 MB of them and prices every
 * wave without reading its accounts (a fleet of 30,000 measured 15,000 priced readings a second
 * remembered whole, 12,700 with 20,000 remembered and 13,200 with none).
 */
export const DEFAULT_PRICED_ACCOUNTS = 50_000;

/**
 * The priced accounts a gateway process wrote last, as it wrote them, by meter: its next wave of
 * the same meters is priced from here without reading them again, and the write proves them
 * current by their versions (a recharge, a correction, another process or a scheme edit in between
 * changes a version; the write then leaves that account and it is read afresh).
 *
 * Bounded in count: once full, a meter not yet remembered is not taken in, so a fleet larger than
 * the bound keeps a steady share remembered instead of each wave pushing out what the next one
 * needs. Bounded in age: an entry not written again within `maxAgeMs` is forgotten, so meters that
 * moved to another process leave, and a version is never compared after the transaction counter
 * could have come round to it again.
 */
export class PricedAccountMemory {
  private readonly accounts = new Map<string, { account: VersionedAccount; at: number }>();

  constructor(
    readonly limit = DEFAULT_PRICED_ACCOUNTS,
    readonly maxAgeMs = 3_600_000,
    private readonly now: () => number = Date.now,
  ) {}

  get size(): number {
    return this.accounts.size;
  }

  /**
   * The remembered account, if it is still young enough. It is lent, not copied: pricing plans over
   * it in place, so whoever recalls it must remember it again once written or forget it.
   */
  recall(key: string): VersionedAccount | undefined {
    const entry = this.accounts.get(key);
    if (!entry) return undefined;
    if (this.now() - entry.at > this.maxAgeMs) {
      this.accounts.delete(key);
      return undefined;
    }
    return entry.account;
  }

  /** The account as just written (its new version). */
  remember(key: string, account: VersionedAccount): void {
    const at = this.now();
    const entry = this.accounts.get(key);
    if (entry) {
      // Written again, an entry moves to the end: the map stays in the order of writing, oldest first.
      this.accounts.delete(key);
      entry.account = account;
      entry.at = at;
      this.accounts.set(key, entry);
    } else if (this.accounts.size < this.limit || this.expire(at)) this.accounts.set(key, { account, at });
  }

  forget(key: string): void {
    this.accounts.delete(key);
  }

  /**
   * Drops the entries past their age (looked for only once full); true if room was made. The
   * oldest are first, so the look stops at the first young one: a full memory of a fleet larger
   * than the bound answers at once for each meter it does not take in (a look through every entry,
   * each time, cost a wave of such meters half the process's time).
   */
  private expire(at: number): boolean {
    for (const [key, entry] of this.accounts) {
      if (at - entry.at <= this.maxAgeMs) break;
      this.accounts.delete(key);
    }
    return this.accounts.size < this.limit;
  }
}
