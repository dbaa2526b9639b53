import { fail } from "../errors.ts";
import { concatBytes, copyBytes, sum8 } from "../hex.ts";
import { decodeAddress, encodeAddress } from "./address.ts";

/**
 * DL/T 645 link frame (2007 and 1997 share it; metering-domain.md §1.2, §6 item 1):
 *   [FE…] 68 A0..A5 68 C L DATA(L) CS 16
 * CS = sum mod 256 from the first 68 through the last data byte; every DATA byte is sent
 * +0x33 and reduced by 0x33 on receipt.
 */
export const START = 0x68;
export const END = 0x16;
export const DATA_OFFSET = 0x33;
/** 12 bytes of framing around L data bytes. */
export const FRAME_OVERHEAD = 12;
/** Read replies carry L ≤ 200 (§1.1); the byte itself allows 255. */
export const DEFAULT_MAX_FRAME_LENGTH = FRAME_OVERHEAD + 255;

export interface Dlt645Frame {
  /** Display order, e.g. "201000000012" ("AAAAAAAAAAAA" for the wildcard). */
  address: string;
  control: number;
  /** DATA with the 0x33 offset removed. */
  data: Uint8Array;
  /** Offset of the first 0x68 in the input (leading FE and junk are skipped). */
  start: number;
  /** Offset just past the 0x16. */
  end: number;
}

export interface ParseOptions {
  maxFrameLength?: number;
}

/** Outcome of looking for a frame at one 0x68: used by parseFrame and the stream splitter. */
export type Probe = { ok: true; length: number } | { ok: false; needMore: boolean; code: ProbeFailure };
type ProbeFailure = "truncated" | "bad-header" | "bad-length" | "checksum" | "bad-end";

export function probeFrame(bytes: Uint8Array, at: number, maxFrameLength = DEFAULT_MAX_FRAME_LENGTH): Probe {
  const available = bytes.length - at;
  if (available > 7 && bytes[at + 7] !== START) return { ok: false, needMore: false, code: "bad-header" };
  if (available < 10) return { ok: false, needMore: true, code: "truncated" };
  const length = FRAME_OVERHEAD + bytes[at + 9]!;
  if (length > maxFrameLength) return { ok: false, needMore: false, code: "bad-length" };
  if (available < length) return { ok: false, needMore: true, code: "truncated" };
  if (sum8(bytes, at, at + length - 2) !== bytes[at + length - 2])
    return { ok: false, needMore: false, code: "checksum" };
  if (bytes[at + length - 1] !== END) return { ok: false, needMore: false, code: "bad-end" };
  return { ok: true, length };
}

const FAILURE_TEXT: Record<ProbeFailure, string> = {
  truncated: "the input ends before the frame does",
  "bad-header": "no second 0x68 at offset 7 after the start byte",
  "bad-length": "the length byte exceeds the maximum frame length",
  checksum: "checksum mismatch",
  "bad-end": "the frame does not end with 0x16",
};

/**
 * Parse the first DL/T 645 frame in `bytes`. Any leading FE preamble or junk is skipped;
 * a 0x68 that does not start a valid frame is skipped too, and if none does, the error of
 * the first candidate is thrown (it is the one a human pasted). Trailing bytes are ignored.
 */
export function parseFrame(bytes: Uint8Array, options: ParseOptions = {}): Dlt645Frame {
  let firstFailure: { code: ProbeFailure; at: number } | undefined;
  for (let at = bytes.indexOf(START); at !== -1; at = bytes.indexOf(START, at + 1)) {
    const probe = probeFrame(bytes, at, options.maxFrameLength);
    if (probe.ok) return frameAt(bytes, at, probe.length);
    firstFailure ??= { code: probe.code, at };
  }
  if (!firstFailure) fail("no-start", "no 0x68 start byte in the input");
  fail(firstFailure.code, `DL/T 645: ${FAILURE_TEXT[firstFailure.code]}`, firstFailure.at);
}

/** Slice a frame that probeFrame accepted. */
export function frameAt(bytes: Uint8Array, at: number, length: number): Dlt645Frame {
  const data = copyBytes(bytes, at + 10, at + length - 2);
  for (let i = 0; i < data.length; i++) data[i] = (data[i]! - DATA_OFFSET) & 0xff;
  return {
    address: decodeAddress(bytes.subarray(at + 1, at + 7)),
    control: bytes[at + 8]!,
    data,
    start: at,
    end: at + length,
  };
}

export interface BuildFrameInput {
  address: string;
  control: number;
  /** Plain DATA; the 0x33 offset is added here. */
  data?: Uint8Array;
  /** Number of FE wake-up bytes to put in front (0..4 is usual; §1.1). */
  preamble?: number;
}

export function buildFrame(input: BuildFrameInput): Uint8Array {
  const data = input.data ?? new Uint8Array(0);
  if (data.length > 255) fail("bad-argument", `DATA of ${data.length} bytes exceeds 255`);
  if (!Number.isInteger(input.control) || input.control < 0 || input.control > 0xff) {
    fail("bad-argument", `control code ${input.control} is not a byte`);
  }
  const preamble = input.preamble ?? 0;
  if (!Number.isInteger(preamble) || preamble < 0 || preamble > 16)
    fail("bad-argument", "preamble must be 0..16 bytes");
  const body = new Uint8Array(FRAME_OVERHEAD + data.length);
  body[0] = START;
  body.set(encodeAddress(input.address), 1);
  body[7] = START;
  body[8] = input.control;
  body[9] = data.length;
  for (let i = 0; i < data.length; i++) body[10 + i] = (data[i]! + DATA_OFFSET) & 0xff;
  body[body.length - 2] = sum8(body, 0, body.length - 2);
  body[body.length - 1] = END;
  return preamble === 0 ? body : concatBytes(new Uint8Array(preamble).fill(0xfe), body);
}
