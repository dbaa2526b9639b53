import { isPlainDecimal } from "@meterline/billing";
import type { EnergyRegisters, MeterReading } from "@meterline/gateway";
import type { Queryable } from "../../db/client.ts";
import { nextId } from "../../db/ids.ts";
import type { PricedReading } from "../money/usage-pricing.ts";
import { conditionFacts } from "./condition-facts.ts";
import {
  type CurrentRow,
  keepCurrentValues,
  type MeterPlace,
  markMetersRead,
} from "./current-data-batch.db.ts";
import {
  type DayRead,
  type ElectricRegisters,
  electricDayFreeze,
  electricDayReads,
  waterDayReads,
} from "./daily-usage.db.ts";
import { type DayPower, keepDayPowers } from "./day-power.db.ts";
import {
  type ElectricRead,
  insertElectricReads,
  insertWaterReads,
  type WaterRead,
} from "./reading-log.db.ts";
import { localDay } from "./usage-periods.ts";

/** Readings per batch at most: the arrays of each statement stay well within one message. */
export const MAX_BATCH = 1_000;

/** A reading waiting in the sink's queue, with its caller's promise. */
export interface Pending {
  reading: MeterReading;
  /** Where its meter belongs, once looked up. */
  place?: MeterPlace | undefined;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * A batch split so that each wave holds a meter at most once (a row may be written once per
 * statement), in arrival order: a meter's second reading goes in the next wave, after its first.
 */
export function wavesOf<T extends { reading: { meterId: string } }>(batch: readonly T[]): T[][] {
  const waves: T[][] = [];
  const seen: Set<string>[] = [];
  for (const item of batch) {
    let i = 0;
    while (seen[i]?.has(item.reading.meterId)) i++;
    if (!waves[i]) {
      waves[i] = [];
      seen[i] = new Set();
    }
    waves[i]!.push(item);
    seen[i]!.add(item.reading.meterId);
  }
  return waves;
}

/** The meter's supply as SWITCH_STATUS: 0 on (relay closed, valve open), 1 off. */
export function supplyOf(reading: MeterReading): number | null {
  if (reading.relay === "closed" || reading.valve === "open") return 0;
  if (reading.relay === "open" || reading.valve === "closed") return 1;
  return null;
}

/** Two decimals, exactly: registers come as decimal text with more places than the table keeps. */
export const cents = (value: string | undefined) => {
  if (value === undefined) return null;
  // Most registers come with two already (DL/T 645's XXXXXX.XX): kept as they are, without a match.
  if (isPlainDecimal(value, 2)) return value;
  const match = /^(-?\d+)(?:\.(\d+))?$/.exec(value);
  return match ? `${match[1]}.${(match[2] ?? "").padEnd(2, "0").slice(0, 2)}` : null;
};

/** Total and bands in the table's exact form, or undefined without a total. */
export function registersOf(energy: EnergyRegisters): ElectricRegisters | undefined {
  const total = cents(energy.total);
  if (total === null) return undefined;
  const [tip, peak, peace, low] = [0, 1, 2, 3].map((i) => cents(energy.tariffs[i]));
  return [total, tip ?? null, peak ?? null, peace ?? null, low ?? null];
}

/** A priced meter's reading as pricing takes it; undefined without a total to price. */
export function pricedReadingOf(reading: MeterReading, place: MeterPlace): PricedReading | undefined {
  const electric = place.energyType === 1;
  const total = electric ? reading.energy && cents(reading.energy.total) : cents(reading.volume);
  if (!total) return undefined;
  const tariffs = electric ? (reading.energy?.tariffs ?? []) : [];
  return {
    tenantId: place.tenantId,
    energyType: place.energyType,
    meterId: reading.meterId,
    at: reading.at,
    registers: {
      total,
      bands: {
        tip: cents(tariffs[0]),
        peak: cents(tariffs[1]),
        peace: cents(tariffs[2]),
        low: cents(tariffs[3]),
      },
    },
  };
}

/** A reading's row of latest values (pms_meter_current_data). */
export function currentRowOf(reading: MeterReading, place: MeterPlace, timeZone: string): CurrentRow {
  const facts = conditionFacts(reading, timeZone);
  const energy = reading.energy;
  return {
    tenantId: place.tenantId,
    energyType: place.energyType,
    meterId: reading.meterId,
    productCode: place.productCode,
    readTime: reading.at,
    registers: [
      cents(energy?.total ?? reading.volume),
      cents(energy?.tariffs[0]),
      cents(energy?.tariffs[1]),
      cents(energy?.tariffs[2]),
      cents(energy?.tariffs[3]),
    ],
    balance: cents(reading.balance),
    overdraft: cents(reading.overdraft),
    switchStatus: supplyOf(reading),
    statusWord: reading.statusWord3 ?? null,
    batteryLow: reading.batteryLow === undefined ? null : reading.batteryLow ? 1 : 0,
    meterTime: reading.meterTime ?? null,
    missing: reading.missing.join(",").slice(0, 255),
    statusWord1: facts.statusWord1,
    activePower: facts.activePower,
    voltage: measured(reading.voltage),
    current: measured(reading.current),
    clockOffset: facts.clockOffset,
    coverOpenCount: facts.coverOpenCount,
    relayStuck: facts.relayStuck,
    valveFault: facts.valveFault,
  };
}

/** One reading of a wave with where its meter belongs. */
export interface Placed {
  reading: MeterReading;
  place: MeterPlace;
}

/**
 * Everything stored of a wave's readings, inside the caller's transaction, in a fixed number of
 * statements whatever the wave's size: current values, the meters' online and supply state, the
 * reading logs, the day's highest power, and daily usage (a meter's daily freeze first: it opens
 * today and closes yesterday before today's read moves the end; freezes come once a day per meter,
 * so they keep their own statements).
 */
export async function storeWave(tx: Queryable, wave: readonly Placed[], timeZone: string): Promise<void> {
  const current: CurrentRow[] = [];
  type Mark = { tenantId: string; meterId: string; supply: number | null };
  const marks: Record<1 | 2, Mark[]> = { 1: [], 2: [] };
  const electricLog: ElectricRead[] = [];
  const waterLog: WaterRead[] = [];
  const powers: DayPower[] = [];
  const electricDays: DayRead[] = [];
  const waterDays: DayRead[] = [];
  const freezes: { read: DayRead; registers: ElectricRegisters }[] = [];
  for (const { reading, place } of wave) {
    const supply = supplyOf(reading);
    const facts = conditionFacts(reading, timeZone);
    const energy = reading.energy;
    current.push(currentRowOf(reading, place, timeZone));
    marks[place.energyType].push({ tenantId: place.tenantId, meterId: reading.meterId, supply });
    const target = {
      tenantId: place.tenantId,
      meterId: reading.meterId,
      roomId: place.roomId,
      productCode: place.productCode,
    };
    const day = localDay(reading.at, timeZone);
    const missing = reading.missing.join(",").slice(0, 255);
    if (place.energyType === 1) {
      const registers = energy && registersOf(energy);
      if (registers) {
        electricLog.push({
          id: nextId(),
          ...target,
          readTime: reading.at,
          registers,
          balance: cents(reading.balance),
          switchStatus: supply,
          missing,
        });
        electricDays.push({ target, day, at: reading.at, registers });
      }
      // A load shown on a day whose register stands still is what the suspects sweep looks for.
      if (facts.activePower !== null)
        powers.push({ ...target, day, powerKw: facts.activePower, at: reading.at });
      const frozen = reading.dailyFrozen;
      const frozenDay = /^\d{4}-\d{2}-\d{2}/.exec(frozen?.time ?? "")?.[0];
      const frozenRegisters = frozen && registersOf(frozen.energy);
      if (frozenDay && frozenRegisters)
        freezes.push({
          read: { target, day: frozenDay, at: reading.at, registers: frozenRegisters },
          registers: frozenRegisters,
        });
    } else {
      const volume = cents(reading.volume);
      if (volume === null) continue;
      waterLog.push({
        id: nextId(),
        ...target,
        readTime: reading.at,
        totalValue: volume,
        switchStatus: supply,
        batteryLow: reading.batteryLow === undefined ? null : reading.batteryLow ? 1 : 0,
        missing,
      });
      waterDays.push({ target, day, at: reading.at, registers: [volume] });
    }
  }
  await keepCurrentValues(tx, current);
  await markMetersRead(tx, "pms_meter", marks[1]);
  await markMetersRead(tx, "pms_water", marks[2]);
  // The log before daily usage: it is what daily usage is recomputed from (datadailydd/submit).
  await insertElectricReads(tx, electricLog);
  await insertWaterReads(tx, waterLog);
  await keepDayPowers(tx, powers);
  for (const { read, registers } of freezes)
    await electricDayFreeze(tx, read.target, read.day, registers, read.at);
  await electricDayReads(tx, electricDays);
  await waterDayReads(tx, waterDays);
}

/** A voltage or current as the column holds it: decimal text cut to three places, or null. */
function measured(value: string | undefined): string | null {
  const match = value === undefined ? null : /^(-?\d+)(?:\.(\d+))?$/.exec(value.trim());
  if (!match) return null;
  return match[2] ? `${match[1]}.${match[2].slice(0, 3)}` : match[1]!;
}
