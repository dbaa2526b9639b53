import { fail } from "../errors.ts";
import { concatBytes, copyBytes, sum8 } from "../hex.ts";
import { decodeAddress, encodeAddress } from "./address.ts";

/**
 * CJ/T 188-2004 link frame (metering-domain.md §2.1):
 *   [FE…] 68 T A0..A6 C L DATA(L) CS 16
 * CS = sum mod 256 from 68 to the byte before CS. No 0x33 offset: data is plain BCD/hex.
 */
export const START = 0x68;
export const END = 0x16;
export const FRAME_OVERHEAD = 13;
export const DEFAULT_MAX_FRAME_LENGTH = FRAME_OVERHEAD + 255;

export interface Cjt188Frame {
  meterType: number;
  /** Display order A6..A0, e.g. "78330011223344". */
  address: string;
  control: number;
  data: Uint8Array;
  start: number;
  end: number;
}

export type Probe = { ok: true; length: number } | { ok: false; needMore: boolean; code: ProbeFailure };
type ProbeFailure = "truncated" | "bad-length" | "checksum" | "bad-end";

export function probeFrame(bytes: Uint8Array, at: number, maxFrameLength = DEFAULT_MAX_FRAME_LENGTH): Probe {
  const available = bytes.length - at;
  if (available < 11) return { ok: false, needMore: true, code: "truncated" };
  const length = FRAME_OVERHEAD + bytes[at + 10]!;
  if (length > maxFrameLength) return { ok: false, needMore: false, code: "bad-length" };
  if (available < length) return { ok: false, needMore: true, code: "truncated" };
  if (sum8(bytes, at, at + length - 2) !== bytes[at + length - 2])
    return { ok: false, needMore: false, code: "checksum" };
  if (bytes[at + length - 1] !== END) return { ok: false, needMore: false, code: "bad-end" };
  return { ok: true, length };
}

const FAILURE_TEXT: Record<ProbeFailure, string> = {
  truncated: "the input ends before the frame does",
  "bad-length": "the length byte exceeds the maximum frame length",
  checksum: "checksum mismatch",
  "bad-end": "the frame does not end with 0x16",
};

export interface ParseOptions {
  maxFrameLength?: number;
}

/** Parse the first CJ/T 188 frame; leading FE/junk and false 0x68 starts are skipped. */
export function parseFrame(bytes: Uint8Array, options: ParseOptions = {}): Cjt188Frame {
  let firstFailure: { code: ProbeFailure; at: number } | undefined;
  for (let at = bytes.indexOf(START); at !== -1; at = bytes.indexOf(START, at + 1)) {
    const probe = probeFrame(bytes, at, options.maxFrameLength);
    if (probe.ok) return frameAt(bytes, at, probe.length);
    firstFailure ??= { code: probe.code, at };
  }
  if (!firstFailure) fail("no-start", "no 0x68 start byte in the input");
  fail(firstFailure.code, `CJ/T 188: ${FAILURE_TEXT[firstFailure.code]}`, firstFailure.at);
}

export function frameAt(bytes: Uint8Array, at: number, length: number): Cjt188Frame {
  return {
    meterType: bytes[at + 1]!,
    address: decodeAddress(bytes.subarray(at + 2, at + 9)),
    control: bytes[at + 9]!,
    data: copyBytes(bytes, at + 11, at + length - 2),
    start: at,
    end: at + length,
  };
}

export interface BuildFrameInput {
  meterType: number;
  address: string;
  control: number;
  data?: Uint8Array;
  /** FE bytes in front; the standard asks for 2..4 (§2.1). */
  preamble?: number;
}

export function buildFrame(input: BuildFrameInput): Uint8Array {
  const data = input.data ?? new Uint8Array(0);
  if (data.length > 255) fail("bad-argument", `DATA of ${data.length} bytes exceeds 255`);
  for (const [name, value] of [
    ["meter type", input.meterType],
    ["control code", input.control],
  ] as const) {
    if (!Number.isInteger(value) || value < 0 || value > 0xff)
      fail("bad-argument", `${name} ${value} is not a byte`);
  }
  const preamble = input.preamble ?? 0;
  if (!Number.isInteger(preamble) || preamble < 0 || preamble > 16)
    fail("bad-argument", "preamble must be 0..16 bytes");
  const body = new Uint8Array(FRAME_OVERHEAD + data.length);
  body[0] = START;
  body[1] = input.meterType;
  body.set(encodeAddress(input.address), 2);
  body[9] = input.control;
  body[10] = data.length;
  body.set(data, 11);
  body[body.length - 2] = sum8(body, 0, body.length - 2);
  body[body.length - 1] = END;
  return preamble === 0 ? body : concatBytes(new Uint8Array(preamble).fill(0xfe), body);
}
