import { menuCodeOf, type ResourceName, resources } from "@meterline/contracts";
import type { PageEntry } from "../components/chunk.ts";

/** A registry page under pages/pms (the file is named in chunk-failure logs). */
const pms = (file: string, load: PageEntry["load"]): PageEntry => ({ load, file: `pages/pms/${file}` });

/** A readings page; they share one chunk. */
const reading = (name: keyof typeof import("../pages/reading/ReadingPages.tsx")): PageEntry => ({
  file: "pages/reading/ReadingPages.tsx",
  load: async () => ({ default: (await import("../pages/reading/ReadingPages.tsx"))[name] }),
});

/** A meter screen with remote switching; electric and water share one chunk. */
const meterPage = (name: keyof typeof import("../pages/pms/meter/MeterSwitchPage.tsx")): PageEntry => ({
  file: "pages/pms/meter/MeterSwitchPage.tsx",
  load: async () => ({ default: (await import("../pages/pms/meter/MeterSwitchPage.tsx"))[name] }),
});

/** An operation record: the command log page over one view of the command table; one chunk for all. */
const commandRecords = (name: "message" | "dataSwitch" | "dataWritePrice" | "dataWriteAlarm"): PageEntry => ({
  file: "pages/operation/CommandLogPage.tsx",
  load: async () => {
    const { CommandRecordsPage } = await import("../pages/operation/CommandLogPage.tsx");
    return { default: () => <CommandRecordsPage def={resources[name]} /> };
  },
});

/**
 * Resources with a bespoke page (a ResourcePage plus extra actions). Every other resource renders
 * the generic ResourcePage from its definition alone, so a new menu needs no page file.
 */
const bespoke: Partial<Record<ResourceName, PageEntry>> = {
  role: { load: () => import("../pages/role/RolePage.tsx"), file: "pages/role/RolePage.tsx" },
  tenant: { load: () => import("../pages/tenant/TenantPage.tsx"), file: "pages/tenant/TenantPage.tsx" },
  user: { load: () => import("../pages/user/UserPage.tsx"), file: "pages/user/UserPage.tsx" },
  topMenu: {
    load: () => import("../pages/topmenu/TopMenuPage.tsx"),
    file: "pages/topmenu/TopMenuPage.tsx",
  },
  dictBiz: { load: () => import("../pages/dict/DictBizPage.tsx"), file: "pages/dict/DictBizPage.tsx" },
  area: pms("area/AreaPage.tsx", () => import("../pages/pms/area/AreaPage.tsx")),
  room: pms("room/RoomPage.tsx", () => import("../pages/pms/room/RoomPage.tsx")),
  collector: pms("collector/CollectorPage.tsx", () => import("../pages/pms/collector/CollectorPage.tsx")),
  roomMeter: pms("room-meter/RoomMeterPage.tsx", () => import("../pages/pms/room-meter/RoomMeterPage.tsx")),
  owner: pms("owner/OwnerPage.tsx", () => import("../pages/pms/owner/OwnerPage.tsx")),
  ownerGroup: pms(
    "owner-group/OwnerGroupPage.tsx",
    () => import("../pages/pms/owner-group/OwnerGroupPage.tsx"),
  ),
  chargingScheme: pms(
    "scheme/ChargingSchemePage.tsx",
    () => import("../pages/pms/scheme/ChargingSchemePage.tsx"),
  ),
  alarmScheme: pms("scheme/AlarmSchemePage.tsx", () => import("../pages/pms/scheme/AlarmSchemePage.tsx")),
  meter: meterPage("ElectricMeterPage"),
  water: meterPage("WaterMeterPage"),
  dataRead: reading("ElectricReadingsPage"),
  waterDataRead: reading("WaterReadingsPage"),
  dataReadHistory: reading("ElectricReadingHistoryPage"),
  waterDataReadHistory: reading("WaterReadingHistoryPage"),
  dataReadOther: reading("ManualReadingsPage"),
  dataReadOtherHis: reading("ManualReadingHistoryPage"),
  dataDaily: reading("ElectricDailyPage"),
  waterDataDaily: reading("WaterDailyPage"),
  meterCommand: {
    load: () => import("../pages/operation/CommandLogPage.tsx"),
    file: "pages/operation/CommandLogPage.tsx",
  },
  message: commandRecords("message"),
  dataSwitch: commandRecords("dataSwitch"),
  dataWritePrice: commandRecords("dataWritePrice"),
  dataWriteAlarm: commandRecords("dataWriteAlarm"),
  logApi: { load: () => import("../pages/log/LogApiPage.tsx"), file: "pages/log/LogApiPage.tsx" },
  sms: { load: () => import("../pages/sms/SmsPage.tsx"), file: "pages/sms/SmsPage.tsx" },
  oss: { load: () => import("../pages/storage/OssPage.tsx"), file: "pages/storage/OssPage.tsx" },
  attach: { load: () => import("../pages/storage/AttachPage.tsx"), file: "pages/storage/AttachPage.tsx" },
};

const generic = new Map<ResourceName, PageEntry>();

/** Resources by the code of their menu, which differs from the name where the family's seed says so (`dictbiz`). */
const byMenuCode = new Map<string, ResourceName>(
  (Object.keys(resources) as ResourceName[]).map((name) => [menuCodeOf(resources[name]), name]),
);

/** The resource whose screen a menu code names, if any. */
export const resourceOfMenuCode = (code: string): ResourceName | undefined => byMenuCode.get(code);

/** The page of the resource a menu code names; one entry per resource so its chunk loads once. */
export function resourcePageEntry(name: ResourceName): PageEntry {
  const own = bespoke[name];
  if (own) return own;
  let entry = generic.get(name);
  if (!entry) {
    entry = {
      file: "crud/ResourcePage.tsx",
      load: async () => {
        const { ResourcePage } = await import("./ResourcePage.tsx");
        const def = resources[name];
        return { default: () => <ResourcePage def={def} /> };
      },
    };
    generic.set(name, entry);
  }
  return entry;
}
