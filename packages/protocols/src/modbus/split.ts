import { concatBytes, copyBytes } from "../hex.ts";
import { carriedCrc, crc16Modbus } from "./crc.ts";
import { type ModbusAdu, parseRtuFrame, probeTcpFrame } from "./frame.ts";
import { isReadBits, isReadRegisters, MAX_READ_REGISTERS } from "./functions.ts";
import { decodeRequest, readByteCount } from "./pdu.ts";

/**
 * Finding Modbus replies in socket bytes (a DTU's transparent TCP, a serial port).
 *
 * RTU has no length field and no start byte: a reply is recognised from the request it
 * answers. The slave address and function code (or its exception) must match, a read's byte
 * count must be the one its quantity fixes, and the CRC must hold; anything else is garbage,
 * skipped a byte at a time. A candidate can claim at most 256 bytes, so the held-back tail is
 * bounded. TCP frames carry their length in the MBAP header and are split on it.
 */
export interface PendingReply {
  slave: number;
  functionCode: number;
  /** Reads: the reply's byte count (2 × quantity, or ⌈quantity / 8⌉); undefined = any plausible one. */
  byteCount?: number;
}

/** What to wait for after sending an RTU request (its bytes or its parsed ADU). */
export function pendingFor(request: Uint8Array | ModbusAdu): PendingReply {
  const adu = request instanceof Uint8Array ? parseRtuFrame(request) : request;
  const asked = decodeRequest(adu.pdu);
  if (asked.kind !== "read") return { slave: adu.unit, functionCode: asked.functionCode };
  return {
    slave: adu.unit,
    functionCode: asked.functionCode,
    byteCount: readByteCount(asked.functionCode, asked.quantity),
  };
}

type Probe = { ok: true; length: number } | { ok: false; needMore: boolean };

function replyLength(bytes: Uint8Array, at: number, pending: PendingReply): number | "more" | "no" {
  const available = bytes.length - at;
  if (bytes[at] !== pending.slave) return "no";
  if (available < 2) return "more";
  const functionCode = bytes[at + 1]!;
  if (functionCode === (pending.functionCode | 0x80)) return 5;
  if (functionCode !== pending.functionCode) return "no";
  const bits = isReadBits(functionCode);
  if (!bits && !isReadRegisters(functionCode)) return 8;
  if (available < 3) return "more";
  const byteCount = bytes[at + 2]!;
  if (pending.byteCount !== undefined) return byteCount === pending.byteCount ? 5 + byteCount : "no";
  const plausible = bits ? byteCount >= 1 && byteCount <= 250 : byteCount >= 2 && byteCount % 2 === 0;
  return plausible && byteCount <= MAX_READ_REGISTERS * 2 ? 5 + byteCount : "no";
}

export function probeRtuReply(bytes: Uint8Array, at: number, pending: PendingReply): Probe {
  const length = replyLength(bytes, at, pending);
  if (length === "no") return { ok: false, needMore: false };
  if (length === "more" || bytes.length - at < length) return { ok: false, needMore: true };
  const end = at + length;
  if (crc16Modbus(bytes, at, end - 2) !== carriedCrc(bytes, end)) return { ok: false, needMore: false };
  return { ok: true, length };
}

export interface RtuReplySplit {
  /** The reply's bytes (a view into the input) and where it starts. */
  reply?: { bytes: Uint8Array; offset: number };
  /** Drop this many bytes from the front of the buffer. */
  consumed: number;
  /** Garbage bytes skipped (included in `consumed`). */
  skipped: number;
}

/** Pure: the first complete reply to `pending` in `bytes`, or how much garbage can go. */
export function findRtuReply(bytes: Uint8Array, pending: PendingReply): RtuReplySplit {
  let position = 0;
  let skipped = 0;
  while (position < bytes.length) {
    const probe = probeRtuReply(bytes, position, pending);
    if (probe.ok) {
      const reply = { bytes: bytes.subarray(position, position + probe.length), offset: position };
      return { reply, consumed: position + probe.length, skipped };
    }
    if (!probe.needMore) {
      skipped++;
      position++;
      continue;
    }
    // An incomplete candidate: if a complete reply starts later, the candidate was noise that
    // happened to begin with the slave address.
    let later = -1;
    for (let at = position + 1; at < bytes.length && later === -1; at++)
      if (probeRtuReply(bytes, at, pending).ok) later = at;
    if (later === -1) break;
    skipped += later - position;
    position = later;
  }
  return { consumed: position, skipped };
}

/**
 * One RS-485 bus behind a DTU: `expect(request)` when a request goes out, `push(chunk)` as
 * bytes arrive; the reply comes back once (a copy), which settles the pending request. Bytes
 * with nothing pending are garbage (a bus has one master).
 */
export class RtuReplySplitter {
  private buffer: Uint8Array = new Uint8Array(0);
  private waiting: PendingReply | undefined;
  /** Garbage bytes skipped on this connection. */
  skipped = 0;

  expect(request: Uint8Array | ModbusAdu | PendingReply): void {
    this.flush();
    this.waiting = request instanceof Uint8Array || "pdu" in request ? pendingFor(request) : { ...request };
  }

  push(chunk: Uint8Array): Uint8Array | undefined {
    if (!this.waiting) {
      this.skipped += chunk.length;
      return undefined;
    }
    const joined = concatBytes(this.buffer, chunk);
    const result = findRtuReply(joined, this.waiting);
    this.skipped += result.skipped;
    this.buffer = copyBytes(joined, result.consumed);
    if (!result.reply) return undefined;
    this.waiting = undefined;
    return copyBytes(result.reply.bytes);
  }

  /** Bytes held back behind an incomplete candidate (never more than 255). */
  get pending(): number {
    return this.buffer.length;
  }

  get awaiting(): PendingReply | undefined {
    return this.waiting;
  }

  /** Drop the tail (on the reply timeout); returns how many bytes went. */
  flush(): number {
    const dropped = this.buffer.length;
    this.skipped += dropped;
    this.buffer = new Uint8Array(0);
    return dropped;
  }
}

export interface TcpSplit {
  frames: { bytes: Uint8Array; offset: number }[];
  consumed: number;
  skipped: number;
}

/** Pure: complete MBAP frames in `bytes`; a header that cannot be one (protocol id ≠ 0, length out of range) is skipped a byte at a time. */
export function splitTcpFrames(bytes: Uint8Array): TcpSplit {
  const frames: TcpSplit["frames"] = [];
  let position = 0;
  let skipped = 0;
  while (position < bytes.length) {
    const probe = probeTcpFrame(bytes, position);
    if (probe.ok) {
      frames.push({ bytes: bytes.subarray(position, position + probe.length), offset: position });
      position += probe.length;
    } else if (probe.needMore) break;
    else {
      skipped++;
      position++;
    }
  }
  return { frames, consumed: position, skipped };
}

/** Stateful MBAP splitter for one TCP connection. */
export class TcpFrameSplitter {
  private buffer: Uint8Array = new Uint8Array(0);
  skipped = 0;

  push(chunk: Uint8Array): Uint8Array[] {
    const joined = concatBytes(this.buffer, chunk);
    const result = splitTcpFrames(joined);
    this.skipped += result.skipped;
    this.buffer = copyBytes(joined, result.consumed);
    return result.frames.map((frame) => copyBytes(frame.bytes));
  }

  get pending(): number {
    return this.buffer.length;
  }
}
