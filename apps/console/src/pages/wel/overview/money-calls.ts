import type { ChartPeriod } from "@meterline/contracts";
import { api } from "../../../app/api.ts";
import { tenantQuery } from "../home-tenant.tsx";

const base = "/api/blade-pms/homepage";

/** A pie slice as rechargeTypeRatio / paymentMethodRatio answer it: the key, yuan, how many. */
export interface RatioSlice {
  rechargeType?: number;
  paymentMethod?: number;
  amount: string;
  count: number;
}

export type RatioKind = "rechargeType" | "paymentMethod";

/** The dictionary that names each kind's keys. */
export const ratioDictionary: Record<RatioKind, string> = {
  rechargeType: "RECHARGE_TYPE",
  paymentMethod: "PAYMENT_METHOD",
};

export const loadRatio = (kind: RatioKind, dateType: ChartPeriod, tenantId?: string) =>
  api.get<RatioSlice[]>(`${base}/${kind}Ratio`, { dateType: String(dateType), ...tenantQuery(tenantId) });

/** The tenant's money per day or month, on the usage chart's axis (homepage/rechargeChart). */
export interface RechargeSum {
  day: string;
  recharge: string;
  refund: string;
  count: number;
}

export const loadRechargeChart = (dateType: ChartPeriod, tenantId?: string) =>
  api.get<RechargeSum[]>(`${base}/rechargeChart`, { dateType: String(dateType), ...tenantQuery(tenantId) });

export interface OwnerUsageDay {
  day: string;
  electric: string;
  water: string;
}
export interface OwnerRechargeDay {
  day: string;
  recharge: string;
  refund: string;
}

/** The owner's own tenant goes with the call: the platform administrator picks from every tenant's. */
const ownerQuery = (owner: OwnerChoice, days: number) => ({
  ownerId: owner.id,
  days: String(days),
  ...(owner.tenantId ? { tenantId: owner.tenantId } : {}),
});
export const loadOwnerUsage = (owner: OwnerChoice, days: number) =>
  api.get<OwnerUsageDay[]>(`${base}/getOwnerPath`, ownerQuery(owner, days));
export const loadOwnerRecharges = (owner: OwnerChoice, days: number) =>
  api.get<OwnerRechargeDay[]>(`${base}/getOwnerRechargePath`, ownerQuery(owner, days));

export interface OwnerChoice {
  id: string;
  ownerName: string;
  phone: string;
  tenantId?: string;
  tenantName?: string;
}

/**
 * Owners whose name, phone, room or meter contains `keyword` (the recharge counter's search), of the
 * tenant the platform administrator picked on the home page when it picked one.
 */
export const searchOwners = (keyword: string, tenantId?: string) =>
  api
    .get<{ records: OwnerChoice[] }>("/api/blade-pms/ownerRecharge/page", {
      current: "1",
      size: "20",
      ...(keyword.trim() ? { keyword: keyword.trim() } : {}),
      ...tenantQuery(tenantId),
    })
    .then((page) => page.records);

/** The period's axis label: month for the 12-month view, month-day otherwise. */
export const periodLabel = (day: string, dateType: ChartPeriod) =>
  dateType === 3 ? day.slice(0, 7) : day.slice(5);

/** The exact sum of yuan amounts written with two decimals ("12.30"), as text with two decimals. */
export function yuanTotal(amounts: readonly string[]): string {
  const fen = amounts.reduce((sum, amount) => sum + BigInt(amount.replace(".", "")), 0n);
  const negative = fen < 0n;
  const text = (negative ? -fen : fen).toString().padStart(3, "0");
  return `${negative ? "-" : ""}${text.slice(0, -2)}.${text.slice(-2)}`;
}
