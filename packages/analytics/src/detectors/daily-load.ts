import { type EvidenceFigure, type Suspicion, saturating } from "./evidence.ts";

/** One local day of an electric meter: the highest power it reported and the energy it counted. */
export interface LoadDay {
  /** yyyy-MM-dd, as the evidence names it. */
  day: string;
  /** Epoch milliseconds of the day's start and end (the evidence's period). */
  from: number;
  to: number;
  /** The highest total active power polled that day, kW; undefined when none was polled. */
  maxPowerKw: number | undefined;
  /** The day's energy by its register, kWh; undefined when the day has no usage row. */
  energyKwh: number | undefined;
}

export interface LoadWithoutEnergyOptions {
  /** Power below this (kW) is a standby the register may well not show within a day. */
  minPowerKw?: number;
  /** Energy at or below this (kWh) is a register that stood still (its last digit may move once). */
  maxKwh?: number;
  /** Days it must happen on before a visit is worth it: one day may be a brief load between polls. */
  minDays?: number;
}

/** Days listed one by one in the evidence, the latest ones; the count names them all. */
const LISTED_DAYS = 7;

const round = (value: number, places: number) => {
  const scale = 10 ** places;
  return Math.round(value * scale) / scale;
};

/**
 * Days on which the meter showed a load (its highest polled power at least `minPowerKw`) while its
 * register counted next to nothing: the load drew energy the register did not count, as with a
 * tampered voltage link, a stopped register or a meter that stopped counting. A day without a power
 * poll or without a usage row, or with a negative usage (a register replaced or reset), says
 * nothing either way. Found once it has happened on `minDays`
 * days of the series, in a row or not; the evidence names the days with their power and energy.
 */
export function loadWithoutEnergy(
  meterId: string,
  days: readonly LoadDay[],
  options: LoadWithoutEnergyOptions = {},
): Suspicion | undefined {
  const { minPowerKw = 0.1, maxKwh = 0.01, minDays = 3 } = options;
  const still = days.filter(
    (day) =>
      day.maxPowerKw !== undefined &&
      day.energyKwh !== undefined &&
      day.maxPowerKw >= minPowerKw &&
      // A negative day is a replaced or reset register, which says nothing about the load.
      day.energyKwh >= 0 &&
      day.energyKwh <= maxKwh,
  );
  if (still.length < Math.max(1, minDays)) return undefined;
  const sorted = [...still].sort((a, b) => a.from - b.from);
  const highest = Math.max(...sorted.map((day) => day.maxPowerKw!));
  const listed: EvidenceFigure[] = sorted.slice(-LISTED_DAYS).flatMap((day) => [
    { name: "highest power", value: round(day.maxPowerKw!, 4), unit: "kW", day: day.day },
    { name: "energy counted", value: round(day.energyKwh!, 2), unit: "kWh", day: day.day },
  ]);
  return {
    kind: "load-without-energy",
    subject: meterId,
    score: saturating(sorted.length, 3),
    from: sorted[0]!.from,
    to: sorted.at(-1)!.to,
    figures: [
      { name: "days with load, no energy", value: sorted.length, unit: "days" },
      { name: "highest power", value: round(highest, 4), unit: "kW" },
      ...listed,
    ],
  };
}
