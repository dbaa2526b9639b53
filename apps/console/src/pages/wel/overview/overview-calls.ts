import type { ChartPeriod, DeviceStatus, RankedMeter, UsageSum } from "@meterline/contracts";
import { api } from "../../../app/api.ts";

const base = "/api/blade-pms/homepage";

export type EnergyType = "1" | "2";

export const loadDeviceStatus = () => api.get<DeviceStatus>(`${base}/deviceStatusData`);
export const loadUsageChart = (dateType: ChartPeriod, energyType: EnergyType) =>
  api.get<UsageSum[]>(`${base}/getChart`, { dateType: String(dateType), energyType });
export const loadUsageRank = (energyType: EnergyType) =>
  api.get<RankedMeter[]>(`${base}/getDdRank`, { energyType });
