import { fail } from "../errors.ts";
import { concatBytes } from "../hex.ts";
import { BROADCAST_ADDRESS, MeterType } from "./address.ts";
import { Fn } from "./control.ts";
import { buildFrame } from "./frame.ts";
import { DI, type DiOrder, encodeDi } from "./identifiers.ts";
import {
  encodeAlarmAmounts,
  encodePriceWrite,
  type WaterAlarmAmounts,
  type WaterPriceWrite,
} from "./parameters.ts";
import { ValveCommand, type ValveCommandName } from "./valve.ts";

/**
 * Master-side CJ/T 188 request builders. `diOrder` is the per-model byte order of the
 * identifier (§2.4); the 2004 text's "big-endian" (90 1F) is the default.
 */
export interface Cjt188BuildOptions {
  meterType?: number;
  /** SER; the master increments it mod 256 per request and checks the echo. */
  ser?: number;
  diOrder?: DiOrder;
  preamble?: number;
}

export function checkSer(ser: number | undefined): number {
  const value = ser ?? 0;
  if (!Number.isInteger(value) || value < 0 || value > 0xff) fail("bad-argument", "SER must be a byte");
  return value;
}

/** DI + SER (+ data): the data field of every CJ/T 188 request. */
export function diField(di: string, options: Cjt188BuildOptions, data?: Uint8Array): Uint8Array {
  const head = concatBytes(
    encodeDi(di, options.diOrder ?? "big-endian"),
    Uint8Array.of(checkSer(options.ser)),
  );
  return data ? concatBytes(head, data) : head;
}

/** Read data (C=01): 901F by default — totals with units, meter time and status. */
export function buildReadData(
  address: string,
  options: Cjt188BuildOptions & { di?: string } = {},
): Uint8Array {
  return buildFrame({
    meterType: options.meterType ?? MeterType.COLD_WATER,
    address,
    control: Fn.READ_DATA,
    data: diField(options.di ?? DI.METER_DATA, options),
    preamble: options.preamble,
  });
}

/** Valve control (C=04, DI A017): open 0x55, close 0x99, vendor extras (§2.3). */
export function buildValveControl(
  address: string,
  command: ValveCommandName,
  options: Cjt188BuildOptions = {},
): Uint8Array {
  const code = ValveCommand[command];
  if (code === undefined) fail("bad-argument", `unknown valve command "${command}"`);
  return buildFrame({
    meterType: options.meterType ?? MeterType.COLD_WATER,
    address,
    control: Fn.WRITE_DATA,
    data: diField(DI.VALVE_CONTROL, options, Uint8Array.of(code)),
    preamble: options.preamble,
  });
}

/** Read address (C=03, DI 810A) with the broadcast address; point-to-point links only. */
export function buildReadAddress(options: Cjt188BuildOptions & { address?: string } = {}): Uint8Array {
  return buildFrame({
    meterType: options.meterType ?? MeterType.ANY,
    address: options.address ?? BROADCAST_ADDRESS,
    control: Fn.READ_ADDRESS,
    data: diField(DI.ADDRESS, options),
    preamble: options.preamble,
  });
}

function writeData(
  address: string,
  di: string,
  payload: Uint8Array,
  options: Cjt188BuildOptions,
): Uint8Array {
  return buildFrame({
    meterType: options.meterType ?? MeterType.COLD_WATER,
    address,
    control: Fn.WRITE_DATA,
    data: diField(di, options, payload),
    preamble: options.preamble,
  });
}

/** Write price table (C=04, DI A010, L=0x13): 3 prices, 2 thresholds, start date (parameters.ts). */
export function buildWritePriceTable(
  address: string,
  write: WaterPriceWrite,
  options: Cjt188BuildOptions = {},
): Uint8Array {
  return writeData(address, DI.WRITE_PRICE_TABLE, encodePriceWrite(write), options);
}

/** Write alarm amounts 1 and 2 (C=04, DI A0F1, L=0x0B): our vendor convention (parameters.ts). */
export function buildWriteAlarmAmounts(
  address: string,
  amounts: WaterAlarmAmounts,
  options: Cjt188BuildOptions = {},
): Uint8Array {
  return writeData(address, DI.WRITE_ALARM_AMOUNTS, encodeAlarmAmounts(amounts), options);
}
