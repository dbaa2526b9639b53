import { fail } from "../errors.ts";
import { copyBytes, toHex } from "../hex.ts";

/**
 * DL/T 645 addresses: 6 bytes, BCD, least significant byte first on the wire; meter
 * 001234567890 travels as 90 78 56 34 12 00. 99…99 is the broadcast address (0x08 time,
 * 0x16 freeze, no reply); AA bytes are wildcards (all AA reads the only meter on a
 * point-to-point line; high bytes AA shorten the address) — metering-domain.md §1.2.
 */
export const BROADCAST_ADDRESS = "999999999999";
export const WILDCARD_ADDRESS = "AAAAAAAAAAAA";

/** "001234567890" (display order, 12 digits; A allowed as wildcard nibble pairs) → wire bytes. */
export function encodeAddress(address: string): Uint8Array {
  const compact = address.replace(/\s+/g, "").toUpperCase();
  // "161" means 000000000161: pad an odd count of plain digits to whole bytes.
  const text = /^\d+$/.test(compact) && compact.length % 2 === 1 ? `0${compact}` : compact;
  if (!/^([0-9]{2}|AA)+$/.test(text) || text.length > 12) {
    fail("bad-argument", `"${address}" is not a DL/T 645 address (up to 12 BCD digits, AA wildcards)`);
  }
  const padded = text.padStart(12, "0");
  const out = new Uint8Array(6);
  for (let i = 0; i < 6; i++) out[5 - i] = Number.parseInt(padded.slice(i * 2, i * 2 + 2), 16);
  return out;
}

/** Wire bytes → display text, most significant first (hex, so AA wildcards survive). */
export function decodeAddress(wire: Uint8Array): string {
  return toHex(copyBytes(wire).reverse(), "");
}

export function isBroadcastAddress(address: string): boolean {
  return address === BROADCAST_ADDRESS;
}

/** True when `pattern` (possibly with AA wildcard bytes) matches the concrete `address`. */
export function addressMatches(pattern: string, address: string): boolean {
  if (pattern.length !== 12 || address.length !== 12) return false;
  for (let i = 0; i < 12; i += 2) {
    const byte = pattern.slice(i, i + 2);
    if (byte !== "AA" && byte !== address.slice(i, i + 2)) return false;
  }
  return true;
}
