import { type ResourceDef, resourceBase, type UsageSum } from "@meterline/contracts";
import { api } from "../../app/api.ts";

/** One day of the usage trend: summed usage (exact decimal text) and the meters with a row. */
export type TrendDay = UsageSum;

/** Usage per day of the tenant's meters, or those of an area and below, over the last `days` days. */
export const loadTrend = (def: ResourceDef, days: number, areaId?: string) => {
  const to = new Date();
  const from = new Date(to.getTime() - (days - 1) * 24 * 3600_000);
  // The server counts days in the tenant's zone; the browser's calendar is close enough to pick the range.
  const day = (at: Date) =>
    `${at.getFullYear()}-${String(at.getMonth() + 1).padStart(2, "0")}-${String(at.getDate()).padStart(2, "0")}`;
  return api.get<TrendDay[]>(`${resourceBase(def)}/trend`, {
    from: day(from),
    to: day(to),
    ...(areaId ? { areaId } : {}),
  });
};

/** The total of a trend, exact: usage values are decimal text with two places. */
export function trendTotal(days: readonly TrendDay[]): string {
  const cents = days.reduce((sum, d) => sum + BigInt(d.usage.replace(".", "")), 0n);
  const negative = cents < 0n;
  const text = (negative ? -cents : cents).toString().padStart(3, "0");
  return `${negative ? "-" : ""}${text.slice(0, -2)}.${text.slice(-2)}`;
}
