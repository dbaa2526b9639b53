/** Chinese names of the reading and operation menus (keyed by menu code, as the other menus). */
export const menuOperationsZh = {
  "menu.reading": "抄表数据",
  "menu.meterCurrentData": "实时数据",
  "menu.dataRead": "电表抄读记录",
  "menu.dataDaily": "电表日用量",
  "menu.waterDataRead": "水表抄读记录",
  "menu.waterDataDaily": "水表日用量",
  "menu.dataReadHistory": "电表历史抄读记录",
  "menu.waterDataReadHistory": "水表历史抄读记录",
  "menu.dataReadOther": "电表人工抄读",
  "menu.dataReadOtherHis": "电表人工抄读历史",
  "menu.operation": "运行控制",
  "menu.meterCommand": "命令记录",
  "menu.message": "下发记录",
  "menu.dataSwitch": "拉合闸记录",
  "menu.dataWritePrice": "写价格记录",
  "menu.dataWriteAlarm": "写告警值记录",
} as const;
