import { type DateTimeInput, encodeDateTime } from "../datetime.ts";
import { concatBytes } from "../hex.ts";
import { encodeField } from "../values.ts";
import { MeterType } from "./address.ts";
import { Fn, replyControl } from "./control.ts";
import { buildFrame } from "./frame.ts";
import { DI } from "./identifiers.ts";
import {
  encodeAlarmAmounts,
  encodePriceTable,
  type WaterAlarmAmounts,
  type WaterPriceTable,
} from "./parameters.ts";
import { type Cjt188BuildOptions, checkSer, diField } from "./requests.ts";
import { encodeStatus, type StatusBitMap, type StatusInput } from "./status.ts";
import { UNIT_CUBIC_METRE } from "./units.ts";

/** Meter-side CJ/T 188 replies for the simulated fleet. */
export interface Cjt188ReplyOptions extends Cjt188BuildOptions {
  statusMap?: StatusBitMap;
}

export interface MeterDataInput {
  /** Decimal text with up to 2 decimals, e.g. "556677.00"; null = FF fill (not present). */
  currentTotal: string | null;
  settlementDayTotal: string | null;
  /** Unit code, 0x2C (m³) by default. */
  unit?: number;
  /** null = all zero (no clock). */
  time: DateTimeInput | null;
  status: StatusInput;
}

const VOLUME = { kind: "number", bytes: 4, decimals: 2, unit: "m³" } as const;

/** Reply to 901F (C=81, L=0x16). */
export function buildReadDataReply(
  address: string,
  input: MeterDataInput,
  options: Cjt188ReplyOptions = {},
): Uint8Array {
  const unit = Uint8Array.of(input.unit ?? UNIT_CUBIC_METRE);
  const payload = concatBytes(
    encodeField(VOLUME, input.currentTotal),
    unit,
    encodeField(VOLUME, input.settlementDayTotal),
    unit,
    input.time ? encodeDateTime("YYYYMMDDhhmmss", input.time) : new Uint8Array(7),
    encodeStatus(input.status, options.statusMap),
  );
  return reply(address, Fn.READ_DATA, diField(DI.METER_DATA, options, payload), options);
}

/** Reply to a valve command (C=84, L=05): DI SER ST. */
export function buildValveControlReply(
  address: string,
  status: StatusInput,
  options: Cjt188ReplyOptions = {},
): Uint8Array {
  return reply(
    address,
    Fn.WRITE_DATA,
    diField(DI.VALVE_CONTROL, options, encodeStatus(status, options.statusMap)),
    options,
  );
}

/** Acknowledgement of a parameter write (C=84, L=05): DI SER ST, as the valve reply. */
export function buildWriteReply(
  address: string,
  di: string,
  status: StatusInput,
  options: Cjt188ReplyOptions = {},
): Uint8Array {
  return reply(
    address,
    Fn.WRITE_DATA,
    diField(di, options, encodeStatus(status, options.statusMap)),
    options,
  );
}

/** Reply to 8102 (C=81, L=0x12): the price table without its start date. */
export function buildPriceTableReply(
  address: string,
  table: WaterPriceTable,
  options: Cjt188ReplyOptions = {},
): Uint8Array {
  return reply(address, Fn.READ_DATA, diField(DI.PRICE_TABLE, options, encodePriceTable(table)), options);
}

/** Reply to 81F1 (C=81, L=0x0B): alarm amounts 1 and 2 (vendor convention). */
export function buildAlarmAmountsReply(
  address: string,
  amounts: WaterAlarmAmounts,
  options: Cjt188ReplyOptions = {},
): Uint8Array {
  return reply(
    address,
    Fn.READ_DATA,
    diField(DI.ALARM_AMOUNTS, options, encodeAlarmAmounts(amounts)),
    options,
  );
}

/** Reply to read address (C=83, L=03): the address travels in the header. */
export function buildReadAddressReply(address: string, options: Cjt188ReplyOptions = {}): Uint8Array {
  return reply(address, Fn.READ_ADDRESS, diField(DI.ADDRESS, options), options);
}

/** Abnormal reply (C = 0xC0 | fn, L=03): SER ST. */
export function buildErrorReply(
  address: string,
  fn: number,
  status: StatusInput,
  options: Cjt188ReplyOptions = {},
): Uint8Array {
  const data = concatBytes(Uint8Array.of(checkSer(options.ser)), encodeStatus(status, options.statusMap));
  return buildFrame({
    meterType: options.meterType ?? MeterType.COLD_WATER,
    address,
    control: replyControl(fn, true),
    data,
    preamble: options.preamble,
  });
}

function reply(address: string, fn: number, data: Uint8Array, options: Cjt188ReplyOptions): Uint8Array {
  return buildFrame({
    meterType: options.meterType ?? MeterType.COLD_WATER,
    address,
    control: replyControl(fn),
    data,
    preamble: options.preamble,
  });
}
