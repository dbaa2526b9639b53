import { bcdDigits, digitsToBcd } from "../bcd.ts";
import { fail } from "../errors.ts";
import { toHex } from "../hex.ts";
import { binAt, encodeBin } from "./formats.ts";

/**
 * AFN 04 / 0A F10, the terminal's meter file (终端电能表/交流采样装置配置参数): a 2-byte count,
 * then 27 bytes per meter — index (装置序号) 2, pn 2, baud and port 1, protocol 1, address 6
 * (BCD), password 6, tariff count 1, energy digits 1, collector address 6 (BCD), user class 1.
 */
export const METER_ENTRY_LENGTH = 27;

/** The protocol codes the standard names; anything else is reported as "protocol N". */
export const MeterProtocol = {
  NONE: 0,
  DLT645_1997: 1,
  AC_SAMPLING: 2,
  DLT645_2007: 30,
  PLC_MODULE: 31,
  /**
   * Not in the standard's list (32 and up are reserved): the code this gateway and its simulated
   * concentrator use for DL/T 698.45 meters. Vendors differ; check the concentrator's manual.
   */
  DLT698_45: 32,
} as const;

const PROTOCOL_NAMES: Record<number, string> = {
  0: "none (not read)",
  1: "DL/T 645-1997",
  2: "AC sampling device",
  30: "DL/T 645-2007",
  31: "serial narrowband PLC module",
  32: "DL/T 698.45",
};

export function meterProtocolName(code: number): string {
  return PROTOCOL_NAMES[code] ?? `protocol ${code}`;
}

/** F10 baud codes D7..D5: 0 = the terminal's default, then 600 … 19200. */
const F10_BAUDS = [null, 600, 1200, 2400, 4800, 7200, 9600, 19200] as const;

export interface MeterFileEntry {
  /** 装置序号 1..2040: the row of the file. */
  index: number;
  /** The measurement point the meter's data is read under. */
  pn: number;
  /** Terminal port 1..31 (e.g. 2 = RS-485 1, 31 = carrier on many concentrators). */
  port: number;
  /** bps, or null for the terminal's default. */
  baud: number | null;
  protocol: number;
  protocolName: string;
  /** 12 digits as printed on the meter. */
  address: string;
  /** 6 bytes, shown as 12 hex digits (low byte last, as printed). */
  password: string;
  tariffCount: number;
  /** Digits before and after the point of the meter's energy register (4..7, 1..4). */
  integerDigits: number;
  decimalDigits: number;
  /** Collector address, 12 digits; all zero when the meter is wired directly. */
  collector: string;
  userClass: number;
  userSubclass: number;
}

export type MeterFileInput = Pick<MeterFileEntry, "index" | "pn" | "port" | "protocol" | "address"> &
  Partial<Omit<MeterFileEntry, "index" | "pn" | "port" | "protocol" | "address" | "protocolName">>;

export function decodeMeterEntry(bytes: Uint8Array, at: number): MeterFileEntry {
  const portByte = bytes[at + 4]!;
  const digits = bytes[at + 19]!;
  const protocol = bytes[at + 5]!;
  const password = Uint8Array.from(bytes.subarray(at + 12, at + 18)).reverse();
  return {
    index: binAt(bytes, at, 2),
    pn: binAt(bytes, at + 2, 2),
    port: portByte & 0x1f,
    baud: F10_BAUDS[portByte >> 5]!,
    protocol,
    protocolName: meterProtocolName(protocol),
    address:
      bcdDigits(bytes.subarray(at + 6, at + 12)) ??
      toHex(
        bytes
          .subarray(at + 6, at + 12)
          .slice()
          .reverse(),
        "",
      ),
    password: toHex(password, ""),
    tariffCount: bytes[at + 18]! & 0x3f,
    integerDigits: ((digits >> 2) & 0x03) + 4,
    decimalDigits: (digits & 0x03) + 1,
    collector:
      bcdDigits(bytes.subarray(at + 20, at + 26)) ??
      toHex(
        bytes
          .subarray(at + 20, at + 26)
          .slice()
          .reverse(),
        "",
      ),
    userClass: bytes[at + 26]! >> 4,
    userSubclass: bytes[at + 26]! & 0x0f,
  };
}

function range(value: number, min: number, max: number, what: string): number {
  if (!Number.isInteger(value) || value < min || value > max)
    fail("bad-argument", `${what} ${value} is not ${min}..${max}`);
  return value;
}

function bcd12(text: string, what: string): Uint8Array {
  if (!/^\d{12}$/.test(text)) fail("bad-argument", `${what} "${text}" is not 12 digits`);
  return digitsToBcd(text, 6);
}

export function encodeMeterEntry(input: MeterFileInput): Uint8Array {
  const baud = input.baud ?? null;
  const baudCode = F10_BAUDS.indexOf(baud as (typeof F10_BAUDS)[number]);
  if (baudCode < 0)
    fail("bad-argument", `baud ${baud} is not one of 600, 1200 … 19200 (or null for default)`);
  const password = input.password ?? "000000000000";
  if (!/^[0-9A-Fa-f]{12}$/.test(password)) fail("bad-argument", "the meter password is 12 hex digits");
  const passwordBytes = new Uint8Array(6);
  for (let i = 0; i < 6; i++) passwordBytes[5 - i] = Number.parseInt(password.slice(i * 2, i * 2 + 2), 16);
  const out = new Uint8Array(METER_ENTRY_LENGTH);
  out.set(encodeBin(range(input.index, 1, 2040, "meter index"), 2, "meter index"), 0);
  out.set(encodeBin(range(input.pn, 0, 2040, "pn"), 2, "pn"), 2);
  out[4] = (baudCode << 5) | range(input.port, 1, 31, "port");
  out[5] = range(input.protocol, 0, 255, "protocol");
  out.set(bcd12(input.address, "meter address"), 6);
  out.set(passwordBytes, 12);
  out[18] = range(input.tariffCount ?? 4, 0, 63, "tariff count");
  out[19] =
    ((range(input.integerDigits ?? 6, 4, 7, "integer digits") - 4) << 2) |
    (range(input.decimalDigits ?? 2, 1, 4, "decimal digits") - 1);
  out.set(bcd12(input.collector ?? "000000000000", "collector address"), 20);
  out[26] =
    (range(input.userClass ?? 0, 0, 15, "user class") << 4) |
    range(input.userSubclass ?? 0, 0, 15, "user subclass");
  return out;
}
