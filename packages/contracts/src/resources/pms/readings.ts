import { defineResource } from "../../resource/types.ts";
import { meterByEnergy } from "./base.ts";

/**
 * The latest values read from each meter (spec §7 metercurrentdata), one row per meter, written by
 * the gateway's readings sink on every poll. Registers are exact decimals: kWh, m³ and yuan.
 */
export const meterCurrentData = defineResource({
  name: "meterCurrentData",
  table: "pms_meter_current_data",
  service: "blade-pms",
  path: "metercurrentdata",
  listVerb: "list",
  tenantScoped: true,
  softDelete: false,
  audit: false,
  readOnly: true,
  fields: {
    energyType: { type: "int", dict: "energy_type", search: "equal", width: 90 },
    meterId: {
      type: "id",
      search: "equal",
      // One row per meter: the sink upserts on this key.
      unique: ["energyType"],
      refBy: meterByEnergy,
      list: false,
    },
    productCode: { type: "string", maxLength: 14, search: "like" },
    readTime: { type: "datetime", search: "range" },
    totalValue: { type: "decimal", scale: 2 },
    tipValue: { type: "decimal", scale: 2, list: false },
    peakValue: { type: "decimal", scale: 2, list: false },
    peaceValue: { type: "decimal", scale: 2, list: false },
    lowValue: { type: "decimal", scale: 2, list: false },
    balance: { type: "decimal", scale: 2 },
    overdraft: { type: "decimal", scale: 2, list: false },
    switchStatus: { type: "int", dictBiz: "SWITCH_STATUS" },
    statusWord: { type: "string", maxLength: 8, list: false },
    batteryLow: { type: "int", dictBiz: "YES_NO", list: false },
    meterTime: { type: "string", maxLength: 32, list: false },
    missing: { type: "string", maxLength: 255, list: false },
  },
  sort: [{ field: "readTime", desc: true }],
});
