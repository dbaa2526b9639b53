import type { QueryParams } from "@meterline/api-client";
import { type ResourceDef, resourceBase, type UsageSum } from "@meterline/contracts";
import { api } from "../../app/api.ts";

/** The filters of the daily table's search that its chart follows too. */
const FOLLOWED = ["meterId", "roomId", "productCode", "tenantId"] as const;

/**
 * Usage per day of the tenant's meters, or those of an area and below, over the last `days` days
 * of the tenant's calendar (the server counts them in the tenant's zone), narrowed like the table
 * beside it: one meter or room, meter numbers containing a text, the platform administrator's tenant.
 */
export function loadTrend(def: ResourceDef, days: number, areaId?: string, search: QueryParams = {}) {
  const followed = Object.fromEntries(
    FOLLOWED.flatMap((name) => {
      const value = search[name];
      return typeof value === "string" && value.trim() ? [[name, value.trim()]] : [];
    }),
  );
  return api.get<UsageSum[]>(`${resourceBase(def)}/trend`, {
    days: String(days),
    ...followed,
    ...(areaId ? { areaId } : {}),
  });
}

/** The total of a trend, exact: usage values are decimal text with two places. */
export function trendTotal(days: readonly UsageSum[]): string {
  const cents = days.reduce((sum, d) => sum + BigInt(d.usage.replace(".", "")), 0n);
  const negative = cents < 0n;
  const text = (negative ? -cents : cents).toString().padStart(3, "0");
  return `${negative ? "-" : ""}${text.slice(0, -2)}.${text.slice(-2)}`;
}
