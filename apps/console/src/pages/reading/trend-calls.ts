import { type ResourceDef, resourceBase, type UsageSum } from "@meterline/contracts";
import { api } from "../../app/api.ts";

/**
 * Usage per day of the tenant's meters, or those of an area and below, over the last `days` days
 * of the tenant's calendar (the server counts them in the tenant's zone).
 */
export const loadTrend = (def: ResourceDef, days: number, areaId?: string) =>
  api.get<UsageSum[]>(`${resourceBase(def)}/trend`, { days: String(days), ...(areaId ? { areaId } : {}) });

/** The total of a trend, exact: usage values are decimal text with two places. */
export function trendTotal(days: readonly UsageSum[]): string {
  const cents = days.reduce((sum, d) => sum + BigInt(d.usage.replace(".", "")), 0n);
  const negative = cents < 0n;
  const text = (negative ? -cents : cents).toString().padStart(3, "0");
  return `${negative ? "-" : ""}${text.slice(0, -2)}.${text.slice(-2)}`;
}
