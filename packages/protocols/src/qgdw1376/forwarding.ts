import * as dlt645 from "../dlt645/index.ts";
import { fail, isProtocolError } from "../errors.ts";
import { toHex } from "../hex.ts";
import { binAt, encodeBin } from "./formats.ts";

/**
 * AFN 10 F1, transparent forwarding (透明转发) of a meter frame through a terminal port.
 * Down: port 1, control word 1, frame timeout 1, byte timeout 1, length 2, frame.
 * Up: port 1, length 2, frame (the meter's answer; length 0 when it said nothing).
 * Control word: D7..D5 baud (300, 600, 1200, 2400, 4800, 7200, 9600, 19200), D4 stop bits
 * (0 = 1, 1 = 2), D3 parity on, D2 odd (1) or even (0), D1..D0 data bits 5..8.
 * Frame timeout: D7 unit (1 = seconds, 0 = 10 ms), D6..D0 the count; byte timeout in 10 ms.
 */
export const BAUDS = [300, 600, 1200, 2400, 4800, 7200, 9600, 19200] as const;

export interface SerialSettings {
  baud: number;
  parity: "none" | "even" | "odd";
  dataBits: 5 | 6 | 7 | 8;
  stopBits: 1 | 2;
}

/** 645 meters: 2400 bps 8E1 unless told (DL/T 645-2007 §4). */
export const DLT645_SERIAL: SerialSettings = { baud: 2400, parity: "even", dataBits: 8, stopBits: 1 };

export function decodeSerial(byte: number): SerialSettings {
  return {
    baud: BAUDS[byte >> 5]!,
    parity: byte & 0x08 ? (byte & 0x04 ? "odd" : "even") : "none",
    dataBits: ((byte & 0x03) + 5) as SerialSettings["dataBits"],
    stopBits: byte & 0x10 ? 2 : 1,
  };
}

export function encodeSerial(settings: SerialSettings): number {
  const code = BAUDS.indexOf(settings.baud as (typeof BAUDS)[number]);
  if (code < 0) fail("bad-argument", `baud ${settings.baud} is not one of ${BAUDS.join(", ")}`);
  if (![5, 6, 7, 8].includes(settings.dataBits)) fail("bad-argument", "data bits are 5..8");
  return (
    (code << 5) |
    (settings.stopBits === 2 ? 0x10 : 0) |
    (settings.parity === "none" ? 0 : 0x08) |
    (settings.parity === "odd" ? 0x04 : 0) |
    (settings.dataBits - 5)
  );
}

/** A frame timeout in milliseconds from its byte (unit bit D7). */
export function frameTimeoutMs(byte: number): number {
  return byte & 0x80 ? (byte & 0x7f) * 1000 : (byte & 0x7f) * 10;
}

export function encodeFrameTimeout(ms: number): number {
  if (!Number.isInteger(ms) || ms < 0) fail("bad-argument", "the frame timeout is a whole number of ms");
  if (ms <= 1270 && ms % 10 === 0) return ms / 10;
  const seconds = Math.ceil(ms / 1000);
  if (seconds > 127) fail("bad-argument", `frame timeout ${ms} ms exceeds 127 s`);
  return 0x80 | seconds;
}

/** The forwarded frame decoded as DL/T 645 when it is one (null otherwise: 698, junk, nothing). */
export type EmbeddedFrame = { protocol: "dlt645"; decoded: dlt645.Dlt645Decoded } | null;

function embedded(frame: Uint8Array): EmbeddedFrame {
  if (frame.length === 0) return null;
  try {
    return { protocol: "dlt645", decoded: dlt645.decodeFrame(dlt645.parseFrame(frame)) };
  } catch (error) {
    if (isProtocolError(error)) return null;
    throw error;
  }
}

export interface ForwardRequest {
  type: "forward-request";
  port: number;
  serial: SerialSettings;
  frameTimeoutMs: number;
  byteTimeoutMs: number;
  frame: string;
  embedded: EmbeddedFrame;
}

export interface ForwardReply {
  type: "forward-reply";
  port: number;
  frame: string;
  embedded: EmbeddedFrame;
}

export function forwardRequestLength(bytes: Uint8Array, at: number, end: number): number | null {
  return end - at >= 6 ? 6 + binAt(bytes, at + 4, 2) : null;
}

export function forwardReplyLength(bytes: Uint8Array, at: number, end: number): number | null {
  return end - at >= 3 ? 3 + binAt(bytes, at + 1, 2) : null;
}

export function decodeForwardRequest(data: Uint8Array): ForwardRequest {
  const frame = data.subarray(6);
  return {
    type: "forward-request",
    port: data[0]!,
    serial: decodeSerial(data[1]!),
    frameTimeoutMs: frameTimeoutMs(data[2]!),
    byteTimeoutMs: data[3]! * 10,
    frame: toHex(frame),
    embedded: embedded(frame),
  };
}

export function decodeForwardReply(data: Uint8Array): ForwardReply {
  const frame = data.subarray(3);
  return { type: "forward-reply", port: data[0]!, frame: toHex(frame), embedded: embedded(frame) };
}

export interface ForwardInput {
  /** Terminal port the meter hangs on (1..31; 2 is often the first RS-485, 31 the carrier). */
  port: number;
  frame: Uint8Array;
  serial?: SerialSettings;
  /** How long the terminal waits for the meter's first byte; 2 s unless told. */
  frameTimeoutMs?: number;
  /** Longest gap between the meter's bytes; 500 ms unless told. */
  byteTimeoutMs?: number;
}

export function encodeForwardRequest(input: ForwardInput): Uint8Array {
  const byteTimeout = input.byteTimeoutMs ?? 500;
  if (!Number.isInteger(byteTimeout) || byteTimeout < 0 || byteTimeout > 2550 || byteTimeout % 10 !== 0)
    fail("bad-argument", "the byte timeout is 0..2550 ms in steps of 10");
  const out = new Uint8Array(6 + input.frame.length);
  out[0] = encodeBin(input.port, 1, "port")[0]!;
  out[1] = encodeSerial(input.serial ?? DLT645_SERIAL);
  out[2] = encodeFrameTimeout(input.frameTimeoutMs ?? 2000);
  out[3] = byteTimeout / 10;
  out.set(encodeBin(input.frame.length, 2, "forwarded frame length"), 4);
  out.set(input.frame, 6);
  return out;
}

export function encodeForwardReply(port: number, frame: Uint8Array): Uint8Array {
  const out = new Uint8Array(3 + frame.length);
  out[0] = encodeBin(port, 1, "port")[0]!;
  out.set(encodeBin(frame.length, 2, "forwarded frame length"), 1);
  out.set(frame, 3);
  return out;
}
