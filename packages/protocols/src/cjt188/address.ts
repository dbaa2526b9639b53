import { fail } from "../errors.ts";
import { copyBytes, toHex } from "../hex.ts";

/**
 * CJ/T 188 address: 7 bytes BCD, A0 first on the wire; display order A6..A0, where vendors
 * often put their maker code in A5..A6 (SC meter: wire 44 33 22 11 00 33 78 = meter
 * 0011223344, maker 7833). All AA is the broadcast address for point-to-point links
 * (metering-domain.md §2.1).
 */
export const BROADCAST_ADDRESS = "AAAAAAAAAAAAAA";

export function encodeAddress(address: string): Uint8Array {
  const compact = address.replace(/\s+/g, "").toUpperCase();
  const text = /^\d+$/.test(compact) && compact.length % 2 === 1 ? `0${compact}` : compact;
  if (!/^([0-9]{2}|AA)+$/.test(text) || text.length > 14) {
    fail("bad-argument", `"${address}" is not a CJ/T 188 address (up to 14 BCD digits, AA wildcards)`);
  }
  const padded = text.padStart(14, "0");
  const out = new Uint8Array(7);
  for (let i = 0; i < 7; i++) out[6 - i] = Number.parseInt(padded.slice(i * 2, i * 2 + 2), 16);
  return out;
}

export function decodeAddress(wire: Uint8Array): string {
  return toHex(copyBytes(wire).reverse(), "");
}

/** Meter type byte T (§2.1). */
export const MeterType = {
  COLD_WATER: 0x10,
  HOT_WATER: 0x11,
  DRINKING_WATER: 0x12,
  RECLAIMED_WATER: 0x13,
  HEAT: 0x20,
  COLD: 0x21,
  HEAT_AND_COLD: 0x22,
  GAS: 0x30,
  CUSTOM: 0x40,
  ANY: 0xaa,
} as const;

const TYPE_NAMES: Record<number, string> = {
  16: "cold water meter",
  17: "domestic hot water meter",
  18: "drinking water meter",
  19: "reclaimed water meter",
  32: "heat meter (heat)",
  33: "heat meter (cold)",
  34: "heat and cold meter",
  48: "gas meter",
  64: "custom meter",
  170: "any type (broadcast)",
};

export function meterTypeName(type: number): string {
  return TYPE_NAMES[type] ?? `vendor type 0x${type.toString(16).padStart(2, "0").toUpperCase()}`;
}
