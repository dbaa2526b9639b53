import { defineResource } from "../../resource/types.ts";
import { registryBase, remarkField } from "./base.ts";

/**
 * How usage is priced (metering-domain §4.4–4.5): a flat price, a ladder of tiers over a month or
 * a year, or time-of-use bands; plus a fixed monthly fee. Prices are exact to 4 decimals. The
 * ladder and the day's bands are JSON checked by the server's billing rules.
 */
export const chargingScheme = defineResource({
  name: "chargingScheme",
  table: "pms_charging_scheme",
  ...registryBase,
  path: "chargingscheme",
  listVerb: "list",
  extraVerbs: ["select"],
  fields: {
    schemeName: { type: "string", required: true, maxLength: 64, search: "like", unique: true },
    energyType: { type: "int", required: true, dict: "energy_type", search: "equal" },
    priceMode: { type: "int", required: true, dict: "price_mode", default: 1, search: "equal" },
    price: { type: "decimal", scale: 4, min: 0, max: 1000 },
    ladderCycle: { type: "int", dict: "ladder_cycle", list: false },
    /** `[{"limit":"2880","price":"0.4883"},{"limit":null,"price":"0.7883"}]`, the last tier open. */
    ladder: { type: "text", maxLength: 2000, list: false, span: 24 },
    tipPrice: { type: "decimal", scale: 4, min: 0, max: 1000, list: false },
    peakPrice: { type: "decimal", scale: 4, min: 0, max: 1000, list: false },
    peacePrice: { type: "decimal", scale: 4, min: 0, max: 1000, list: false },
    lowPrice: { type: "decimal", scale: 4, min: 0, max: 1000, list: false },
    /** `[{"start":"08:00","end":"11:00","band":"peak"},…]` covering the whole day. */
    touPeriods: { type: "text", maxLength: 2000, list: false, span: 24 },
    /** Money: yuan to the fen, like every amount (prices alone keep 4 decimals). */
    monthlyFee: { type: "decimal", scale: 2, min: 0, max: 100000, default: 0 },
    remark: remarkField,
  },
});

/**
 * When owners are warned and supply is cut (metering-domain §4.2–4.3): first and second alarm
 * amounts, the overdraft allowed, whether to trip on arrears, and protection windows in which
 * supply is never cut.
 */
export const alarmScheme = defineResource({
  name: "alarmScheme",
  table: "pms_alarm_scheme",
  ...registryBase,
  path: "alarmscheme",
  listVerb: "list",
  extraVerbs: ["select"],
  fields: {
    schemeName: { type: "string", required: true, maxLength: 64, search: "like", unique: true },
    energyType: { type: "int", required: true, dict: "energy_type", search: "equal" },
    firstAlarm: { type: "decimal", required: true, scale: 2, min: 0, max: 1_000_000 },
    secondAlarm: { type: "decimal", required: true, scale: 2, min: 0, max: 1_000_000 },
    arrearsLimit: { type: "decimal", required: true, scale: 2, min: 0, max: 1_000_000, default: 0 },
    mergeAlarmFlag: { type: "int", required: true, dictBiz: "MERGE_ALARM_FLAG", default: 0 },
    tripOnArrears: { type: "int", required: true, dictBiz: "YES_NO", default: 1 },
    /** `[{"start":"22:00","end":"07:00"}]`: times of day when supply is never cut. */
    protectTimes: { type: "text", maxLength: 1000, list: false, span: 24 },
    /** `["2026-10-01","weekend"]`: dates (or every weekend) when supply is never cut. */
    protectDates: { type: "text", maxLength: 2000, list: false, span: 24 },
    notifyChannels: { type: "string", maxLength: 64, list: false },
    remark: remarkField,
  },
});
