import { dlt645 } from "@meterline/protocols";
import { type Band, checkTouPeriods, SchemeError } from "../pms/scheme-rules.ts";

/** DL/T 645 tariff numbers by State Grid convention: 1 tip, 2 peak, 3 flat, 4 valley. */
export const TARIFF_OF_BAND: Record<Band, number> = { tip: 1, peak: 2, peace: 3, low: 4 };

const minuteOf = (time: string) => {
  const [h, m] = time.split(":").map(Number) as [number, number];
  return (h * 60 + m) % 1440;
};

/**
 * The day table a meter needs to apply a scheme's time-of-use periods (`touPeriods`, as the
 * scheme rules store them: whole day covered once, ordered by start): one entry per period start
 * with the band's tariff number, starting at 00:00. A period that runs past midnight
 * (22:00–07:00) is split, its morning part first, so the table does not rely on the meter
 * carrying the day's last period over midnight (not every firmware does). Refuses with the
 * scheme's field when the table needs more periods than a meter holds.
 */
export function meterDayTable(touPeriods: unknown): dlt645.DayPeriod[] {
  const periods = checkTouPeriods(touPeriods);
  const table = periods.map((period) => ({
    start: minuteOf(period.start),
    tariff: TARIFF_OF_BAND[period.band],
  }));
  if (table[0]!.start !== 0) table.unshift({ start: 0, tariff: table.at(-1)!.tariff });
  if (table.length > dlt645.TOU_LIMITS.periods)
    throw new SchemeError(
      "touPeriods",
      `表计每日最多 ${dlt645.TOU_LIMITS.periods} 个时段,跨零点的时段需拆成两段,共 ${table.length} 段`,
    );
  return table;
}
