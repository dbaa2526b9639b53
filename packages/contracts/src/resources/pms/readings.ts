import { defineResource, LARGE_TABLE_COUNT } from "../../resource/types.ts";
import { meterByEnergy, remarkField, serverWrittenBase } from "./base.ts";

/**
 * The latest values read from each meter (spec §7 metercurrentdata), one row per meter, written by
 * the gateway's readings sink on every poll. Registers are exact decimals: kWh, m³ and yuan.
 */
export const meterCurrentData = defineResource({
  name: "meterCurrentData",
  table: "pms_meter_current_data",
  ...serverWrittenBase,
  // Written by the sink; the operator edits only the remark and hides rows (module routes).
  readOnly: false,
  rowsCreatedByServer: true,
  moduleWrites: true,
  path: "metercurrentdata",
  listVerb: "list",
  fields: {
    energyType: { type: "int", dict: "energy_type", search: "equal", width: 90, form: false },
    meterId: {
      type: "id",
      search: "equal",
      // One row per meter: the sink upserts on this key.
      unique: ["energyType"],
      refBy: meterByEnergy,
      list: false,
      form: false,
    },
    productCode: { type: "string", maxLength: 14, search: "like", form: false },
    readTime: { type: "datetime", search: "range", form: false },
    totalValue: { type: "decimal", scale: 2, form: false },
    tipValue: { type: "decimal", scale: 2, list: false, form: false },
    peakValue: { type: "decimal", scale: 2, list: false, form: false },
    peaceValue: { type: "decimal", scale: 2, list: false, form: false },
    lowValue: { type: "decimal", scale: 2, list: false, form: false },
    balance: { type: "decimal", scale: 2, form: false },
    overdraft: { type: "decimal", scale: 2, list: false, form: false },
    switchStatus: { type: "int", dictBiz: "SWITCH_STATUS", form: false },
    statusWord: { type: "string", maxLength: 8, list: false, form: false },
    batteryLow: { type: "int", dictBiz: "YES_NO", list: false, form: false },
    meterTime: { type: "string", maxLength: 32, list: false, form: false },
    missing: { type: "string", maxLength: 255, list: false, form: false },
    // What the alarm rules read of the meter's own reports (electricity: status word 1, power, the
    // cover-open count; water: the valve bits of ST), with the times the sink derives from them.
    statusWord1: { type: "string", maxLength: 8, list: false, form: false },
    activePower: { type: "decimal", scale: 4, list: false, form: false },
    // Modbus meters whose model has them (a three-phase model: phase A), as last read.
    voltage: { type: "decimal", scale: 3, list: false, form: false },
    current: { type: "decimal", scale: 3, list: false, form: false },
    /** Seconds the meter's clock was ahead (negative: behind) when it was last read. */
    clockOffset: { type: "int", list: false, form: false },
    coverOpenCount: { type: "int", list: false, form: false },
    /** When the cover-open count was last seen to rise. */
    coverOpenTime: { type: "datetime", list: false, form: false },
    /** Since when status word 3 shows the relay commanded open but still closed. */
    relayStuckTime: { type: "datetime", list: false, form: false },
    valveFault: { type: "int", dictBiz: "YES_NO", list: false, form: false },
    // The meter's last two reads that carried a total (the alarm rules compare them: register back,
    // register jump), kept here by the readings sink so a batch's alarm pass need not search the log.
    lastReadTotal: { type: "decimal", scale: 2, list: false, form: false },
    lastReadTime: { type: "datetime", list: false, form: false },
    prevReadTotal: { type: "decimal", scale: 2, list: false, form: false },
    prevReadTime: { type: "datetime", list: false, form: false },
    // The operator's hand on this table (spec §7 metercurrentdata submit, remove): a remark, and
    // "hide" instead of delete. A hidden row leaves the lists with who hid it and when; the next
    // poll of the meter clears the flag and the meter shows again (the readings sink writes it).
    remark: { ...remarkField, required: false },
    hidden: { type: "int", dictBiz: "YES_NO", list: false, form: false },
    hideUser: { type: "string", maxLength: 64, list: false, form: false },
    hideTime: { type: "datetime", list: false, form: false },
  },
  sort: [{ field: "readTime", desc: true }],
});

/** Energy registers in kWh: the total and the four tariff bands (JFPG_FLAG). */
const energyRegisters = {
  totalValue: { type: "decimal", scale: 2 },
  tipValue: { type: "decimal", scale: 2, list: false },
  peakValue: { type: "decimal", scale: 2, list: false },
  peaceValue: { type: "decimal", scale: 2, list: false },
  lowValue: { type: "decimal", scale: 2, list: false },
} as const;

/** The meter and the room it was installed in when the value was read (rooms filter by area). */
const readingLinks = (resource: "meter" | "water") =>
  ({
    meterId: { type: "id", search: "equal", ref: { resource, label: "productCode" }, list: false },
    roomId: { type: "id", search: "equal", ref: { resource: "room", label: "roomName" } },
    productCode: { type: "string", maxLength: 14, search: "like", width: 150 },
  }) as const;

/**
 * Where a read came from and the corrections made to it: a manual read names the operator who
 * entered it; a voided read stays in the log, marked, with who voided it, when and why.
 */
const readingAudit = {
  source: { type: "string", maxLength: 16, dict: "reading_source", search: "equal", width: 100 },
  operatorName: { type: "string", maxLength: 64, list: false },
  voided: { type: "int", dictBiz: "YES_NO", search: "equal", width: 80 },
  voidReason: { type: "string", maxLength: 255, list: false },
  voidUser: { type: "string", maxLength: 64, list: false },
  voidTime: { type: "datetime", list: false },
} as const;

/** What every readings table shares: written by the gateway alone, kept per tenant, never edited. */
const readingsBase = { ...serverWrittenBase, listVerb: "page", count: LARGE_TABLE_COUNT } as const;

/**
 * Every successful poll of an electric meter (spec §7 dataread): the reading log behind daily
 * usage and history. Old rows are swept after `reading.retentionDays`. The server partitions this
 * table, its history and the daily usage tables by month (apps/server/src/db/partitions.ts): their
 * primary key is (id, read time or day), and every unique key must hold that column.
 */
export const dataRead = defineResource({
  ...readingsBase,
  name: "dataRead",
  table: "pms_data_read",
  path: "dataread",
  fields: {
    ...readingLinks("meter"),
    readTime: { type: "datetime", search: "range", width: 170 },
    ...energyRegisters,
    balance: { type: "decimal", scale: 2 },
    switchStatus: { type: "int", dictBiz: "SWITCH_STATUS" },
    missing: { type: "string", maxLength: 255, list: false },
    ...readingAudit,
  },
  sort: [{ field: "readTime", desc: true }],
  // A meter's history, and the newest reads of the tenant; also the retention sweep's range.
  indexes: [["meterId", "readTime"], ["readTime"]],
});

/** Every successful poll of a water meter (spec §7 waterdataread): volume in m³ and the valve. */
export const waterDataRead = defineResource({
  ...readingsBase,
  name: "waterDataRead",
  table: "pms_water_data_read",
  path: "waterdataread",
  extraVerbs: ["pageNew"],
  fields: {
    ...readingLinks("water"),
    readTime: { type: "datetime", search: "range", width: 170 },
    totalValue: { type: "decimal", scale: 2 },
    switchStatus: { type: "int", dictBiz: "SWITCH_STATUS" },
    batteryLow: { type: "int", dictBiz: "YES_NO" },
    missing: { type: "string", maxLength: 255, list: false },
    ...readingAudit,
  },
  sort: [{ field: "readTime", desc: true }],
  // A meter's history, and the newest reads of the tenant; also the retention sweep's range.
  indexes: [["meterId", "readTime"], ["readTime"]],
});

/** Why an archived reading log takes no reads and loses none, naming the live log's screen. */
const archivedReads = (liveScreen: string) => ({
  submit: `历史抄读记录是已归档的原始读数,不能新增或修改;补录近期读数请到「${liveScreen}」`,
  remove:
    "历史抄读记录是已归档的原始读数,不能删除或作废;读数有误造成的费用差额请在「充值收费」中以冲正登记更正",
});

/**
 * The electric reading log of past periods (spec §7 datareadhistory): rows the retention sweep moved
 * out of `pms_data_read`, unchanged and with their ids, searchable and exported as the live log is.
 */
export const dataReadHistory = defineResource({
  ...dataRead,
  name: "dataReadHistory",
  table: "pms_data_read_his",
  path: "datareadhistory",
  // An archived read is the record of a closed period; its money was settled long ago, and daily
  // usage is not recomputed from the archive. The spec's submit and remove are refused, saying so.
  refusedWrites: archivedReads("电表抄读记录"),
});

/** The water reading log of past periods (spec §7 waterdatareadhistory), as `dataReadHistory`. */
export const waterDataReadHistory = defineResource({
  ...waterDataRead,
  name: "waterDataReadHistory",
  table: "pms_water_data_read_his",
  path: "waterdatareadhistory",
  extraVerbs: [],
  refusedWrites: archivedReads("水表抄读记录"),
});

/**
 * Electric reads entered by hand (spec §7 dataReadOther): the live log's manual rows, for meters read
 * on site. The same table as `dataRead`; the server shows only rows whose source is `manual`.
 */
export const dataReadOther = defineResource({
  ...dataRead,
  name: "dataReadOther",
  path: "dataReadOther",
});

/** Electric reads entered by hand that the retention sweep moved to history (spec §7 dataReadOtherHis). */
export const dataReadOtherHis = defineResource({
  ...dataReadHistory,
  name: "dataReadOtherHis",
  path: "dataReadOtherHis",
  // A list only (spec §7): no write calls to refuse.
  refusedWrites: undefined,
});

const bandRegister = { type: "decimal", scale: 2, list: false } as const;

/** Where a day's opening value came from: the meter's own daily freeze, or the day's first read. */
const dailySource = { type: "string", maxLength: 16, dict: "daily_source", list: false } as const;

/**
 * Daily usage of electric meters (spec §7 datadailydd), one row per meter and local day of the
 * tenant: the opening register, the latest (or closing) register and their difference, per band.
 * Today's row grows with each poll; the meter's daily freeze at midnight closes yesterday's.
 */
export const dataDaily = defineResource({
  ...readingsBase,
  name: "dataDaily",
  table: "pms_data_daily",
  path: "datadailydd",
  // Its submit recomputes a day from its reads (reading-corrections.routes.ts); remove is refused.
  refusedWrites: {
    remove: "日用量由抄读记录算出,不能删除;读数有误请在「电表抄读记录」中作废错误读数或补录,该日用量随之重算",
  },
  fields: {
    ...readingLinks("meter"),
    // One row per meter and day: the readings sink upserts on this key.
    meterId: { ...readingLinks("meter").meterId, unique: ["dayDate"] },
    dayDate: { type: "date", search: "range", width: 110 },
    startValue: { type: "decimal", scale: 2, width: 110 },
    endValue: { type: "decimal", scale: 2, width: 110 },
    usage: { type: "decimal", scale: 2, width: 120 },
    tipUsage: { type: "decimal", scale: 2 },
    peakUsage: { type: "decimal", scale: 2 },
    peaceUsage: { type: "decimal", scale: 2 },
    lowUsage: { type: "decimal", scale: 2 },
    startSource: dailySource,
    closed: { type: "int", dictBiz: "YES_NO", list: false },
    updateTime: { type: "datetime", list: false },
    // The bands' opening and latest registers, kept so a late freeze can correct the band usage.
    startTip: bandRegister,
    startPeak: bandRegister,
    startPeace: bandRegister,
    startLow: bandRegister,
    endTip: bandRegister,
    endPeak: bandRegister,
    endPeace: bandRegister,
    endLow: bandRegister,
  },
  sort: [{ field: "dayDate", desc: true }],
  indexes: [["dayDate"]],
});

/** Daily usage of water meters (spec §7 waterdatadaily, also as pageNew), from the day's reads. */
export const waterDataDaily = defineResource({
  ...readingsBase,
  name: "waterDataDaily",
  table: "pms_water_data_daily",
  path: "waterdatadaily",
  extraVerbs: ["pageNew"],
  fields: {
    ...readingLinks("water"),
    meterId: { ...readingLinks("water").meterId, unique: ["dayDate"] },
    dayDate: { type: "date", search: "range", width: 110 },
    startValue: { type: "decimal", scale: 2, width: 110 },
    endValue: { type: "decimal", scale: 2, width: 110 },
    usage: { type: "decimal", scale: 2, width: 120 },
    startSource: dailySource,
    closed: { type: "int", dictBiz: "YES_NO", list: false },
    updateTime: { type: "datetime", list: false },
  },
  sort: [{ field: "dayDate", desc: true }],
  indexes: [["dayDate"]],
});
