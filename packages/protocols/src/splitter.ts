import * as cjt188Frame from "./cjt188/frame.ts";
import * as dlt645Frame from "./dlt645/frame.ts";
import * as dlt698Frame from "./dlt698/frame.ts";
import { fail } from "./errors.ts";
import { copyBytes } from "./hex.ts";
import * as qgdw1376Frame from "./qgdw1376/frame.ts";

/**
 * Stream splitter for socket bytes (DTU/TCP or serial): finds complete frames in a growing
 * buffer, skips garbage (FE preambles, heartbeats, line noise) and says how many bytes the
 * caller may drop. Bounded: a candidate frame can never claim more than `maxFrameLength`
 * bytes, so an incomplete tail never grows past that; and every call either returns a frame,
 * consumes bytes, or waits for more data behind a candidate shorter than the maximum.
 */
/**
 * "auto" tells DL/T 645 from CJ/T 188; DL/T 698.45 links are split with "dlt698" (its own length
 * field); "any" finds all three on one stream (a DTU's bus with 645 and 698.45 meters on it);
 * "qgdw1376" splits a concentrator's link (68 L L L L 68 … CS 16), whose meter frames travel
 * inside AFN 10 and are split again by the caller.
 */
export type StreamProtocol = "dlt645" | "cjt188" | "dlt698" | "qgdw1376" | "auto" | "any";

export interface SplitOptions {
  protocol: StreamProtocol;
  /** Longest frame accepted (DL/T 645 read replies have L ≤ 200, §1.1). */
  maxFrameLength?: number;
}

export type SplitProtocol = "dlt645" | "cjt188" | "dlt698" | "qgdw1376";

export interface SplitFrame {
  /** "modbus": a Modbus-RTU reply a link found against its pending request (no start byte to split on). */
  protocol: SplitProtocol | "modbus";
  /** The frame from its 0x68 to its 0x16 (a view into the input). */
  bytes: Uint8Array;
  /** Offset of the frame's 0x68 in the input. */
  offset: number;
}

export interface SplitResult {
  frames: SplitFrame[];
  /** Drop this many bytes from the front of the buffer: frames and garbage before the pending tail. */
  consumed: number;
  /** Garbage bytes skipped (included in `consumed`). */
  skipped: number;
}

/** Without a maximum, "any" waits no longer for a 698.45 frame than for the longest 645 one. */
const DEFAULT_ANY_MAX_FRAME_LENGTH = 2048;
/** Without a maximum, a concentrator's frame is bounded like "any" (its L field could claim 16 KiB). */
const DEFAULT_QGDW1376_MAX_FRAME_LENGTH = 2048;

type Found = { ok: true; protocol: SplitProtocol; length: number } | { ok: false; needMore: boolean };

function probeAt(bytes: Uint8Array, at: number, protocol: StreamProtocol, max: number | undefined): Found {
  if (protocol === "qgdw1376") {
    // Its L field is checked against the maximum before the rest of the frame is waited for.
    const maxUser = (max ?? DEFAULT_QGDW1376_MAX_FRAME_LENGTH) - qgdw1376Frame.FRAME_OVERHEAD;
    const probe = qgdw1376Frame.probeFrame(bytes, at, maxUser);
    return probe.ok
      ? { ok: true, protocol: "qgdw1376", length: probe.length }
      : { ok: false, needMore: probe.needMore };
  }
  if (protocol === "dlt698") {
    const probe = dlt698Frame.probeFrame(bytes, at, max ?? dlt698Frame.DEFAULT_MAX_FRAME_LENGTH);
    return probe.ok
      ? { ok: true, protocol: "dlt698", length: probe.length }
      : { ok: false, needMore: probe.needMore };
  }
  let needMore = false;
  if (protocol !== "cjt188") {
    const probe = dlt645Frame.probeFrame(bytes, at, max ?? dlt645Frame.DEFAULT_MAX_FRAME_LENGTH);
    if (probe.ok) return { ok: true, protocol: "dlt645", length: probe.length };
    needMore ||= probe.needMore;
  }
  if (protocol !== "dlt645") {
    const probe = cjt188Frame.probeFrame(bytes, at, max ?? cjt188Frame.DEFAULT_MAX_FRAME_LENGTH);
    if (probe.ok) return { ok: true, protocol: "cjt188", length: probe.length };
    needMore ||= probe.needMore;
  }
  if (protocol === "any") {
    // Its L field is checked against the maximum and its HCS before the frame is waited for.
    const probe = dlt698Frame.probeFrame(bytes, at, max ?? DEFAULT_ANY_MAX_FRAME_LENGTH);
    if (probe.ok) return { ok: true, protocol: "dlt698", length: probe.length };
    needMore ||= probe.needMore;
  }
  return { ok: false, needMore };
}

/** Pure: split what is in `bytes` now. The caller keeps `bytes.subarray(consumed)` for later. */
export function splitFrames(bytes: Uint8Array, options: SplitOptions): SplitResult {
  const { protocol, maxFrameLength } = options;
  if (maxFrameLength !== undefined && (!Number.isInteger(maxFrameLength) || maxFrameLength < 12)) {
    fail("bad-argument", "maxFrameLength must be an integer ≥ 12");
  }
  const frames: SplitFrame[] = [];
  let position = 0;
  let skipped = 0;
  while (position < bytes.length) {
    const start = bytes.indexOf(0x68, position);
    if (start === -1) {
      skipped += bytes.length - position;
      position = bytes.length;
      break;
    }
    skipped += start - position;
    position = start;
    const found = probeAt(bytes, start, protocol, maxFrameLength);
    if (found.ok) {
      frames.push({
        protocol: found.protocol,
        bytes: bytes.subarray(start, start + found.length),
        offset: start,
      });
      position = start + found.length;
      continue;
    }
    if (!found.needMore) {
      skipped += 1;
      position = start + 1;
      continue;
    }
    // An incomplete candidate. If a complete frame starts further on, the candidate was
    // garbage that happened to contain 0x68 (a real frame never contains another whole
    // valid frame in a request/response exchange): resynchronise on the later frame.
    const later = nextCompleteFrame(bytes, start + 1, protocol, maxFrameLength);
    if (later === -1) break;
    skipped += later - start;
    position = later;
  }
  return { frames, consumed: position, skipped };
}

function nextCompleteFrame(
  bytes: Uint8Array,
  from: number,
  protocol: StreamProtocol,
  max: number | undefined,
): number {
  for (let at = bytes.indexOf(0x68, from); at !== -1; at = bytes.indexOf(0x68, at + 1)) {
    if (probeAt(bytes, at, protocol, max).ok) return at;
  }
  return -1;
}

/** Stateful wrapper for one connection: push chunks, get frames (copies, safe to keep). */
export class FrameSplitter {
  private buffer: Uint8Array = new Uint8Array(0);
  /** Stream position of buffer[0], so frame offsets count from the start of the connection. */
  private bufferStart = 0;
  /** Total garbage bytes skipped on this connection. */
  skipped = 0;

  constructor(private readonly options: SplitOptions) {}

  push(chunk: Uint8Array): SplitFrame[] {
    const joined = new Uint8Array(this.buffer.length + chunk.length);
    joined.set(this.buffer, 0);
    joined.set(chunk, this.buffer.length);
    const result = splitFrames(joined, this.options);
    const frames = result.frames.map((frame) => ({
      protocol: frame.protocol,
      bytes: copyBytes(frame.bytes),
      offset: this.bufferStart + frame.offset,
    }));
    this.skipped += result.skipped;
    this.bufferStart += result.consumed;
    this.buffer = copyBytes(joined, result.consumed);
    return frames;
  }

  /** Bytes held back waiting for the rest of a frame. */
  get pending(): number {
    return this.buffer.length;
  }

  /** Drop the pending tail (e.g. after the inter-byte idle timeout, §1.1); returns how many bytes. */
  flush(): number {
    const dropped = this.buffer.length;
    this.skipped += dropped;
    this.bufferStart += dropped;
    this.buffer = new Uint8Array(0);
    return dropped;
  }
}
