import { fail } from "../errors.ts";
import { copyBytes, sum8 } from "../hex.ts";
import { decodeAddress, encodeAddress, type Qgdw1376Address } from "./address.ts";

/**
 * Q/GDW 1376.1 link frame (metering-domain.md §3.2):
 *   68 L L 68 C A1 A1 A2 A2 A3 AFN SEQ [data units] [AUX] CS 16
 * L is two bytes, sent twice: (user-data length << 2) | protocol id (2 = 1376.1; 1 = the
 * older Q/GDW 130-2005 that some concentrators still send). The user data runs from C to the
 * byte before CS, and CS is its arithmetic sum mod 256 (not the sum from the first 68 as in
 * DL/T 645).
 */
export const START = 0x68;
export const END = 0x16;
/** 68 L L L L 68 in front, CS 16 behind. */
export const HEADER_LENGTH = 6;
export const FRAME_OVERHEAD = HEADER_LENGTH + 2;
/** C + A(5) + AFN + SEQ: the least user data a frame can carry. */
export const MIN_USER_LENGTH = 8;
/**
 * The standard's ceiling for network channels (14 bits of L); private radio channels stop at
 * 255. A longer frame is refused from its L field alone, before anything else is read.
 */
export const MAX_USER_LENGTH = 16383;
export const PROTOCOL_ID_1376_1 = 2;
export const PROTOCOL_ID_130_2005 = 1;

export interface Qgdw1376Frame {
  control: number;
  address: Qgdw1376Address;
  afn: number;
  seq: number;
  /** Everything after SEQ up to CS: data units, then AUX (PW or EC, then Tp). */
  body: Uint8Array;
  protocolId: number;
  start: number;
  end: number;
}

export type Probe = { ok: true; length: number } | { ok: false; needMore: boolean; code: ProbeFailure };
type ProbeFailure = "truncated" | "bad-header" | "bad-length" | "checksum" | "bad-end";

const FAILURE_TEXT: Record<ProbeFailure, string> = {
  truncated: "the input ends before the frame does",
  "bad-header": "the header is not 68 L L 68 with two equal L fields of protocol id 1 or 2",
  "bad-length": "the L field is below 8 or above the maximum user-data length",
  checksum: "CS mismatch (the sum of the user data from C to the byte before CS)",
  "bad-end": "the frame does not end with 0x16",
};

/** Check the frame that starts at `at` without copying anything. */
export function probeFrame(bytes: Uint8Array, at: number, maxUserLength = MAX_USER_LENGTH): Probe {
  const available = bytes.length - at;
  if (available < HEADER_LENGTH) {
    // Say "bad-header" as early as the bytes allow, so a stream splitter can move on.
    if (available >= 2 && available < 5 && !sameLengthSoFar(bytes, at, available))
      return { ok: false, needMore: false, code: "bad-header" };
    return { ok: false, needMore: true, code: "truncated" };
  }
  const l1 = bytes[at + 1]! | (bytes[at + 2]! << 8);
  const l2 = bytes[at + 3]! | (bytes[at + 4]! << 8);
  const protocolId = l1 & 0x03;
  if (l1 !== l2 || bytes[at + 5] !== START || (protocolId !== 1 && protocolId !== 2))
    return { ok: false, needMore: false, code: "bad-header" };
  const userLength = l1 >> 2;
  if (userLength < MIN_USER_LENGTH || userLength > maxUserLength)
    return { ok: false, needMore: false, code: "bad-length" };
  const length = FRAME_OVERHEAD + userLength;
  if (available < length) return { ok: false, needMore: true, code: "truncated" };
  if (sum8(bytes, at + HEADER_LENGTH, at + HEADER_LENGTH + userLength) !== bytes[at + length - 2])
    return { ok: false, needMore: false, code: "checksum" };
  if (bytes[at + length - 1] !== END) return { ok: false, needMore: false, code: "bad-end" };
  return { ok: true, length };
}

function sameLengthSoFar(bytes: Uint8Array, at: number, available: number): boolean {
  if (available >= 4 && bytes[at + 3] !== bytes[at + 1]) return false;
  return true;
}

export interface ParseOptions {
  /** User-data ceiling; 16383 by default, 255 for private radio channels. */
  maxUserLength?: number;
}

/** Parse the first 1376.1 frame in `bytes`; junk and false 0x68 starts in front are skipped. */
export function parseFrame(bytes: Uint8Array, options: ParseOptions = {}): Qgdw1376Frame {
  let firstFailure: { code: ProbeFailure; at: number } | undefined;
  for (let at = bytes.indexOf(START); at !== -1; at = bytes.indexOf(START, at + 1)) {
    const probe = probeFrame(bytes, at, options.maxUserLength);
    if (probe.ok) return frameAt(bytes, at, probe.length);
    firstFailure ??= { code: probe.code, at };
  }
  if (!firstFailure) fail("no-start", "no 0x68 start byte in the input");
  fail(firstFailure.code, `Q/GDW 1376.1: ${FAILURE_TEXT[firstFailure.code]}`, firstFailure.at);
}

/** Every valid frame in `bytes`, in order (a log line often holds a request and its reply). */
export function parseFrames(bytes: Uint8Array, options: ParseOptions = {}): Qgdw1376Frame[] {
  const frames: Qgdw1376Frame[] = [];
  let at = bytes.indexOf(START);
  while (at !== -1) {
    const probe = probeFrame(bytes, at, options.maxUserLength);
    if (probe.ok) {
      frames.push(frameAt(bytes, at, probe.length));
      at = bytes.indexOf(START, at + probe.length);
    } else at = bytes.indexOf(START, at + 1);
  }
  if (frames.length === 0) parseFrame(bytes, options); // throws the reason
  return frames;
}

export function frameAt(bytes: Uint8Array, at: number, length: number): Qgdw1376Frame {
  return {
    control: bytes[at + 6]!,
    address: decodeAddress(bytes.subarray(at + 7, at + 12)),
    afn: bytes[at + 12]!,
    seq: bytes[at + 13]!,
    body: copyBytes(bytes, at + 14, at + length - 2),
    protocolId: bytes[at + 1]! & 0x03,
    start: at,
    end: at + length,
  };
}

export interface BuildFrameInput {
  control: number;
  address: Qgdw1376Address;
  afn: number;
  seq: number;
  /** Data units followed by AUX, already encoded. */
  body?: Uint8Array;
  /** 2 (Q/GDW 1376.1) unless told. */
  protocolId?: number;
}

export function buildFrame(input: BuildFrameInput): Uint8Array {
  const body = input.body ?? new Uint8Array(0);
  const userLength = MIN_USER_LENGTH + body.length;
  if (userLength > MAX_USER_LENGTH)
    fail("bad-argument", `user data of ${userLength} bytes exceeds ${MAX_USER_LENGTH}`);
  for (const [name, value] of [
    ["control field", input.control],
    ["AFN", input.afn],
    ["SEQ", input.seq],
  ] as const) {
    if (!Number.isInteger(value) || value < 0 || value > 0xff)
      fail("bad-argument", `${name} ${value} is not a byte`);
  }
  const protocolId = input.protocolId ?? PROTOCOL_ID_1376_1;
  if (protocolId !== 1 && protocolId !== 2) fail("bad-argument", "protocol id is 1 or 2");
  const l = (userLength << 2) | protocolId;
  const out = new Uint8Array(FRAME_OVERHEAD + userLength);
  out.set([START, l & 0xff, l >> 8, l & 0xff, l >> 8, START, input.control]);
  out.set(encodeAddress(input.address), 7);
  out[12] = input.afn;
  out[13] = input.seq;
  out.set(body, 14);
  out[out.length - 2] = sum8(out, HEADER_LENGTH, out.length - 2);
  out[out.length - 1] = END;
  return out;
}
