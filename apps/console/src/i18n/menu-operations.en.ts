import type { menuOperationsZh } from "./menu-operations.zh.ts";

/** English names of the reading and operation menus; same keys as the Chinese. */
export const menuOperationsEn: Record<keyof typeof menuOperationsZh, string> = {
  "menu.reading": "Meter readings",
  "menu.meterCurrentData": "Live data",
  "menu.dataRead": "Electric readings",
  "menu.dataDaily": "Electric daily usage",
  "menu.waterDataRead": "Water readings",
  "menu.waterDataDaily": "Water daily usage",
  "menu.dataReadHistory": "Electric reading history",
  "menu.waterDataReadHistory": "Water reading history",
  "menu.dataReadOther": "Electric reads entered by hand",
  "menu.dataReadOtherHis": "Hand-entered reads, history",
  "menu.operation": "Operations",
  "menu.meterCommand": "Meter commands",
  "menu.message": "Commands sent",
  "menu.dataSwitch": "Switch records",
  "menu.dataWritePrice": "Price write records",
  "menu.dataWriteAlarm": "Alarm write records",
};
