import { fail } from "../errors.ts";
import { byteHex } from "../hex.ts";

/**
 * Status ST (2 bytes). Usual reading of the first byte: D1D0 valve (00 open, 01 closed,
 * 11 abnormal), D2 battery low; the second byte is vendor-defined. At least one collector
 * firmware masks 0xC0 for the valve and 0x20 for the battery instead, so the bit map is a
 * per-model setting (metering-domain.md §2.3, §6 item 7).
 */
export type ValveState = "open" | "closed" | "abnormal" | "unknown";

export interface StatusBitMap {
  /** Mask applied to ST byte 1 to get the valve bits. */
  valveMask: number;
  /** Masked value → state; anything else is "unknown". */
  valveStates: Readonly<Record<number, ValveState>>;
  /** Mask on ST byte 1 whose bit means battery low. */
  batteryLowMask: number;
}

export const STANDARD_STATUS_MAP: StatusBitMap = {
  valveMask: 0x03,
  valveStates: { 0: "open", 1: "closed", 3: "abnormal" },
  batteryLowMask: 0x04,
};

export interface MeterStatus {
  /** ST as sent, byte 1 first, e.g. "0100". */
  raw: string;
  valve: ValveState;
  batteryLow: boolean;
  /** The vendor-defined second byte. */
  vendorByte: number;
}

export function decodeStatus(st1: number, st2: number, map: StatusBitMap = STANDARD_STATUS_MAP): MeterStatus {
  return {
    raw: byteHex(st1) + byteHex(st2),
    valve: map.valveStates[st1 & map.valveMask] ?? "unknown",
    batteryLow: (st1 & map.batteryLowMask) !== 0,
    vendorByte: st2,
  };
}

export interface StatusInput {
  valve: Exclude<ValveState, "unknown">;
  batteryLow?: boolean;
  vendorByte?: number;
}

/** Meter side: encode a status with the given bit map. */
export function encodeStatus(status: StatusInput, map: StatusBitMap = STANDARD_STATUS_MAP): Uint8Array {
  const entry = Object.entries(map.valveStates).find(([, state]) => state === status.valve);
  if (!entry) fail("bad-argument", `the status map has no encoding for valve state "${status.valve}"`);
  const st1 = Number(entry[0]) | (status.batteryLow ? map.batteryLowMask : 0);
  return Uint8Array.of(st1 & 0xff, (status.vendorByte ?? 0) & 0xff);
}
