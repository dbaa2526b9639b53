import type { ChartPeriod, DeviceStatus, RankedMeter, UsageSum } from "@meterline/contracts";
import { api } from "../../../app/api.ts";
import { tenantQuery } from "../home-tenant.tsx";

const base = "/api/blade-pms/homepage";

export type EnergyType = "1" | "2";

// `tenantId`: the one tenant the platform administrator picked on the home page, or none.
export const loadDeviceStatus = (tenantId?: string) =>
  api.get<DeviceStatus>(`${base}/deviceStatusData`, tenantQuery(tenantId));
export const loadUsageChart = (dateType: ChartPeriod, energyType: EnergyType, tenantId?: string) =>
  api.get<UsageSum[]>(`${base}/getChart`, {
    dateType: String(dateType),
    energyType,
    ...tenantQuery(tenantId),
  });
export const loadUsageRank = (energyType: EnergyType, tenantId?: string) =>
  api.get<RankedMeter[]>(`${base}/getDdRank`, { energyType, ...tenantQuery(tenantId) });
