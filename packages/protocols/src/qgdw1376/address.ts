import { fail } from "../errors.ts";
import { byteHex } from "../hex.ts";

/**
 * Address field A, 5 bytes: A1 administrative area code (2 bytes BCD, low byte first), A2
 * terminal address (2 bytes binary, low byte first; 0 is invalid, FFFF with the group flag is
 * the broadcast), A3 = master station address MSA (D7..D1, 0..127) and group flag (D0).
 */
export interface Qgdw1376Address {
  /** A1 as printed, 4 digits, e.g. "3401" (sent 01 34). Hex letters survive for vendors that misuse it. */
  area: string;
  /** A2, 0..65535. */
  terminal: number;
  /** MSA, 0..127: which master station sent the request, echoed in the reply. */
  master: number;
  /** A3 D0: A2 is a group address. */
  group: boolean;
}

export const BROADCAST_TERMINAL = 0xffff;

export function decodeAddress(bytes: Uint8Array): Qgdw1376Address {
  return {
    area: byteHex(bytes[1]!) + byteHex(bytes[0]!),
    terminal: bytes[2]! | (bytes[3]! << 8),
    master: bytes[4]! >> 1,
    group: (bytes[4]! & 1) === 1,
  };
}

export function encodeAddress(address: Qgdw1376Address): Uint8Array {
  if (!/^[0-9A-Fa-f]{4}$/.test(address.area))
    fail("bad-argument", `area code "${address.area}" is not 4 digits`);
  const { terminal, master } = address;
  if (!Number.isInteger(terminal) || terminal < 0 || terminal > 0xffff)
    fail("bad-argument", `terminal address ${terminal} is not 0..65535`);
  if (!Number.isInteger(master) || master < 0 || master > 127)
    fail("bad-argument", `master station address ${master} is not 0..127`);
  const area = Number.parseInt(address.area, 16);
  return Uint8Array.of(
    area & 0xff,
    area >> 8,
    terminal & 0xff,
    terminal >> 8,
    (master << 1) | (address.group ? 1 : 0),
  );
}

/** "A1=3401 A2=1 (0x0001) A3=MSA 2" for logs and the field tool. */
export function formatAddress(address: Qgdw1376Address): string {
  const hex = address.terminal.toString(16).toUpperCase().padStart(4, "0");
  const group = address.group ? " group" : "";
  return `A1=${address.area} A2=${address.terminal} (0x${hex}) A3=MSA ${address.master}${group}`;
}
