import { fenToYuan, toUnits } from "@meterline/billing";
import type { Db } from "../../db/client.ts";
import { localDay } from "../metering/usage-periods.ts";
import { LOCKED_COLUMNS, type LockedAccount } from "./account.repository.ts";
import { type Actor, book, LEDGER_TYPE } from "./account-book.ts";
import { knownPurchaseCount, openPurchase, rememberPurchaseCount } from "./meter-purchase.ts";

const METER_REGISTERS: Actor = { name: "表内余额" };
/** The part (pms_ledger_part) of a charge a local-prepaid meter priced by its own registers. */
export const METER_PRICED = "meter";

export interface PrepaidReading {
  tenantId: string;
  meterId: string;
  at: Date;
  /** The meter's remaining amount (00900200) and overdraft (00900201), yuan as read. */
  balance?: string | undefined;
  overdraft?: string | undefined;
  purchaseCount?: number | undefined;
  /** The meter's total energy register (kWh as read), so each charge carries the usage it is for. */
  total?: string | undefined;
}

/**
 * The usage (0.01 kWh) since the register the account last charged at, and the register to keep.
 * A register that went back (meter replaced, rollover) starts again from the new value with no
 * usage: the meter charged for what it measured, the books cannot tell how much that was.
 */
export function shadowUsage(
  previous: string | null,
  total: string | undefined,
): { usage: bigint | undefined; register: bigint | undefined } {
  if (total === undefined) return { usage: undefined, register: undefined };
  const now = toUnits(total, 2);
  if (previous === null) return { usage: undefined, register: now };
  const delta = now - BigInt(previous);
  return { usage: delta >= 0n ? delta : 0n, register: now };
}

/** The meter's own balance in fen: the remaining amount, or minus the overdraft once it is spent. */
export function meterBalanceFen(balance?: string, overdraft?: string): bigint | undefined {
  if (balance === undefined) return undefined;
  const remaining = toUnits(balance, 2);
  if (remaining > 0n) return remaining;
  // A zero remaining amount says nothing about the overdraft: without that register, wait.
  if (overdraft === undefined) return undefined;
  return -toUnits(overdraft, 2);
}

/**
 * Keeps the account of a local-prepaid meter (CONTROL_STATUS 0) equal to the meter's own balance
 * (design.md §5): a drop is the meter's usage charge, an unexplained rise (a purchase made at the
 * meter, a correction there) is booked as a correction naming its cause, so the balance stays the
 * sum of its ledger. Levels follow as for any account; the server never cuts such a meter, it
 * trips itself. Readings the server cannot place are left alone: older than what the account
 * already reflects, or taken while one of our purchases is unconfirmed (the meter may hold money
 * the ledger does not yet), or showing fewer purchases than the meter confirmed.
 */
export async function shadowReading(db: Db, reading: PrepaidReading, timeZone: string): Promise<void> {
  await db.transaction(async (tx) => {
    const { tenantId, meterId, at } = reading;
    const known = await knownPurchaseCount(tx, meterId);
    if (reading.purchaseCount !== undefined)
      await rememberPurchaseCount(tx, tenantId, meterId, reading.purchaseCount, at);
    const meterFen = meterBalanceFen(reading.balance, reading.overdraft);
    if (meterFen === undefined) return;
    const [account] = await tx.query<
      LockedAccount & { priced_time: Date | null; register_total: string | null }
    >(
      `select ${LOCKED_COLUMNS}, a.priced_time, a.register_total::text as register_total
         from pms_account a
         left join pms_alarm_scheme s on s.tenant_id = a.tenant_id and s.id = a.alarm_scheme_id and s.is_deleted = 0
        where a.tenant_id = $1 and a.energy_type = 1 and a.meter_id = $2 and a.status = 1 and a.control_status = 0
          for update of a`,
      [tenantId, meterId],
    );
    if (!account) return;
    if (account.priced_time && at.getTime() <= account.priced_time.getTime()) return;
    if (reading.purchaseCount !== undefined && known !== undefined && reading.purchaseCount < known) return;
    if (await openPurchase(tx, tenantId, meterId)) return;
    const difference = meterFen - BigInt(account.balance);
    const day = localDay(at, timeZone);
    // The usage goes with the charge it paid for: energy measured without a fen charged yet waits
    // (the register is not moved on) until the charge it adds up to, so no kWh is lost or doubled.
    const usage = difference < 0n ? shadowUsage(account.register_total, reading.total) : undefined;
    if (difference < 0n)
      await book(tx, account, {
        type: LEDGER_TYPE.usageCharge,
        amount: difference,
        cause: `表内扣费 ${day}`,
        actor: METER_REGISTERS,
        usageDay: day,
        ...(usage?.usage === undefined ? {} : { usage: usage.usage }),
        // The meter priced this itself: the books cannot tell its tiers or bands, only that it was the meter's.
        parts: [{ part: METER_PRICED, usage: usage?.usage ?? 0n, charge: -difference }],
      });
    // The register moves on with each charge, or is set once when the account never had one.
    const register =
      usage?.register ??
      (account.register_total === null && reading.total !== undefined
        ? toUnits(reading.total, 2)
        : undefined);
    if (register !== undefined)
      await tx.query("update pms_account set register_total = $2 where id = $1", [
        account.id,
        register.toString(),
      ]);
    if (difference > 0n)
      await book(tx, account, {
        type: LEDGER_TYPE.correctionPlus,
        amount: difference,
        cause: `表内余额 ${fenToYuan(meterFen)} 元高于账面 ${fenToYuan(meterFen - difference)} 元(购电次数 ${reading.purchaseCount ?? "未读到"}),按表计更正`,
        actor: METER_REGISTERS,
      });
    await tx.query("update pms_account set priced_time = $2 where id = $1", [account.id, at]);
  });
}
