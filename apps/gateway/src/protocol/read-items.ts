import { cjt188, type DecodedField, dlt645, dlt698, formatScaled } from "@meterline/protocols";
import { describeWaterFact, type ReadBackFact, type ReadBackItem } from "../commands/reconcile.ts";
import type { EnergyRegisters, MeterInfo, MeterReading } from "../model.ts";
import { DAILY_FROZEN_ITEM, RELAY_STATUS_OADS, statusWord1FromBits } from "./dlt698-requests.ts";
import { energyRegister, hasRegister, modelOf, RELAY_ITEM } from "./modbus-requests.ts";
import type { MeterReply } from "./requests.ts";

/**
 * What a poll reads from each kind of meter (metering-domain.md §1.5, §2.2, §4.6) and how each
 * reply lands in a MeterReading. Daily frozen data is read once per local day.
 */
export type PollItem =
  | "energy"
  | "balance"
  | "overdraft"
  /** Local prepaid: the purchase count tells a balance a purchase raised from one nobody explained. */
  | "purchase-count"
  | "status"
  /** Status word 1: battery bits and the active power direction (reverse energy). */
  | "status-1"
  /** Total active power, for the over-power alarm (P_STATUS). */
  | "power"
  /** Modbus: voltage and current, where the model has them (a three-phase model: phase A). */
  | "voltage"
  | "current"
  /** The meter's own count of cover openings, read once a day with the clock: openings are rare. */
  | "cover-count"
  | "frozen-time"
  | "frozen-energy"
  /** The meter's clock, read once a day with the frozen data so drift can be corrected. */
  | "clock-date"
  | "clock-time"
  /** DL/T 698.45: the last daily freeze (GET-Record of 5004): freeze time and energy in one row. */
  | "daily-frozen"
  /** DL/T 698.45: the clock (4000, date_time_s), date and time in one value. */
  | "clock"
  | "water";

const DI_2007: Record<
  Exclude<PollItem, "water" | "daily-frozen" | "clock" | "voltage" | "current">,
  string
> = {
  energy: dlt645.DI.FORWARD_ENERGY_BLOCK,
  balance: dlt645.DI.BALANCE,
  overdraft: dlt645.DI.OVERDRAFT,
  "purchase-count": dlt645.DI.PURCHASE_COUNT,
  status: dlt645.DI.STATUS_WORD_3,
  "status-1": dlt645.DI.STATUS_WORD_1,
  power: dlt645.DI.ACTIVE_POWER_TOTAL,
  "cover-count": dlt645.DI.COVER_OPEN_COUNT,
  "frozen-time": dlt645.DI.DAILY_FROZEN_TIME,
  "frozen-energy": dlt645.DI.DAILY_FROZEN_FORWARD,
  "clock-date": dlt645.DI.DATE,
  "clock-time": dlt645.DI.TIME,
};

/**
 * DL/T 698.45: the OADs of each item. The wallet (202C) carries the remaining amount and the
 * purchase count together, so "balance" reads both; the relay state is three attributes in one GET.
 */
const OADS_698: Partial<Record<PollItem, readonly string[]>> = {
  energy: [dlt698.OAD.FORWARD_ACTIVE_ENERGY],
  balance: [dlt698.OAD.WALLET],
  overdraft: [dlt698.OAD.OVERDRAFT],
  "purchase-count": [dlt698.OAD.WALLET],
  status: RELAY_STATUS_OADS,
  power: [dlt698.OAD.ACTIVE_POWER],
  "status-1": [dlt698.OAD.STATUS_WORDS],
  clock: [dlt698.OAD.CLOCK],
};

/** The name the 698.45 catalogue gives the purchase count inside the wallet file (202C0200). */
const WALLET_PURCHASE_COUNT = "current wallet file, purchase count";

/** Modbus: the registers of a poll item in the catalogue's names. */
const MODBUS_POWER = "active power";
/** Single-phase models name them plainly; three-phase ones per phase, of which phase A is read. */
const MODBUS_VOLTAGE = ["voltage", "voltage A"];
const MODBUS_CURRENT = ["current", "current A"];

function modbusRegisterOf(model: ReturnType<typeof modelOf>, names: readonly string[]): string | undefined {
  return names.find((name) => hasRegister(model, name));
}

export function pollPlan(meter: MeterInfo, withFrozen: boolean): PollItem[] {
  if (meter.protocol === "cjt188") return ["water"];
  if (meter.protocol === "modbus") {
    // What the model has: energy, total active power, and the relay where it has one. A meter
    // without a known model has nothing to read (the server refuses such a model when it is set).
    let model: ReturnType<typeof modelOf>;
    try {
      model = modelOf(meter);
    } catch {
      return [];
    }
    const plan: PollItem[] = energyRegister(model) ? ["energy"] : [];
    if (hasRegister(model, MODBUS_POWER)) plan.push("power");
    if (modbusRegisterOf(model, MODBUS_VOLTAGE)) plan.push("voltage");
    if (modbusRegisterOf(model, MODBUS_CURRENT)) plan.push("current");
    if (model.relay) plan.push("status");
    return plan;
  }
  if (meter.protocol === "dlt698") {
    // The cover-open count is not read: 301B's "current record count" (attribute 4) stops at the
    // meter's record depth, so it is not the running count DL/T 645's 03300D00 gives.
    const plan: PollItem[] = ["energy", "status", "status-1", "power"];
    if (meter.model.localPrepaid) plan.push("balance");
    if (withFrozen) plan.push("daily-frozen", "clock");
    return plan;
  }
  if (meter.protocol === "dlt645-1997") return ["energy"];
  const plan: PollItem[] = ["energy", "status", "status-1", "power"];
  if (meter.model.localPrepaid) plan.push("balance", "purchase-count");
  if (withFrozen) plan.push("frozen-time", "frozen-energy", "clock-date", "clock-time", "cover-count");
  return plan;
}

export function diOf(item: PollItem, meter: MeterInfo): string {
  if (item === "water") return "901F";
  if (meter.protocol === "modbus") {
    const model = modelOf(meter);
    if (item === "energy") return energyRegister(model) ?? "";
    if (item === "power") return MODBUS_POWER;
    if (item === "voltage") return modbusRegisterOf(model, MODBUS_VOLTAGE) ?? "";
    if (item === "current") return modbusRegisterOf(model, MODBUS_CURRENT) ?? "";
    if (item === "status") return RELAY_ITEM;
    throw new Error(`${item} is not read from Modbus meters`);
  }
  if (meter.protocol === "dlt698") {
    if (item === "daily-frozen") return DAILY_FROZEN_ITEM;
    const oads = OADS_698[item];
    if (!oads) throw new Error(`${item} is not read from DL/T 698.45 meters`);
    return oads.join(",");
  }
  if (meter.protocol === "dlt645-1997") return dlt645.DI1997.FORWARD_ENERGY_BLOCK;
  if (item === "daily-frozen" || item === "clock")
    throw new Error(`${item} is read from DL/T 698.45 meters only`);
  if (item === "voltage" || item === "current") throw new Error(`${item} is read from Modbus meters only`);
  return DI_2007[item];
}

/** A 698.45 date_time_s as the codec writes it: "2026-11-29 00:00:00". */
const LOCAL_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/;

const okValue = (field: DecodedField | undefined): string | null =>
  field && field.status === "ok" ? field.value : null;

/** The purchase count: the whole reply of DL/T 645 (03330201), a field of the 698.45 wallet file. */
function purchaseCountOf(reply: Extract<MeterReply, { kind: "read" }>): number | null {
  const wallet = reply.fields.find((field) => field.name === WALLET_PURCHASE_COUNT);
  const value = okValue(wallet ?? reply.fields[0]);
  return value !== null && /^\d+$/.test(value) ? Number(value) : null;
}

/** Active power in kW: DL/T 645 sends kW; DL/T 698.45 (2004) sends W, converted exactly. */
function powerOf(field: DecodedField | undefined): string | null {
  if (field?.kind === "number" && field.status === "ok" && field.unit === "W" && field.scaled !== null)
    return formatScaled(field.scaled, field.scale + 3);
  return okValue(field);
}

function energyOf(fields: DecodedField[]): EnergyRegisters | undefined {
  const total = okValue(fields[0]);
  if (total === null) return undefined;
  return { total, tariffs: fields.slice(1).map((field) => okValue(field) ?? "") };
}

/** Put a successful reply into the reading; false when the reply does not carry the item. */
export function applyReply(reading: MeterReading, item: PollItem, reply: MeterReply): boolean {
  if (reply.kind !== "read") return false;
  switch (item) {
    case "energy": {
      reading.energy = energyOf(reply.fields);
      return reading.energy !== undefined;
    }
    case "balance":
    case "overdraft": {
      const value = okValue(reply.fields[0]);
      if (value === null) return false;
      reading[item] = value;
      // A 698.45 wallet file carries the purchase count with the remaining amount.
      const count = item === "balance" && reply.fields.length > 1 ? purchaseCountOf(reply) : null;
      if (count !== null) reading.purchaseCount = count;
      return true;
    }
    case "purchase-count": {
      const count = purchaseCountOf(reply);
      if (count === null) return false;
      reading.purchaseCount = count;
      return true;
    }
    case "status": {
      if (reply.relayStatus) {
        reading.relay = reply.relayStatus.relay;
        return true;
      }
      const word = reply.statusWord3;
      if (!word) return false;
      reading.relay = word.relay;
      reading.statusWord3 = word.raw.toString(16).toUpperCase().padStart(4, "0");
      return true;
    }
    case "status-1": {
      // DL/T 645: 4 hex digits; DL/T 698.45: word 1 of 2014 as 16 bits, mapped to the same digits.
      const value = okValue(reply.fields[0]);
      const word = value !== null && /^[01]{16}$/.test(value) ? statusWord1FromBits(value) : value;
      if (word === null || !/^[0-9A-F]{4}$/i.test(word)) return false;
      reading.statusWord1 = word.toUpperCase();
      return true;
    }
    case "power": {
      const power = powerOf(reply.fields[0]);
      if (power === null) return false;
      reading.activePower = power;
      return true;
    }
    case "voltage":
    case "current": {
      const value = okValue(reply.fields[0]);
      if (value === null) return false;
      reading[item] = value;
      return true;
    }
    case "cover-count": {
      const count = okValue(reply.fields[0]);
      if (count === null || !/^\d+$/.test(count)) return false;
      reading.coverOpenCount = Number(count);
      return true;
    }
    case "frozen-time": {
      reading.dailyFrozen = { time: okValue(reply.fields[0]), energy: { total: "", tariffs: [] } };
      return true;
    }
    case "frozen-energy": {
      const energy = energyOf(reply.fields);
      if (!energy) return false;
      reading.dailyFrozen = { time: reading.dailyFrozen?.time ?? null, energy };
      return true;
    }
    case "daily-frozen": {
      // The freeze time to the minute, as DL/T 645's 05060001 (YYMMDDhhmm) gives it.
      const time = okValue(reply.fields[0]);
      const energy = energyOf(reply.fields.slice(1));
      if (time === null || !LOCAL_TIME.test(time) || !energy) return false;
      reading.dailyFrozen = { time: time.slice(0, 16), energy };
      return true;
    }
    case "clock": {
      const time = okValue(reply.fields[0]);
      if (time === null || !LOCAL_TIME.test(time)) return false;
      reading.meterTime = time.slice(0, 19);
      return true;
    }
    case "clock-date": {
      const date = okValue(reply.fields[0]);
      if (date === null) return false;
      reading.meterTime = date.slice(0, 10);
      return true;
    }
    case "clock-time": {
      const time = okValue(reply.fields[0]);
      if (time === null || !reading.meterTime) return false;
      reading.meterTime = `${reading.meterTime} ${time}`;
      return true;
    }
    case "water": {
      const data = reply.meterData;
      if (!data) return false;
      reading.volume = okValue(data.currentTotal) ?? undefined;
      reading.valve = data.status.valve;
      reading.batteryLow = data.status.batteryLow;
      reading.meterTime = data.time.value;
      return reading.volume !== undefined;
    }
  }
}

/** The DI (or 698.45 OADs) read to reconcile a write. */
export function readBackDi(item: ReadBackItem, meter: MeterInfo): string {
  if (meter.protocol === "modbus" && item.item === "status-word-3") return RELAY_ITEM;
  if (meter.protocol === "dlt698") {
    if (item.item === "status-word-3") return RELAY_STATUS_OADS.join(",");
    if (item.item === "purchase-count") return dlt698.OAD.WALLET;
  }
  switch (item.item) {
    case "status-word-3":
      return dlt645.DI.STATUS_WORD_3;
    case "valve":
      return "901F";
    case "purchase-count":
      return dlt645.DI.PURCHASE_COUNT;
    case "register":
      return item.di;
    case "water-price":
      return cjt188.DI.PRICE_TABLE;
    case "water-alarm":
      return cjt188.DI.ALARM_AMOUNTS;
  }
}

/** The fact a read-back reply establishes, or null when it does not carry it. */
export function factFrom(item: ReadBackItem, reply: MeterReply): ReadBackFact | null {
  if (reply.kind !== "read") return null;
  switch (item.item) {
    case "status-word-3": {
      const word = reply.statusWord3 ?? reply.relayStatus;
      return word
        ? {
            item: "status-word-3",
            relayCommandOpen: word.relayCommandOpen,
            relayOpen: word.relayOpen,
            powerHold: word.powerHold,
          }
        : null;
    }
    case "valve":
      return reply.meterData ? { item: "valve", valve: reply.meterData.status.valve } : null;
    case "purchase-count": {
      const count = purchaseCountOf(reply);
      return count === null ? null : { item: "purchase-count", purchaseCount: count };
    }
    case "register": {
      const value = dlt645.touTableKind(item.di)
        ? dlt645.touTableValue(item.di, reply.fields)
        : okValue(reply.fields[0]);
      return value === null ? null : { item: "register", di: item.di, value };
    }
    case "water-price":
      return reply.priceTable ? { item: "water-price", table: reply.priceTable } : null;
    case "water-alarm":
      return reply.alarmAmounts ? { item: "water-alarm", amounts: reply.alarmAmounts } : null;
  }
}

export function describeFact(fact: ReadBackFact): string {
  switch (fact.item) {
    case "status-word-3":
      return fact.relayCommandOpen
        ? fact.relayOpen
          ? "open"
          : "trip-pending"
        : fact.relayOpen
          ? "close-pending"
          : "closed";
    case "valve":
      return fact.valve;
    case "purchase-count":
      return String(fact.purchaseCount);
    case "register":
      return fact.value;
    case "water-price":
    case "water-alarm":
      return describeWaterFact(fact);
  }
}
