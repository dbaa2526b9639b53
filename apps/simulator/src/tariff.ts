/**
 * Time-of-use bands (metering-domain.md §4.5). Register order follows the State Grid convention:
 * tariff 1 tip (尖), 2 peak (峰), 3 flat (平), 4 valley (谷). A day is up to 14 slots, each starting
 * at a minute of the day and naming a band; the first starts at 00:00.
 */
export type Band = 0 | 1 | 2 | 3;
export const BAND_NAMES = ["tip", "peak", "flat", "valley"] as const;

export interface TariffSlot {
  /** Minute of the day, 0..1439. */
  start: number;
  band: Band;
}

const TIP: Band = 0;
const PEAK: Band = 1;
const FLAT: Band = 2;
const VALLEY: Band = 3;

/** A typical residential schedule: valley at night, peaks morning and evening, tip 19:00–21:00. */
export const DEFAULT_SLOTS: readonly TariffSlot[] = [
  { start: 0, band: VALLEY },
  { start: 8 * 60, band: FLAT },
  { start: 10 * 60, band: PEAK },
  { start: 12 * 60, band: FLAT },
  { start: 17 * 60, band: PEAK },
  { start: 19 * 60, band: TIP },
  { start: 21 * 60, band: PEAK },
  { start: 22 * 60, band: VALLEY },
];

export class TariffError extends Error {}

/** Same rules as meters and EMS4J: ≤ 14 slots, first at 00:00, ascending, no two adjacent alike. */
export function checkSlots(slots: readonly TariffSlot[]): void {
  if (slots.length === 0 || slots.length > 14) throw new TariffError("a day has 1..14 slots");
  if (slots[0]!.start !== 0) throw new TariffError("the first slot starts at 00:00");
  for (let i = 1; i < slots.length; i++) {
    const slot = slots[i]!;
    const previous = slots[i - 1]!;
    if (slot.start <= previous.start || slot.start >= 1440)
      throw new TariffError("slot starts must ascend within the day");
    if (slot.band === previous.band) throw new TariffError("adjacent slots must differ in band");
  }
}

/** Band in force at a minute of the day. */
export function bandAt(slots: readonly TariffSlot[], minute: number): Band {
  let band = slots[0]!.band;
  for (const slot of slots) {
    if (slot.start > minute) break;
    band = slot.band;
  }
  return band;
}

/** Minute of the day at which the band next changes (1440 = midnight). */
export function nextSlotStart(slots: readonly TariffSlot[], minute: number): number {
  for (const slot of slots) if (slot.start > minute) return slot.start;
  return 1440;
}
