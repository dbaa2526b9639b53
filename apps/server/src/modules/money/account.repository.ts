import type { ChargePart } from "@meterline/billing";
import type { Queryable } from "../../db/client.ts";

/** The table of each energy type's meters: 1 electric, 2 water. */
export const METER_TABLE = { 1: "pms_meter", 2: "pms_water" } as const;

/** An account row locked for a balance change, with its alarm scheme's thresholds joined. */
export interface LockedAccount {
  id: string;
  tenant_id: string;
  owner_id: string;
  energy_type: 1 | 2;
  meter_id: string;
  control_status: 0 | 1;
  status: 1 | 2;
  /** Whole fen, as text (bigint). */
  balance: string;
  alarm_level: number;
  arrears_status: number;
  first_alarm: string | null;
  second_alarm: string | null;
  arrears_limit: string | null;
  trip_on_arrears: number | null;
  protect_times: string | null;
  protect_dates: string | null;
  arrears_cut: 0 | 1 | 2;
}

/** What a balance change reads of an account and its alarm scheme (`a` and `s`). */
export const LOCKED_COLUMNS = `a.id, a.tenant_id, a.owner_id, a.energy_type, a.meter_id, a.control_status, a.status,
  a.balance, a.alarm_level, a.arrears_status, a.arrears_cut, s.first_alarm, s.second_alarm, s.arrears_limit,
  s.trip_on_arrears, s.protect_times, s.protect_dates`;

/**
 * Locks one account of a tenant until the transaction ends: balance changes to the same account
 * queue here, so concurrent recharges and charges each see the balance the previous one left.
 */
export async function lockAccount(
  tx: Queryable,
  tenantId: string,
  accountId: string,
  options: { skipLocked?: boolean } = {},
) {
  const [row] = await tx.query<LockedAccount>(
    `select ${LOCKED_COLUMNS}
       from pms_account a
       left join pms_alarm_scheme s on s.tenant_id = a.tenant_id and s.id = a.alarm_scheme_id and s.is_deleted = 0
      where a.id = $1 and a.tenant_id = $2
        for update of a${options.skipLocked ? " skip locked" : ""}`,
    [accountId, tenantId],
  );
  return row;
}

/** The open account of a meter, if any. */
export async function openAccountOf(tx: Queryable, tenantId: string, energyType: number, meterId: string) {
  const [row] = await tx.query<{ id: string }>(
    "select id from pms_account where tenant_id = $1 and energy_type = $2 and meter_id = $3 and status = 1",
    [tenantId, energyType, meterId],
  );
  return row?.id;
}

export interface LedgerEntry {
  id: string;
  tenantId: string;
  accountId: string;
  ownerId: string;
  entryType: number;
  amount: bigint;
  balanceAfter: bigint;
  rechargeId?: string | undefined;
  usage?: bigint | undefined;
  usageDay?: string | undefined;
  readingId?: string | undefined;
  /** The one part of a charge priced whole in it (wholePart); its parts' rows otherwise. */
  part?: string | null | undefined;
  cause: string;
  userId?: string | undefined;
  creator: string;
}

/**
 * Appends the entry and moves the account's and the owner's balances with it, in one statement so
 * the three can never disagree. The owner's balance is the sum of their accounts (in yuan, as the
 * owner screens show it).
 */
export async function appendEntry(
  tx: Queryable,
  entry: LedgerEntry,
  state: { alarmLevel: number; arrearsStatus: number },
): Promise<void> {
  await tx.query(
    `with entry as (
       insert into pms_ledger (id, tenant_id, account_id, owner_id, entry_type, amount, balance_after,
                               recharge_id, usage, usage_day, cause, create_user, creator, reading_id, part)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $16, $17)
       returning account_id, owner_id, amount, balance_after
     ), account as (
       update pms_account a set balance = e.balance_after, alarm_level = $14, arrears_status = $15, update_time = now()
         from entry e where a.id = e.account_id and a.tenant_id = $2
     )
     update pms_owner o set balance = o.balance + e.amount / 100.0
       from entry e where o.id = e.owner_id and o.tenant_id = $2`,
    [
      entry.id,
      entry.tenantId,
      entry.accountId,
      entry.ownerId,
      entry.entryType,
      entry.amount.toString(),
      entry.balanceAfter.toString(),
      entry.rechargeId ?? null,
      entry.usage?.toString() ?? null,
      entry.usageDay ?? null,
      entry.cause.slice(0, 255),
      entry.userId || null,
      entry.creator.slice(0, 64),
      state.alarmLevel,
      state.arrearsStatus,
      entry.readingId ?? null,
      entry.part ?? null,
    ],
  );
}

/**
 * Joins the address (product_code) of the meter a row with energy_type and meter_id names, in the
 * row's own tenant (a row names only its tenant's meters; the lookup stays on the row's shard).
 */
export const meterCodeJoin = (row: string, as: string) =>
  `left join lateral (select product_code from pms_meter
      where ${row}.energy_type = 1 and tenant_id = ${row}.tenant_id and id = ${row}.meter_id
     union all select product_code from pms_water
      where ${row}.energy_type = 2 and tenant_id = ${row}.tenant_id and id = ${row}.meter_id) ${as} on true`;

/**
 * The part a usage charge keeps on its own entry: one priced whole in one tier or band (the part's
 * usage is the entry's usage, its charge the entry's amount) needs no row of pms_ledger_part. Null
 * for anything else (several parts, or one that is not the whole entry): those keep their rows.
 */
export function wholePart(
  parts: readonly ChargePart[],
  usage: bigint | null | undefined,
  amount: bigint,
): string | null {
  const only = parts.length === 1 ? parts[0] : undefined;
  if (!only || usage === null || usage === undefined) return null;
  return only.usage === usage && only.charge === -amount ? only.part : null;
}

/** A usage charge's split by tier or band, stamped with the entry's own tenant, account and time. */
export async function appendParts(
  tx: Queryable,
  ledgerId: string,
  parts: readonly ChargePart[],
): Promise<void> {
  await tx.query(
    `insert into pms_ledger_part (ledger_id, tenant_id, account_id, part, usage, charge, create_time)
     select l.id, l.tenant_id, l.account_id, p.part, p.usage, p.charge, l.create_time
       from pms_ledger l, unnest($2::text[], $3::bigint[], $4::bigint[]) as p(part, usage, charge)
      where l.id = $1`,
    [
      ledgerId,
      parts.map((p) => p.part),
      parts.map((p) => p.usage.toString()),
      parts.map((p) => p.charge.toString()),
    ],
  );
}
