import { fail } from "../errors.ts";
import { concatBytes, copyBytes } from "../hex.ts";
import {
  decodeServerAddress,
  encodeServerAddress,
  type ServerAddress,
  serverAddressLength,
} from "./address.ts";
import { crc16x25 } from "./crc.ts";

/**
 * DL/T 698.45 link frame (§7.1):
 *   [FE…] 68 L(2) C SA(2..17) CA HCS(2) user-data FCS(2) 16
 * L counts every byte but the 68 and the 16, little endian; bits 0–13 are the length, bit 14
 * says the unit is kilobytes. HCS covers L..CA, FCS covers L..the last user-data byte; both
 * are CRC-16/X.25, least significant byte first. Scrambled frames (C bit 3) carry their user
 * data +0x33. A split frame (C bit 5) starts its user data with a 2-byte split header.
 */
export const START = 0x68;
export const END = 0x16;
export const SCRAMBLE_OFFSET = 0x33;
/** 14 bits of length without the kilobyte unit: the most a frame can say in bytes. */
export const DEFAULT_MAX_FRAME_LENGTH = 0x3fff + 2;

export type SplitKind = "first" | "last" | "ack" | "middle";
const SPLIT_KINDS: readonly SplitKind[] = ["first", "last", "ack", "middle"];

export interface SplitHeader {
  /** Block number 0..4095. */
  sequence: number;
  kind: SplitKind;
}

export interface Dlt698Frame {
  control: number;
  server: ServerAddress;
  /** Client address CA, 0..255. */
  client: number;
  /** Present when C bit 5 says this frame carries one block of a split APDU. */
  split: SplitHeader | null;
  /** The APDU (or the APDU block of a split frame) with scrambling removed. */
  apdu: Uint8Array;
  start: number;
  end: number;
}

export interface ParseOptions {
  /** Refuse frames announcing more bytes than this (default: what 14 length bits allow). */
  maxFrameLength?: number;
}

type ProbeFailure = "truncated" | "bad-length" | "hcs" | "fcs" | "bad-end";
export type Probe = { ok: true; length: number } | { ok: false; needMore: boolean; code: ProbeFailure };

/** Frame length announced by the L field at `at`, in bytes including 68 and 16. */
function announcedLength(bytes: Uint8Array, at: number): number {
  const field = bytes[at + 1]! | (bytes[at + 2]! << 8);
  const units = field & 0x3fff;
  return (field & 0x4000 ? units * 1024 : units) + 2;
}

/**
 * Is there a frame at `at`? The length is checked against the maximum before anything else
 * is read, and the header check (HCS) before the frame is awaited in full.
 */
export function probeFrame(bytes: Uint8Array, at: number, maxFrameLength = DEFAULT_MAX_FRAME_LENGTH): Probe {
  const available = bytes.length - at;
  if (available < 5) return { ok: false, needMore: true, code: "truncated" };
  const length = announcedLength(bytes, at);
  if (length > maxFrameLength || (bytes[at + 2]! & 0x80) !== 0)
    return { ok: false, needMore: false, code: "bad-length" };
  const headerEnd = at + 4 + serverAddressLength(bytes[at + 4]!) + 1; // just past CA
  // L must at least cover the header, HCS and FCS (an empty APDU).
  if (length < headerEnd - at + 2 + 2 + 1) return { ok: false, needMore: false, code: "bad-length" };
  if (bytes.length < headerEnd + 2) return { ok: false, needMore: true, code: "truncated" };
  const hcs = bytes[headerEnd]! | (bytes[headerEnd + 1]! << 8);
  if (crc16x25(bytes, at + 1, headerEnd) !== hcs) return { ok: false, needMore: false, code: "hcs" };
  if (available < length) return { ok: false, needMore: true, code: "truncated" };
  const fcsAt = at + length - 3;
  const fcs = bytes[fcsAt]! | (bytes[fcsAt + 1]! << 8);
  if (crc16x25(bytes, at + 1, fcsAt) !== fcs) return { ok: false, needMore: false, code: "fcs" };
  if (bytes[at + length - 1] !== END) return { ok: false, needMore: false, code: "bad-end" };
  return { ok: true, length };
}

const FAILURE: Record<
  ProbeFailure,
  [code: "truncated" | "bad-length" | "checksum" | "bad-end", text: string]
> = {
  truncated: ["truncated", "the input ends before the frame does"],
  "bad-length": ["bad-length", "the L field is impossible or exceeds the maximum frame length"],
  hcs: ["checksum", "HCS mismatch (header check sequence, CRC-16/X.25 over L..CA)"],
  fcs: ["checksum", "FCS mismatch (frame check sequence, CRC-16/X.25 over L..user data)"],
  "bad-end": ["bad-end", "the frame does not end with 0x16"],
};

/** Parse the first DL/T 698.45 frame; leading FE/junk and false 0x68 starts are skipped. */
export function parseFrame(bytes: Uint8Array, options: ParseOptions = {}): Dlt698Frame {
  let firstFailure: { code: ProbeFailure; at: number } | undefined;
  for (let at = bytes.indexOf(START); at !== -1; at = bytes.indexOf(START, at + 1)) {
    const probe = probeFrame(bytes, at, options.maxFrameLength);
    if (probe.ok) return frameAt(bytes, at, probe.length);
    firstFailure ??= { code: probe.code, at };
  }
  if (!firstFailure) fail("no-start", "no 0x68 start byte in the input");
  const [code, text] = FAILURE[firstFailure.code];
  fail(code, `DL/T 698.45: ${text}`, firstFailure.at);
}

/** Every frame in `bytes` back to back (a pasted log, a TCP read): skips junk between frames. */
export function parseFrames(bytes: Uint8Array, options: ParseOptions = {}): Dlt698Frame[] {
  const frames: Dlt698Frame[] = [];
  let from = 0;
  for (;;) {
    const at = bytes.indexOf(START, from);
    if (at === -1) break;
    const probe = probeFrame(bytes, at, options.maxFrameLength);
    if (probe.ok) {
      frames.push(frameAt(bytes, at, probe.length));
      from = at + probe.length;
    } else from = at + 1;
  }
  if (frames.length === 0) parseFrame(bytes, options); // throws the reason
  return frames;
}

export function frameAt(bytes: Uint8Array, at: number, length: number): Dlt698Frame {
  const control = bytes[at + 3]!;
  const caAt = at + 4 + serverAddressLength(bytes[at + 4]!);
  let data = copyBytes(bytes, caAt + 3, at + length - 3);
  if (control & 0x08) for (let i = 0; i < data.length; i++) data[i] = (data[i]! - SCRAMBLE_OFFSET) & 0xff;
  let split: SplitHeader | null = null;
  if (control & 0x20 && data.length >= 2) {
    const word = data[0]! | (data[1]! << 8);
    split = { sequence: word & 0x0fff, kind: SPLIT_KINDS[word >> 14]! };
    data = data.subarray(2);
  }
  return {
    control,
    server: decodeServerAddress(bytes, at + 4),
    client: bytes[caAt]!,
    split,
    apdu: data,
    start: at,
    end: at + length,
  };
}

export interface BuildFrameInput {
  control: number;
  server: string | ServerAddress;
  client?: number;
  /** The APDU (or one block of it when `split` is given), plain: scrambling is applied here. */
  apdu: Uint8Array;
  split?: SplitHeader;
  /** FE bytes in front (0..16); DL/T 698.45 meters on RS-485 often expect 4. */
  preamble?: number;
  maxFrameLength?: number;
}

export function encodeSplitHeader(split: SplitHeader): Uint8Array {
  const kind = SPLIT_KINDS.indexOf(split.kind);
  if (kind < 0) fail("bad-argument", `unknown split kind "${split.kind}"`);
  if (!Number.isInteger(split.sequence) || split.sequence < 0 || split.sequence > 0x0fff)
    fail("bad-argument", `split block number ${split.sequence} is not 0..4095`);
  const word = (kind << 14) | split.sequence;
  return Uint8Array.of(word & 0xff, word >> 8);
}

export function buildFrame(input: BuildFrameInput): Uint8Array {
  const client = input.client ?? 0;
  if (!Number.isInteger(client) || client < 0 || client > 0xff) fail("bad-argument", "CA must be a byte");
  if (!Number.isInteger(input.control) || input.control < 0 || input.control > 0xff)
    fail("bad-argument", "control must be a byte");
  const control = input.split ? input.control | 0x20 : input.control & ~0x20;
  const sa = encodeServerAddress(input.server);
  const userData = input.split ? concatBytes(encodeSplitHeader(input.split), input.apdu) : input.apdu;
  const headerLength = 1 + 2 + 1 + sa.length + 1;
  const length = headerLength + 2 + userData.length + 3;
  if (length > (input.maxFrameLength ?? DEFAULT_MAX_FRAME_LENGTH))
    fail("bad-argument", `a ${length}-byte frame exceeds the maximum; split the APDU`);
  const out = new Uint8Array(length);
  out[0] = START;
  out[1] = (length - 2) & 0xff;
  out[2] = (length - 2) >> 8;
  out[3] = control;
  out.set(sa, 4);
  out[headerLength - 1] = client;
  const hcs = crc16x25(out, 1, headerLength);
  out[headerLength] = hcs & 0xff;
  out[headerLength + 1] = hcs >> 8;
  const dataAt = headerLength + 2;
  out.set(userData, dataAt);
  if (control & 0x08)
    for (let i = dataAt; i < dataAt + userData.length; i++) out[i] = (out[i]! + SCRAMBLE_OFFSET) & 0xff;
  const fcs = crc16x25(out, 1, length - 3);
  out[length - 3] = fcs & 0xff;
  out[length - 2] = fcs >> 8;
  out[length - 1] = END;
  const preamble = input.preamble ?? 0;
  if (!Number.isInteger(preamble) || preamble < 0 || preamble > 16)
    fail("bad-argument", "preamble must be 0..16 bytes");
  return preamble === 0 ? out : concatBytes(new Uint8Array(preamble).fill(0xfe), out);
}
