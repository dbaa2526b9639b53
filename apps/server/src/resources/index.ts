import { type ResourceDef, resources } from "@meterline/contracts";
import type { FastifyInstance } from "fastify";
import type { FieldCipher } from "../crud/field-cipher.ts";
import type { ResourceHooks } from "../crud/hooks.ts";
import { registerResource } from "../crud/routes.ts";
import type { Db } from "../db/client.ts";
import { alarmRuleHooks } from "../modules/alarm/alarm-rule.hooks.ts";
import { currentDataHooks } from "../modules/metering/current-data.hooks.ts";
import { manualReadHooks } from "../modules/metering/manual-read.hooks.ts";
import { commandRecordHooks, meterCommandHooks } from "../modules/operations/command-records.hooks.ts";
import { wxBindHooks } from "../modules/owner-page/wxbind.hooks.ts";
import { paramHooks } from "../modules/param/param.hooks.ts";
import {
  byRoomAreaHooks,
  collectorHooks,
  meterHooks,
  ownerGroupHooks,
  ownerHooks,
  ownerRoomHooks,
  roomHooks,
} from "../modules/pms/registry.hooks.ts";
import { alarmSchemeHooks, chargingSchemeHooks } from "../modules/pms/scheme.hooks.ts";
import { meteringNodeHooks, meteringNodeMeterHooks } from "../modules/pms/topology.hooks.ts";
import { smsHooks } from "../modules/sms/sms.hooks.ts";
import { attachHooks, ossHooks } from "../modules/storage/storage.hooks.ts";
import type { StorageService } from "../modules/storage/storage.service.ts";
import { menuHooks, roleHooks } from "./access.hooks.ts";
import { dictionaryHooks } from "./dict.hooks.ts";
import { userHooks } from "./user.hooks.ts";

/** Server-side rules of the few plain resources that need more than their definition. */
const hooks: Partial<Record<string, ResourceHooks>> = {
  param: paramHooks,
  dict: dictionaryHooks,
  dictBiz: dictionaryHooks,
  role: roleHooks,
  menu: menuHooks,
  user: userHooks,
  room: roomHooks,
  collector: collectorHooks,
  owner: ownerHooks,
  ownerRoom: ownerRoomHooks,
  roomMeter: byRoomAreaHooks,
  meteringNode: meteringNodeHooks,
  meteringNodeMeter: meteringNodeMeterHooks,
  ownerGroup: ownerGroupHooks,
  meter: meterHooks("pms_meter"),
  water: meterHooks("pms_water"),
  chargingScheme: chargingSchemeHooks,
  alarmScheme: alarmSchemeHooks,
  alarm: alarmRuleHooks,
  meterCurrentData: currentDataHooks,
  dataRead: byRoomAreaHooks,
  waterDataRead: byRoomAreaHooks,
  dataReadHistory: byRoomAreaHooks,
  waterDataReadHistory: byRoomAreaHooks,
  dataReadOther: manualReadHooks,
  dataReadOtherHis: manualReadHooks,
  dataDaily: byRoomAreaHooks,
  waterDataDaily: byRoomAreaHooks,
  meterCommand: meterCommandHooks,
  message: meterCommandHooks,
  dataSwitch: commandRecordHooks("switch"),
  dataWritePrice: commandRecordHooks("price"),
  dataWriteAlarm: commandRecordHooks("alarm"),
  sms: smsHooks,
  oss: ossHooks,
  wxBind: wxBindHooks,
};

/** Every plain resource's routes, from its definition alone. */
export async function resourceRoutes(
  app: FastifyInstance,
  opts: { db: Db; timeZone: string; cipher: FieldCipher; storage: StorageService },
) {
  const withStorage: Partial<Record<string, ResourceHooks>> = { ...hooks, attach: attachHooks(opts.storage) };
  for (const def of Object.values(resources) as ResourceDef[]) {
    await registerResource(app, def, { ...opts, hooks: withStorage[def.name] });
  }
}
