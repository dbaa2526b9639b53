import { api } from "../../../app/api.ts";

const iot = "/api/blade-pms/iot";

export type Platform = "ctwing" | "onenet" | "iotda";
export const PLATFORMS: readonly Platform[] = ["ctwing", "onenet", "iotda"];

/** A platform's configuration as iot/platform/detail answers it: secrets masked ("******" + last four). */
export interface PlatformConfig {
  platform: Platform;
  baseUrl: string;
  appId: string;
  appSecret: string;
  pushToken: string;
  account: string | null;
  authUrl: string | null;
}

/** The values iot/platform/submit takes; a secret sent back masked keeps the stored one. */
export type PlatformValues = Omit<PlatformConfig, "platform" | "account" | "authUrl"> & {
  account?: string;
  authUrl?: string;
};

/** The contract answers "nothing" as empty data ({}): a configuration or link without its keys is none. */
const orNull = <T extends object>(data: T | Record<string, never> | null, key: keyof T): T | null =>
  data && key in data ? (data as T) : null;

export const loadPlatform = async (platform: Platform) =>
  orNull<PlatformConfig>(
    await api.get<PlatformConfig | null>(`${iot}/platform/detail`, { platform }),
    "platform",
  );

export const savePlatform = (platform: Platform, values: PlatformValues) =>
  api.post<null>(`${iot}/platform/submit`, { ...values, platform });

/** The address a platform pushes a tenant's reports and command states to, on this server. */
export const pushUrl = (origin: string, platform: Platform, tenantId: string) =>
  `${origin}${iot}/push/${platform}/${tenantId}`;

/** A meter's link to its platform device as iot/device/detail answers it. */
export interface DeviceLink {
  platform: Platform;
  deviceId: string;
  lastReportTime: string | null;
  reportIntervalSeconds: number | null;
  /** When the meter is next expected to report: the last report plus the gap between the last two. */
  nextReportTime: string | null;
}

export const loadDeviceLink = async (energyType: number, meterId: string) =>
  orNull<DeviceLink>(
    await api.get<DeviceLink | null>(`${iot}/device/detail`, { energyType: String(energyType), meterId }),
    "deviceId",
  );

export const saveDeviceLink = (energyType: number, meterId: string, platform: Platform, deviceId: string) =>
  api.post<null>(`${iot}/device/submit`, { energyType: String(energyType), meterId, platform, deviceId });
