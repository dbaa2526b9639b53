import { fail } from "../errors.ts";

/**
 * Server address SA (DL/T 698.45 §7.1.3): one flag byte, then 1..16 address bytes sent least
 * significant first. Flag bits 7–6 are the address type, bits 5–4 the logical address (0 is
 * the meter itself, 1 its metrology core on some models), bits 3–0 the address length − 1.
 * Addresses are BCD digits as printed on the meter; a wildcard address uses A nibbles.
 */
export type AddressType = "single" | "wildcard" | "group" | "broadcast";
const TYPES: readonly AddressType[] = ["single", "wildcard", "group", "broadcast"];

export interface ServerAddress {
  type: AddressType;
  /** 0..3. */
  logical: number;
  /** Display order, upper-case hex digits (BCD digits, A for wildcards): "123456789012". */
  address: string;
}

/** The broadcast SA "C0 AA" and the six-byte wildcard used to read an unknown meter's address. */
export const BROADCAST: ServerAddress = { type: "broadcast", logical: 0, address: "AA" };
export const WILDCARD: ServerAddress = { type: "wildcard", logical: 0, address: "AAAAAAAAAAAA" };

/** Accept a printed address ("123456789012", a single meter) or a full ServerAddress. */
export function toServerAddress(input: string | ServerAddress): ServerAddress {
  return typeof input === "string" ? { type: "single", logical: 0, address: input } : input;
}

export function encodeServerAddress(input: string | ServerAddress): Uint8Array {
  const sa = toServerAddress(input);
  const typeCode = TYPES.indexOf(sa.type);
  if (typeCode < 0) fail("bad-argument", `unknown address type "${sa.type}"`);
  if (!Number.isInteger(sa.logical) || sa.logical < 0 || sa.logical > 3)
    fail("bad-argument", `logical address ${sa.logical} is not 0..3`);
  if (!/^(?:[0-9A-Fa-f]{2}){1,16}$/.test(sa.address))
    fail("bad-argument", `server address "${sa.address}" must be 2..32 hex digits, an even count`);
  const length = sa.address.length / 2;
  const out = new Uint8Array(1 + length);
  out[0] = (typeCode << 6) | (sa.logical << 4) | (length - 1);
  for (let i = 0; i < length; i++) {
    out[1 + i] = Number.parseInt(sa.address.slice((length - 1 - i) * 2, (length - i) * 2), 16);
  }
  return out;
}

/** Length in bytes of the SA field (flag byte included) announced by its flag byte. */
export function serverAddressLength(flag: number): number {
  return 2 + (flag & 0x0f);
}

export function decodeServerAddress(bytes: Uint8Array, at: number): ServerAddress {
  const flag = bytes[at]!;
  const length = (flag & 0x0f) + 1;
  let address = "";
  for (let i = length; i >= 1; i--) address += bytes[at + i]!.toString(16).padStart(2, "0");
  return { type: TYPES[flag >> 6]!, logical: (flag >> 4) & 0x03, address: address.toUpperCase() };
}
