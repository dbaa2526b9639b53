import {
  advance,
  type Band,
  type ChargePart,
  type CycleUsage,
  chargeBetween,
  chargeParts,
  cycleKey,
  cycleOf,
  monthlyFeeFen,
  registerStep,
  type Tariff,
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

/** Who pricing books as. */
export const PRICING: Actor = { name: "计费" };

/** What pricing reads of an account (`a`) with its alarm (`s`) and charging (`c`) schemes. */
export const PRICED_SELECT = `select ${LOCKED_COLUMNS}, a.cycle_key, a.cycle_total, a.cycle_tip, a.cycle_peak, a.cycle_peace,
            a.cycle_low, a.register_total, a.register_tip, a.register_peak, a.register_peace, a.register_low,
            a.priced_time, a.fee_month, c.price_mode, c.price, c.ladder_cycle, c.ladder, c.tip_price, c.peak_price,
            c.peace_price, c.low_price, c.monthly_fee, coalesce(a.priced_from, a.opened_time) as priced_from`;

/** The account with the schemes it is priced by (deleted schemes count as none). */
export const PRICED_FROM = `from pms_account a
       left join pms_alarm_scheme s on s.tenant_id = a.tenant_id and s.id = a.alarm_scheme_id and s.is_deleted = 0
       left join pms_charging_scheme c on c.tenant_id = a.tenant_id and c.id = a.charging_scheme_id and c.is_deleted = 0`;

/** The open account that the server prices for a meter, locked, with its charging scheme; undefined if none. */
export async function lockPricedAccount(
  tx: Queryable,
  tenantId: string,
  energyType: number,
  meterId: string,
) {
  const [row] = await tx.query<PricedAccount>(
    `${PRICED_SELECT}
       ${PRICED_FROM}
      where a.tenant_id = $1 and a.energy_type = $2 and a.meter_id = $3 and a.status = 1 and a.control_status = 1
        for update of a`,
    [tenantId, energyType, meterId],
  );
  return row;
}

const big = (value: string | null | undefined) =>
  value === null || value === undefined ? null : BigInt(value);

/** A band's register as read (decimal text), in 0.01 units; null where the meter has no such band. */
const registerUnits = (value: string | null | undefined) =>
  value === null || value === undefined ? null : toUnits(value, 2);

/** A band's step since its last priced register (0 the first time); undefined where the meter has no such band. */
function bandStep(now: bigint | null, before: string | null): bigint | undefined {
  if (now === null) return undefined;
  return before === null ? 0n : registerStep(BigInt(before), now).usage;
}

/** A time column as the driver gives it (a Date) or as a batch keeps it. */
const timeOf = (value: Date | string) => (value instanceof Date ? value.getTime() : Date.parse(value));

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

/**
 * Tariffs already parsed, by the text of their scheme's columns: a wave's thousand readings share
 * a handful of schemes, and parsing each one's prices for every reading was a tenth of pricing's
 * time. Bounded: forgotten whole past a few hundred schemes. A tariff is frozen, as it is shared.
 */
const parsedTariffs = new Map<string, Tariff>();
const MAX_PARSED_TARIFFS = 500;

/** The tariff of a priced account's charging scheme. */
export function tariffOfAccount(account: PricedAccount & { price_mode: number }): Tariff {
  // An account a gateway remembers is priced wave after wave as the same object, whose scheme
  // columns never change: its tariff is found without building the key.
  const held = tariffsByAccount.get(account);
  if (held) return held;
  const tariff = tariffOfColumns(account);
  tariffsByAccount.set(account, tariff);
  return tariff;
}

const tariffsByAccount = new WeakMap<object, Tariff>();

function tariffOfColumns(account: PricedAccount & { price_mode: number }): Tariff {
  const key = [
    account.price_mode,
    account.price,
    account.ladder_cycle,
    account.ladder,
    account.tip_price,
    account.peak_price,
    account.peace_price,
    account.low_price,
    account.monthly_fee,
  ]
    .map((value) => (value === null || value === undefined ? "\u0000" : String(value)))
    .join("\u0001");
  const known = parsedTariffs.get(key);
  if (known) return known;
  const tariff = deepFreeze(parseTariff(account));
  if (parsedTariffs.size >= MAX_PARSED_TARIFFS) parsedTariffs.clear();
  parsedTariffs.set(key, tariff);
  return tariff;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

function parseTariff(account: PricedAccount & { price_mode: number }): Tariff {
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

/** What pricing one reading does to an account: its charge and fee, and the account's new position. */
export interface ChargePlan {
  day: string;
  month: string;
  /** The registers' step since the last priced reading (0.01 units). */
  usage: bigint;
  charge: bigint;
  parts: readonly ChargePart[];
  fee: bigint;
  cycleKey: string;
  moved: CycleUsage;
  registers: { total: bigint; bands: Record<Band, bigint | null> };
}

/**
 * The pure part of pricing (shared by one reading and a batch of them): the registers' step since
 * the account's last priced reading, added to the cycle-to-date usage and charged by the rounding
 * rule of @meterline/billing, plus the month's fixed fee at the month's first reading. Undefined when
 * the account has no price or the reading is not newer than the last one priced.
 */
export function planCharge(
  account: PricedAccount,
  reading: PricedReading,
  timeZone: string,
): ChargePlan | undefined {
  if (account.price_mode === null) return undefined;
  if (account.priced_time && reading.at.getTime() <= timeOf(account.priced_time)) return undefined;
  const tariff = tariffOfAccount(account as PricedAccount & { price_mode: number });
  const day = localDay(reading.at, timeZone);
  // Each band written out (not looped over by computed names): pricing runs for every reading of
  // every wave, and the generic form cost a third of its time.
  const bands = reading.registers.bands;
  const next = {
    total: toUnits(reading.registers.total, 2),
    bands: {
      tip: registerUnits(bands?.tip),
      peak: registerUnits(bands?.peak),
      peace: registerUnits(bands?.peace),
      low: registerUnits(bands?.low),
    } satisfies Record<Band, bigint | null>,
  };
  const previousTotal = big(account.register_total);
  const totalStep =
    previousTotal === null ? { usage: 0n, reset: false } : registerStep(previousTotal, next.total);
  // Band steps where the meter reports bands; a single-rate meter's usage is all in the flat band.
  const bandSteps: Partial<Record<Band, bigint>> = {};
  const tip = bandStep(next.bands.tip, account.register_tip);
  const peak = bandStep(next.bands.peak, account.register_peak);
  const peace = bandStep(next.bands.peace, account.register_peace);
  const low = bandStep(next.bands.low, account.register_low);
  if (tip !== undefined) bandSteps.tip = tip;
  if (peak !== undefined) bandSteps.peak = peak;
  if (peace !== undefined) bandSteps.peace = peace;
  if (low !== undefined) bandSteps.low = low;
  const hasBands = tip !== undefined || peak !== undefined || peace !== undefined || low !== undefined;
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
  const month = day.slice(0, 7);
  return {
    day,
    month,
    usage: step.total,
    charge,
    parts: charge > 0n ? chargeParts(tariff, position, moved, charge) : [],
    fee: account.fee_month !== month ? monthlyFeeFen(tariff) : 0n,
    cycleKey: key,
    moved,
    registers: next,
  };
}

/**
 * The account's priced position after a plan, in its columns' text form: the next reading of the
 * same account (in a batch) starts from here.
 */
export function applyPlan(account: PricedAccount, plan: ChargePlan, at: Date): void {
  const moved = plan.moved.bands;
  const registers = plan.registers.bands;
  account.cycle_key = plan.cycleKey;
  account.cycle_total = plan.moved.total.toString();
  account.cycle_tip = (moved?.tip ?? 0n).toString();
  account.cycle_peak = (moved?.peak ?? 0n).toString();
  account.cycle_peace = (moved?.peace ?? 0n).toString();
  account.cycle_low = (moved?.low ?? 0n).toString();
  account.register_total = plan.registers.total.toString();
  // A band the meter did not report keeps its last register.
  if (registers.tip !== null) account.register_tip = registers.tip.toString();
  if (registers.peak !== null) account.register_peak = registers.peak.toString();
  if (registers.peace !== null) account.register_peace = registers.peace.toString();
  if (registers.low !== null) account.register_low = registers.low.toString();
  account.priced_time = at;
  account.fee_month = plan.month;
}

/** The account's priced position as the update of pricing writes it (columns in BANDS' order). */
export const pricedPosition = (account: PricedAccount) => [
  account.cycle_key,
  account.cycle_total,
  account.cycle_tip,
  account.cycle_peak,
  account.cycle_peace,
  account.cycle_low,
  account.register_total,
  account.register_tip,
  account.register_peak,
  account.register_peace,
  account.register_low,
  account.priced_time,
  account.fee_month,
];

/** priceReading inside the caller's transaction (a reading entered by hand is priced with its correction). */
export async function priceReadingIn(
  tx: Queryable,
  reading: PricedReading,
  timeZone: string,
): Promise<PricingOutcome | undefined> {
  const account = await lockPricedAccount(tx, reading.tenantId, reading.energyType, reading.meterId);
  if (!account) return undefined;
  const plan = planCharge(account, reading, timeZone);
  if (!plan) return undefined;
  if (plan.charge > 0n) {
    await book(tx, account, {
      type: LEDGER_TYPE.usageCharge,
      amount: -plan.charge,
      cause: `用量 ${plan.day}`,
      actor: PRICING,
      usage: plan.usage,
      usageDay: plan.day,
      parts: plan.parts,
    });
  }
  if (plan.fee > 0n) {
    await book(tx, account, {
      type: LEDGER_TYPE.monthlyFee,
      amount: -plan.fee,
      cause: `月固定费 ${plan.month}`,
      actor: PRICING,
      usageDay: plan.day,
    });
  }
  applyPlan(account, plan, reading.at);
  await tx.query(
    `update pms_account set cycle_key = $2, cycle_total = $3, cycle_tip = $4, cycle_peak = $5, cycle_peace = $6,
            cycle_low = $7, register_total = $8, register_tip = $9, register_peak = $10, register_peace = $11,
            register_low = $12, priced_time = $13, fee_month = $14
      where id = $1`,
    [account.id, ...pricedPosition(account)],
  );
  if (plan.charge > 0n || plan.fee > 0n) await settleSupply(tx, account, reading.at, timeZone);
  return {
    accountId: account.id,
    charged: plan.charge,
    fee: plan.fee,
    balanceAfter: BigInt(account.balance),
  };
}
