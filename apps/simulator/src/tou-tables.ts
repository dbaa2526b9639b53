import { type DecodedField, dlt645, type FieldInput } from "@meterline/protocols";
import type { BandSchedule } from "./profile.ts";
import type { TariffSlot } from "./tariff.ts";

type Counts = Record<keyof typeof dlt645.TOU_COUNT_DI, number>;
const COUNT_NAMES = Object.entries(dlt645.TOU_COUNT_DI) as [keyof Counts, string][];
/** The simulated meter has four tariff registers (tip, peak, flat, valley): tariffs 1..4. */
const TARIFFS = 4;

/**
 * The time-of-use tables a simulated DL/T 645 meter holds (codec tou-tables.ts): the first set's
 * year zones and eight day tables, and the counts the master writes beside them. The band its
 * usage is registered and charged in is the tariff its own tables put in force at its local
 * clock, so a written table changes what the meter charges from the next minute on.
 */
export class MeterTouTables {
  zones: dlt645.YearZone[] = [{ month: 1, day: 1, table: 1 }];
  readonly dayTables: dlt645.DayPeriod[][] = Array.from({ length: 8 }, () => []);
  readonly counts: Counts;

  constructor(slots: readonly TariffSlot[]) {
    this.dayTables[0] = slots.map((slot) => ({ start: slot.start, tariff: slot.band + 1 }));
    this.counts = { zones: 1, dayTables: 1, periods: slots.length, tariffs: TARIFFS, holidays: 0 };
  }

  /** The day table in force on a local date: the zone started last in the year (else the year's last zone). */
  dayTableOn(month: number, day: number): dlt645.DayPeriod[] {
    const key = (z: { month: number; day: number }) => z.month * 100 + z.day;
    const ordered = [...this.zones].sort((a, b) => key(a) - key(b));
    const started = ordered.filter((zone) => key(zone) <= month * 100 + day);
    const zone = (started.length > 0 ? started : ordered).at(-1)!;
    const table = this.dayTables[zone.table - 1]!;
    // A zone naming a table never written falls back to table 1, as meters fall back to a default.
    return table.length > 0 ? table : this.dayTables[0]!;
  }

  /** The band schedule (0-based band = tariff − 1) of a local date. */
  scheduleOn(month: number, day: number): BandSchedule {
    const table = this.dayTableOn(month, day);
    return {
      bandAt: (minute) => dlt645.tariffAt(table, minute) - 1,
      nextChange: (minute) => table.find((period) => period.start > minute)?.start ?? 1440,
    };
  }

  /** What a read of a count or table DI answers; undefined for other DIs. */
  read(di: string): FieldInput[] | undefined {
    const count = COUNT_NAMES.find(([, countDi]) => countDi === di);
    if (count) return [BigInt(this.counts[count[0]])];
    if (di === dlt645.zoneTableDi()) return dlt645.touTableInputs(di, dlt645.zoneTableValue(this.zones));
    if (dlt645.touTableKind(di) === "periods" && di.startsWith("0401")) {
      const table = this.dayTables[Number(di[7]) - 1]!;
      return table.length > 0 ? dlt645.touTableInputs(di, dlt645.dayTableValue(table)) : undefined;
    }
    return undefined;
  }

  /**
   * A write of a count or a first-set table; false when the meter cannot hold it (a tariff beyond
   * its four registers, periods out of order, a count beyond the standard's limits), undefined
   * when the DI is not one of these.
   */
  write(di: string, fields: readonly DecodedField[]): boolean | undefined {
    const count = COUNT_NAMES.find(([, countDi]) => countDi === di);
    if (count) {
      const field = fields[0];
      if (field?.kind !== "number" || field.scaled === null) return false;
      const value = Number(field.scaled);
      const limit = count[0] === "holidays" ? 254 : dlt645.TOU_LIMITS[count[0]];
      if (value < (count[0] === "holidays" ? 0 : 1) || value > limit) return false;
      if (count[0] === "tariffs" && value > TARIFFS) return false;
      this.counts[count[0]] = value;
      return true;
    }
    const kind = dlt645.touTableKind(di);
    if (!kind) return undefined;
    if (!di.startsWith("0401")) return false;
    const value = dlt645.touTableValue(di, fields);
    if (value === null) return false;
    if (kind === "zones") {
      this.zones = dlt645.parseZoneTable(value);
      return true;
    }
    const periods = dlt645.parseDayTable(value);
    const ascending = periods.every((period, i) => i === 0 || period.start > periods[i - 1]!.start);
    if (!ascending || periods.some((period) => period.tariff > TARIFFS)) return false;
    this.dayTables[Number(di[7]) - 1] = periods;
    return true;
  }
}
