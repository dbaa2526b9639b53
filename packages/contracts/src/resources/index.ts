import type { ResourceDef } from "../resource/types.ts";
import { apiScope, dataScope, dept, menu, role } from "./access.ts";
import { logApi, logError, logUsual, notice } from "./desk.ts";
import { dict, dictBiz } from "./dict.ts";
import { generatedResources } from "./generated/index.ts";
import {
  alarm,
  alarmScheme,
  area,
  chargingScheme,
  collector,
  dataDaily,
  dataRead,
  dataReadHistory,
  dataReadOther,
  dataReadOtherHis,
  dataSwitch,
  dataWriteAlarm,
  dataWritePrice,
  message,
  messageQueue,
  meter,
  meterCommand,
  meterCurrentData,
  meterOrigValue,
  owner,
  ownerGroup,
  ownerRoom,
  room,
  roomMeter,
  smsRecord,
  water,
  waterDataDaily,
  waterDataRead,
  waterDataReadHistory,
  wxBind,
  wxConfig,
} from "./pms/index.ts";
import { attach, oss, sms } from "./resource.ts";
import { socialProvider } from "./social.ts";
import { client, param, post, tenant, topMenu } from "./system.ts";
import { user } from "./user.ts";

/** Every plain resource, by name. The server registers and the console renders whatever is here. */
export const resources = {
  tenant,
  user,
  dept,
  role,
  menu,
  dataScope,
  apiScope,
  param,
  post,
  dict,
  dictBiz,
  client,
  topMenu,
  notice,
  logApi,
  logError,
  logUsual,
  area,
  room,
  owner,
  ownerRoom,
  ownerGroup,
  roomMeter,
  meter,
  water,
  collector,
  chargingScheme,
  alarmScheme,
  alarm,
  meterOrigValue,
  wxConfig,
  wxBind,
  meterCurrentData,
  dataRead,
  waterDataRead,
  dataReadHistory,
  waterDataReadHistory,
  dataReadOther,
  dataReadOtherHis,
  dataDaily,
  waterDataDaily,
  meterCommand,
  dataSwitch,
  dataWritePrice,
  dataWriteAlarm,
  message,
  messageQueue,
  smsRecord,
  sms,
  socialProvider,
  oss,
  attach,
  ...generatedResources,
} as const satisfies Record<string, ResourceDef>;

export { generatedResources } from "./generated/index.ts";
export { LOCAL_STORAGE_CATEGORY } from "./resource.ts";
export type ResourceName = keyof typeof resources;
export type { BatchProgress, SwitchOutcome } from "./pms/commands.ts";
export {
  type ChartPeriod,
  chartPeriods,
  type DeviceCounts,
  type DeviceStatus,
  meteringOverviewSources,
  moneyScreens,
  type RankedMeter,
  type UsageSum,
} from "./pms/overview.ts";
