import {
  BANDS,
  type Band,
  cycleKey,
  cycleOf,
  NO_REGISTERS,
  priceSeries,
  type RegisterState,
  type SeriesRead,
  toUnits,
} from "@meterline/billing";
import type { Queryable } from "../../db/client.ts";
import { localDay } from "../metering/usage-periods.ts";
import { type Actor, book, LEDGER_TYPE } from "./account-book.ts";
import { settleSupply } from "./arrears.ts";
import { lockPricedAccount, priceReadingIn, tariffOfAccount } from "./usage-pricing.ts";

/** A reading voided or entered by hand on one meter, and what it changes in the log. */
export interface ReadingChange {
  kind: "void" | "manual";
  tenantId: string;
  energyType: 1 | 2;
  meterId: string;
  log: "pms_data_read" | "pms_water_data_read";
  readingId: string;
  readTime: Date;
  totalValue: string;
  /** Manual reads: the band registers entered (tip, peak, flat, valley). */
  bands?: readonly (string | null)[];
  /** Shown in the ledger entry: the operator's reason or the reading described. */
  cause: string;
  /** Writes the change to the log (and the day's usage); run inside the caller's transaction. */
  apply: () => Promise<void>;
}

export interface CorrectionOutcome {
  accountId: string;
  /** Fen booked: negative when the correction charges more, positive when it gives back. */
  amount: bigint;
  ledgerId: string | null;
}

const units = (value: string | null | undefined) =>
  value === null || value === undefined ? null : toUnits(value, 2);

/**
 * A correction of the readings of a meter whose balance the server keeps (design.md §5 "Money
 * flows"). The account is locked first, so pricing of new readings and other corrections queue
 * behind it. The span the change touches — from the start of the changed reading's billing cycle
 * (or the account's opening, if later) up to the last reading priced — is priced from scratch
 * before and after the change with the account's charging scheme; the difference is booked as one
 * usage-correction entry linked to the reading, and the account's cycle position and registers
 * become those of the corrected series, so pricing goes on from there. The balance, alarm level
 * and arrears cut or restore follow through the same book and settleSupply as any charge.
 *
 * A reading after the last one priced was not charged yet: voiding it moves no money, and one
 * entered by hand is priced as a reading arriving from the meter would be. Without a priced
 * account the change is simply applied. Answers undefined when no money was involved.
 */
export async function correctPricedReading(
  tx: Queryable,
  change: ReadingChange,
  actor: Actor,
  timeZone: string,
): Promise<CorrectionOutcome | undefined> {
  const account = await lockPricedAccount(tx, change.tenantId, change.energyType, change.meterId);
  const pricedTime = account?.priced_time ?? null;
  if (!account || account.price_mode === null || pricedTime === null || change.readTime > pricedTime) {
    await change.apply();
    if (account && change.kind === "manual") {
      const bands = change.bands ?? [];
      await priceReadingIn(
        tx,
        {
          tenantId: change.tenantId,
          energyType: change.energyType,
          meterId: change.meterId,
          at: change.readTime,
          registers: {
            total: change.totalValue,
            bands: Object.fromEntries(BANDS.map((band, i) => [band, bands[i] ?? null])),
          },
        },
        timeZone,
      );
    }
    return undefined;
  }
  const tariff = tariffOfAccount({ ...account, price_mode: account.price_mode });
  const day = localDay(change.readTime, timeZone);
  const key = cycleKey(day, cycleOf(tariff));
  const cycleStart = key.length === 4 ? `${key}-01-01` : `${key}-01`;
  // Readings at or before the floor are not in the span: the last of them is where it starts from.
  const [{ floor } = { floor: new Date(0) }] = await tx.query<{ floor: Date }>(
    `select greatest(($1::date)::timestamp at time zone $2 - interval '1 microsecond', $3::timestamptz) as floor`,
    [cycleStart, timeZone, account.priced_from],
  );
  if (change.readTime <= floor) {
    await change.apply(); // at or before where pricing began: never charged
    return undefined;
  }
  const span = () => readSpan(tx, change, floor, pricedTime, timeZone);
  const before = await span();
  await change.apply();
  const after = await span();
  const old = priceSeries(tariff, before.start, before.reads);
  const now = priceSeries(tariff, after.start, after.reads);
  const owed = now.charged - old.charged;
  let ledgerId: string | null = null;
  if (owed !== 0n) {
    const booked = await book(tx, account, {
      type: LEDGER_TYPE.usageCorrection,
      amount: -owed,
      cause: change.cause,
      actor,
      usage: now.usage - old.usage,
      usageDay: day,
      readingId: change.readingId,
    });
    ledgerId = booked.ledgerId;
  }
  const position = now.cycle ?? {
    key,
    position: { total: 0n, bands: { tip: 0n, peak: 0n, peace: 0n, low: 0n } },
  };
  const registers = now.registers;
  await tx.query(
    `update pms_account set cycle_key = $2, cycle_total = $3, cycle_tip = $4, cycle_peak = $5, cycle_peace = $6,
            cycle_low = $7, register_total = $8, register_tip = $9, register_peak = $10, register_peace = $11,
            register_low = $12
      where id = $1`,
    [
      account.id,
      position.key,
      position.position.total.toString(),
      ...BANDS.map((band) => (position.position.bands?.[band] ?? 0n).toString()),
      registers.total?.toString() ?? null,
      ...BANDS.map((band) => registers.bands[band]?.toString() ?? null),
    ],
  );
  if (owed !== 0n) await settleSupply(tx, account, new Date(), timeZone);
  return { accountId: account.id, amount: -owed, ledgerId };
}

type LogRow = Record<"total_value" | `${Band}_value`, string | null> & { read_time: Date };

/** The counted readings of the span (floor, priced time], and the registers before it. */
async function readSpan(
  tx: Queryable,
  change: ReadingChange,
  floor: Date,
  pricedTime: Date,
  timeZone: string,
): Promise<{ start: RegisterState; reads: SeriesRead[] }> {
  const registers =
    change.log === "pms_data_read"
      ? "read_time, total_value, tip_value, peak_value, peace_value, low_value"
      : "read_time, total_value, null as tip_value, null as peak_value, null as peace_value, null as low_value";
  const counted = `tenant_id = $1 and meter_id = $2 and voided = 0`;
  const [baseline] = await tx.query<LogRow>(
    `select ${registers} from ${change.log} where ${counted} and read_time <= $3 order by read_time desc, id desc limit 1`,
    [change.tenantId, change.meterId, floor],
  );
  const rows = await tx.query<LogRow>(
    `select ${registers} from ${change.log} where ${counted} and read_time > $3 and read_time <= $4
      order by read_time, id`,
    [change.tenantId, change.meterId, floor, pricedTime],
  );
  const bandsOf = (row: LogRow) =>
    Object.fromEntries(BANDS.map((band) => [band, units(row[`${band}_value`])])) as Record<
      Band,
      bigint | null
    >;
  return {
    start: baseline ? { total: units(baseline.total_value), bands: bandsOf(baseline) } : NO_REGISTERS,
    reads: rows.map((row) => ({
      day: localDay(row.read_time, timeZone),
      total: units(row.total_value) ?? 0n,
      bands: bandsOf(row),
    })),
  };
}
