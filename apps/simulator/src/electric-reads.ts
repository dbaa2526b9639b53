import type { FieldInput } from "@meterline/protocols";
import { calendar } from "./clock.ts";
import type { ElectricMeter } from "./electric-meter.ts";

/**
 * What a simulated electricity meter answers to a read: the values of a DI in the codec's table
 * format (exact decimals as scaled bigints), or null for "no requested data".
 */
const energy = (steps: number) => BigInt(steps);
const money = (fen: number) => BigInt(fen);
const hex = (n: number) => n.toString(16).toUpperCase().padStart(4, "0");

function energyBlock(steps: readonly number[]): FieldInput[] {
  const total = steps.reduce((sum, value) => sum + value, 0) % 100_000_000;
  return [energy(total), ...steps.map(energy)];
}

function frozenDay(meter: ElectricMeter, n: number) {
  return n >= 1 ? meter.frozen[n - 1] : undefined;
}

export function read2007(meter: ElectricMeter, di: string, now: number): FieldInput[] | null {
  const local = meter.localNow(now);
  const tariffs = meter.shownTariffs();
  switch (di) {
    case "0001FF00":
    case "0000FF00":
      return energyBlock(tariffs);
    case "00010000":
    case "00000000":
      return [energy(meter.shownTotal())];
    case "00900200":
      return [money(Math.max(0, meter.balanceFen))];
    case "00900201":
      return [money(Math.max(0, -meter.balanceFen))];
    case "03330201":
      return [BigInt(meter.purchaseCount)];
    case "03330601":
      return [money(meter.purchasedFen)];
    case "04000501":
      return [hex(meter.statusWord1())];
    case "04000503":
      return [hex(meter.statusWord3())];
    case "02030000":
      return [meter.activePower(now)];
    case "03300D00":
      return [BigInt(meter.coverOpenCount)];
    case "04000101":
    case "04000102":
      return [calendar(local)];
    case "04000401":
    case "04000402":
      return [meter.address];
    case "04001001":
      return [money(meter.alarm1Fen)];
    case "04001002":
      return [money(meter.alarm2Fen)];
    case "04001003":
      return [money(meter.overdraftLimitFen)];
    case "04001004":
      return [money(meter.hoardingLimitFen)];
    case "04001005":
      return [money(meter.closeAllowedFen)];
    case "1D000001":
      return [BigInt(meter.counters.trips)];
    case "1E000001":
      return [BigInt(meter.counters.closes)];
  }
  const tariff = /^000[01]0([1-4])00$/.exec(di);
  if (tariff) return [energy(tariffs[Number(tariff[1]) - 1]!)];
  const price = /^0405010([1-4])$/.exec(di);
  if (price) return [BigInt(meter.prices[Number(price[1]) - 1]!)];
  const ladder = ladderRegister(meter, di);
  if (ladder) return [BigInt(ladder.registers[ladder.index]!)];
  if (di === "0400F010") return [BigInt(meter.ladderCycle)];
  const tou = meter.tou.read(di);
  if (tou) return tou;
  const frozen = /^05060([01])([0-9A-F]{2})$/.exec(di);
  if (frozen) {
    const day = frozenDay(meter, Number.parseInt(frozen[2]!, 16));
    if (!day) return null;
    return frozen[1] === "0" ? [calendar(day.localMs)] : energyBlock(day.steps);
  }
  return null;
}

export function read1997(meter: ElectricMeter, di: string, now: number): FieldInput[] | null {
  const tariffs = meter.shownTariffs();
  if (di === "901F") return energyBlock(tariffs);
  if (di === "9010") return [energy(meter.shownTotal())];
  const tariff = /^901([1-4])$/.exec(di);
  if (tariff) return [energy(tariffs[Number(tariff[1]) - 1]!)];
  if (di === "C010" || di === "C011") return [calendar(meter.localNow(now))];
  if (di === "C032") return [meter.address];
  return null;
}

/** DIs a write may set, with the register each one lands in (fen or 0.0001 yuan). */
export function applyWrite(meter: ElectricMeter, di: string, scaled: bigint): boolean {
  const value = Number(scaled);
  if (!Number.isSafeInteger(value) || value < 0) return false;
  switch (di) {
    case "04001001":
      meter.alarm1Fen = value;
      return true;
    case "04001002":
      meter.alarm2Fen = value;
      return true;
    case "04001003":
      meter.overdraftLimitFen = value;
      return true;
    case "04001004":
      meter.hoardingLimitFen = value;
      return true;
    case "04001005":
      meter.closeAllowedFen = value;
      return true;
  }
  const price = /^0405010([1-4])$/.exec(di);
  if (price) {
    meter.prices[Number(price[1]) - 1] = value;
    return true;
  }
  const ladder = ladderRegister(meter, di);
  if (ladder) {
    ladder.registers[ladder.index] = value;
    return true;
  }
  // A new ladder cycle setting starts the count again: the ladder belongs to the account just opened.
  if (di === "0400F010" && (value === 1 || value === 2)) {
    meter.ladderCycle = value;
    meter.cycleSteps = 0;
    return true;
  }
  return false;
}

/** The first set's ladder thresholds (040600nn, n 1..14) and prices (040601nn, n 1..15) the meter holds. */
function ladderRegister(meter: ElectricMeter, di: string) {
  const match = /^04060([01])([0-9A-F]{2})$/.exec(di);
  if (!match) return undefined;
  const registers = match[1] === "0" ? meter.ladderThresholds : meter.ladderPrices;
  const index = Number.parseInt(match[2]!, 16) - 1;
  return index >= 0 && index < registers.length ? { registers, index } : undefined;
}
