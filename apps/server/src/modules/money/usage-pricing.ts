import {
  advance,
  BANDS,
  type Band,
  type CycleUsage,
  chargeBetween,
  chargeParts,
  cycleKey,
  cycleOf,
  monthlyFeeFen,
  registerStep,
  tariffOf,
  toUnits,
} from "@meterline/billing";
import type { Db, Queryable } from "../../db/client.ts";
import { localDay } from "../metering/usage-periods.ts";
import { LOCKED_COLUMNS, type LockedAccount } from "./account.repository.ts";
import { type Actor, book, LEDGER_TYPE } from "./account-book.ts";
import { settleSupply } from "./arrears.ts";

/** A meter's registers as read: decimal text to 2 places, bands absent where the meter has none. */
export interface ReadRegisters {
  total: string;
  bands?: Partial<Record<Band, string | null>>;
}

export interface PricedAccount extends LockedAccount {
  cycle_key: string | null;
  cycle_total: string;
  cycle_tip: string;
  cycle_peak: string;
  cycle_peace: string;
  cycle_low: string;
  register_total: string | null;
  register_tip: string | null;
  register_peak: string | null;
  register_peace: string | null;
  register_low: string | null;
  priced_time: Date | null;
  fee_month: string | null;
  price_mode: number | null;
  price: string | null;
  ladder_cycle: number | null;
  ladder: string | null;
  tip_price: string | null;
  peak_price: string | null;
  peace_price: string | null;
  low_price: string | null;
  monthly_fee: string | null;
  /** The reading pricing began from at opening (the opening time for accounts that predate it). */
  priced_from: Date;
}

const PRICING: Actor = { name: "计费" };

/** The open account that the server prices for a meter, locked, with its charging scheme; undefined if none. */
export async function lockPricedAccount(
  tx: Queryable,
  tenantId: string,
  energyType: number,
  meterId: string,
) {
  const [row] = await tx.query<PricedAccount>(
    `select ${LOCKED_COLUMNS}, a.cycle_key, a.cycle_total, a.cycle_tip, a.cycle_peak, a.cycle_peace, a.cycle_low,
            a.register_total, a.register_tip, a.register_peak, a.register_peace, a.register_low, a.priced_time,
            a.fee_month, c.price_mode, c.price, c.ladder_cycle, c.ladder, c.tip_price, c.peak_price, c.peace_price,
            c.low_price, c.monthly_fee, coalesce(a.priced_from, a.opened_time) as priced_from
       from pms_account a
       left join pms_alarm_scheme s on s.id = a.alarm_scheme_id and s.is_deleted = 0
       left join pms_charging_scheme c on c.id = a.charging_scheme_id and c.is_deleted = 0
      where a.tenant_id = $1 and a.energy_type = $2 and a.meter_id = $3 and a.status = 1 and a.control_status = 1
        for update of a`,
    [tenantId, energyType, meterId],
  );
  return row;
}

const big = (value: string | null | undefined) =>
  value === null || value === undefined ? null : BigInt(value);

export interface PricingOutcome {
  accountId: string;
  charged: bigint;
  fee: bigint;
  balanceAfter: bigint;
}

/**
 * Prices a reading of a meter whose balance the server keeps (remote control): the registers'
 * step since the last priced reading, added to the cycle-to-date usage, charged by the rounding rule
 * of @meterline/billing (so no fen is lost however readings split the usage), plus the month's fixed
 * fee at the month's first reading. A register that ran backwards (meter replaced or reset) is
 * never charged; a reading older than the last priced one changes nothing.
 */
export function priceReading(
  db: Db,
  reading: PricedReading,
  timeZone: string,
): Promise<PricingOutcome | undefined> {
  return db.transaction((tx) => priceReadingIn(tx, reading, timeZone));
}

export interface PricedReading {
  tenantId: string;
  energyType: 1 | 2;
  meterId: string;
  at: Date;
  registers: ReadRegisters;
}

/** The tariff of a priced account's charging scheme. */
export function tariffOfAccount(account: PricedAccount & { price_mode: number }) {
  return tariffOf({
    priceMode: account.price_mode,
    price: account.price,
    ladderCycle: account.ladder_cycle,
    ladder: account.ladder,
    tipPrice: account.tip_price,
    peakPrice: account.peak_price,
    peacePrice: account.peace_price ?? account.price,
    lowPrice: account.low_price,
    monthlyFee: account.monthly_fee,
  });
}

/** priceReading inside the caller's transaction (a reading entered by hand is priced with its correction). */
export async function priceReadingIn(
  tx: Queryable,
  reading: PricedReading,
  timeZone: string,
): Promise<PricingOutcome | undefined> {
  {
    const account = await lockPricedAccount(tx, reading.tenantId, reading.energyType, reading.meterId);
    if (!account || account.price_mode === null) return undefined;
    if (account.priced_time && reading.at.getTime() <= account.priced_time.getTime()) return undefined;
    const tariff = tariffOfAccount({ ...account, price_mode: account.price_mode });
    const day = localDay(reading.at, timeZone);
    const next = {
      total: toUnits(reading.registers.total, 2),
      bands: Object.fromEntries(
        BANDS.map((band) => {
          const value = reading.registers.bands?.[band];
          return [band, value === null || value === undefined ? null : toUnits(value, 2)];
        }),
      ) as Record<Band, bigint | null>,
    };
    const previousTotal = big(account.register_total);
    const totalStep =
      previousTotal === null ? { usage: 0n, reset: false } : registerStep(previousTotal, next.total);
    // Band steps where the meter reports bands; a single-rate meter's usage is all in the flat band.
    const bandSteps: Partial<Record<Band, bigint>> = {};
    let hasBands = false;
    for (const band of BANDS) {
      const now = next.bands[band];
      const before = big(account[`register_${band}`]);
      if (now === null) continue;
      hasBands = true;
      bandSteps[band] = before === null ? 0n : registerStep(before, now).usage;
    }
    const step: CycleUsage = {
      total: totalStep.usage,
      bands: hasBands ? bandSteps : { peace: totalStep.usage },
    };
    const key = cycleKey(day, cycleOf(tariff));
    const position: CycleUsage =
      account.cycle_key === key
        ? {
            total: BigInt(account.cycle_total),
            bands: {
              tip: BigInt(account.cycle_tip),
              peak: BigInt(account.cycle_peak),
              peace: BigInt(account.cycle_peace),
              low: BigInt(account.cycle_low),
            },
          }
        : { total: 0n, bands: { tip: 0n, peak: 0n, peace: 0n, low: 0n } };
    const moved = advance(position, step);
    const charge = chargeBetween(tariff, position, moved);
    if (charge > 0n) {
      await book(tx, account, {
        type: LEDGER_TYPE.usageCharge,
        amount: -charge,
        cause: `用量 ${day}`,
        actor: PRICING,
        usage: step.total,
        usageDay: day,
        parts: chargeParts(tariff, position, moved),
      });
    }
    const month = day.slice(0, 7);
    let fee = 0n;
    if (account.fee_month !== month) {
      fee = monthlyFeeFen(tariff);
      if (fee > 0n) {
        await book(tx, account, {
          type: LEDGER_TYPE.monthlyFee,
          amount: -fee,
          cause: `月固定费 ${month}`,
          actor: PRICING,
          usageDay: day,
        });
      }
    }
    await tx.query(
      `update pms_account set cycle_key = $2, cycle_total = $3, cycle_tip = $4, cycle_peak = $5, cycle_peace = $6,
              cycle_low = $7, register_total = $8, register_tip = coalesce($9, register_tip),
              register_peak = coalesce($10, register_peak), register_peace = coalesce($11, register_peace),
              register_low = coalesce($12, register_low), priced_time = $13, fee_month = $14
        where id = $1`,
      [
        account.id,
        key,
        moved.total.toString(),
        ...BANDS.map((band) => (moved.bands?.[band] ?? 0n).toString()),
        next.total.toString(),
        ...BANDS.map((band) => next.bands[band]?.toString() ?? null),
        reading.at,
        month,
      ],
    );
    if (charge > 0n || fee > 0n) await settleSupply(tx, account, reading.at, timeZone);
    return { accountId: account.id, charged: charge, fee, balanceAfter: BigInt(account.balance) };
  }
}
