/**
 * The screens whose data the home page's metering overview sums up (device status, usage chart,
 * usage rank): a user who may see any of them sees the overview; the server asks the same.
 */
export const meteringOverviewSources = [
  "meter",
  "water",
  "collector",
  "meterCurrentData",
  "dataDaily",
  "waterDataDaily",
] as const;

/**
 * The money screens (seed 015): a user who may see one of them, or the owner screen, reads accounts
 * and recharges, and sees the home page's money overview; the server asks the same.
 */
export const moneyScreens = [
  "money",
  "ownerRecharge",
  "dataRecharge",
  "payment",
  "dataOpenAccount",
  "dataCloseAccount",
  "accountStatement",
] as const;

/** getChart's periods: 1 the last 7 days, 2 the last 30 days (per day), 3 the last 12 months. */
export const chartPeriods = { 1: { days: 7 }, 2: { days: 30 }, 3: { months: 12 } } as const;
export type ChartPeriod = keyof typeof chartPeriods;

/** Usage summed over a period (a day, or a month keyed by its first day): exact decimal text. */
export interface UsageSum {
  day: string;
  usage: string;
  /** Meters with a daily row in the period. */
  meters: number;
}

/** A line of the usage rank (homepage/getDdRank). */
export interface RankedMeter {
  meterId: string;
  productCode: string;
  roomName: string | null;
  areaName: string | null;
  usage: string;
  /** Whose meter: only in the platform administrator's every-tenant rank, where rooms of tenants look alike. */
  tenantName?: string;
}

/**
 * Counts of homepage/deviceStatusData; meters also say how many have supply cut, accounts opened,
 * accounts in arrears, and open alarms (meters with at least one alarming check record).
 */
export interface DeviceCounts {
  total: number;
  online: number;
  offline: number;
  supplyOff?: number;
  opened?: number;
  arrears?: number;
  alarming?: number;
}

export interface DeviceStatus {
  electric: DeviceCounts;
  water: DeviceCounts;
  collector: DeviceCounts;
}
