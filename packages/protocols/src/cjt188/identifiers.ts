import { fail } from "../errors.ts";
import { byteHex } from "../hex.ts";

/**
 * CJ/T 188 data identifiers as printed in the standard (metering-domain.md §2.1). Vendors
 * disagree on the byte order on the wire (§2.4): the 2004 text sends 90 1F, 2018 meters and
 * several 2004 vendors send 1F 90 — sometimes both within one model. So the order is a
 * per-model setting when building, and parsing accepts either for known identifiers.
 */
export type DiOrder = "big-endian" | "little-endian";

const NAMES: Record<string, string> = {
  "901F": "metering data (current total, settlement-day total, time, status)",
  "8102": "price table",
  "8103": "settlement day",
  "8104": "reading day",
  "8105": "purchased amount",
  "8106": "key version",
  "810A": "meter address",
  A010: "write price table",
  A011: "write settlement day",
  A012: "write reading day",
  A013: "write purchase amount",
  A014: "write new key",
  A015: "write standard time",
  A016: "write meter base reading",
  A017: "valve control",
  A018: "write address",
  A019: "factory enable",
  // Vendor convention (the standard's vendor range is unused by it): alarm amounts, see parameters.ts.
  A0F1: "write alarm amounts (vendor convention)",
  "81F1": "alarm amounts (vendor convention)",
};
for (let month = 1; month <= 12; month++)
  NAMES[`D12${(month - 1).toString(16).toUpperCase()}`] = `metering data of month -${month}`;

export const DI = {
  METER_DATA: "901F",
  ADDRESS: "810A",
  VALVE_CONTROL: "A017",
  PRICE_TABLE: "8102",
  WRITE_PRICE_TABLE: "A010",
  ALARM_AMOUNTS: "81F1",
  WRITE_ALARM_AMOUNTS: "A0F1",
  WRITE_ADDRESS: "A018",
} as const;

export function diName(di: string): string | null {
  return NAMES[di] ?? null;
}

export function encodeDi(di: string, order: DiOrder): Uint8Array {
  if (!/^[0-9a-fA-F]{4}$/.test(di)) fail("bad-argument", `"${di}" is not a 2-byte CJ/T 188 data identifier`);
  const high = Number.parseInt(di.slice(0, 2), 16);
  const low = Number.parseInt(di.slice(2, 4), 16);
  return order === "big-endian" ? Uint8Array.of(high, low) : Uint8Array.of(low, high);
}

export interface DecodedDi {
  di: string;
  /** Wire order, or "unknown" when neither order gives a known identifier (then `di` is as sent). */
  order: DiOrder | "unknown";
}

/** Identify the DI in either byte order (a checksum cannot tell them apart, §2.4). */
export function decodeDi(first: number, second: number): DecodedDi {
  const asSent = byteHex(first) + byteHex(second);
  if (asSent in NAMES) return { di: asSent, order: "big-endian" };
  const swapped = byteHex(second) + byteHex(first);
  if (swapped in NAMES) return { di: swapped, order: "little-endian" };
  return { di: asSent, order: "unknown" };
}
