export { alarm } from "./alarms.ts";
export { alipayConfig } from "./alipay.ts";
export { dataSwitch, dataWriteAlarm, dataWritePrice, message, meterCommand } from "./commands.ts";
export { collector, meter, meterOrigValue, water } from "./meters.ts";
export { messageQueue, smsRecord } from "./notices.ts";
export {
  dataDaily,
  dataRead,
  dataReadHistory,
  dataReadOther,
  dataReadOtherHis,
  meterCurrentData,
  waterDataDaily,
  waterDataRead,
  waterDataReadHistory,
} from "./readings.ts";
export { area, owner, ownerGroup, ownerRoom, room, roomMeter } from "./registry.ts";
export { alarmScheme, chargingScheme } from "./schemes.ts";
export { meteringNode, meteringNodeMeter } from "./topology.ts";
export { wxBind, wxConfig } from "./wechat.ts";
