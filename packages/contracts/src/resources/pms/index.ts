export { collector, meter, meterOrigValue, water } from "./meters.ts";
export { meterCurrentData } from "./readings.ts";
export { area, owner, ownerGroup, ownerRoom, room, roomMeter } from "./registry.ts";
export { alarmScheme, chargingScheme } from "./schemes.ts";
export { wxBind, wxConfig } from "./wechat.ts";
