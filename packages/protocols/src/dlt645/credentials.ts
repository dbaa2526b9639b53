import { fail } from "../errors.ts";
import { byteHex } from "../hex.ts";

/**
 * Password and operator code that precede write (0x14) and relay (0x1C) data:
 *   PA (level) | P0 P1 P2 (password, LSB first) | C0..C3 (operator code, LSB first)
 * (metering-domain.md §1.6). Level 02/04 are plain-text levels on non-ESAM meters; ESAM
 * meters want ciphertext level 98/99 after 0x03 authentication.
 */
export interface Credentials {
  /** Password level PA, e.g. 0x02. */
  passwordLevel: number;
  /** 6 hex digits, display order ("123456" is sent 56 34 12). */
  password: string;
  /** 8 hex digits, display order. */
  operator: string;
}

export const DEFAULT_CREDENTIALS: Credentials = {
  passwordLevel: 0x02,
  password: "000000",
  operator: "00000000",
};

function lsbFirst(text: string, bytes: number, what: string): Uint8Array {
  if (!new RegExp(`^[0-9a-fA-F]{${bytes * 2}}$`).test(text))
    fail("bad-argument", `${what} must be ${bytes * 2} hex digits`);
  const out = new Uint8Array(bytes);
  for (let i = 0; i < bytes; i++) out[bytes - 1 - i] = Number.parseInt(text.slice(i * 2, i * 2 + 2), 16);
  return out;
}

function display(wire: Uint8Array): string {
  let out = "";
  for (let i = wire.length - 1; i >= 0; i--) out += byteHex(wire[i]!);
  return out;
}

/** 8 bytes: PA, password, operator. */
export function encodeCredentials(input: Partial<Credentials>): Uint8Array {
  const level = input.passwordLevel ?? DEFAULT_CREDENTIALS.passwordLevel;
  if (!Number.isInteger(level) || level < 0 || level > 0xff)
    fail("bad-argument", "password level must be a byte");
  const out = new Uint8Array(8);
  out[0] = level;
  out.set(lsbFirst(input.password ?? DEFAULT_CREDENTIALS.password, 3, "password"), 1);
  out.set(lsbFirst(input.operator ?? DEFAULT_CREDENTIALS.operator, 4, "operator code"), 4);
  return out;
}

export function decodeCredentials(data: Uint8Array): Credentials {
  return {
    passwordLevel: data[0] ?? 0,
    password: display(data.subarray(1, 4)),
    operator: display(data.subarray(4, 8)),
  };
}
