import { bcdToNumber, isBcdByte } from "../bcd.ts";
import { fail } from "../errors.ts";
import { byteHex, toHex } from "../hex.ts";

/**
 * AUX, the auxiliary field after the data units: PW (16-byte message authentication code) on
 * down frames of AFN 01, 04, 05, 06, 0F and 10; EC (important and normal event counters) on up
 * frames whose ACD bit is set; then Tp (6 bytes) whenever SEQ has TpV. Its length is known
 * from the header alone, so it is cut from the end before the data units are read.
 */
export const PW_LENGTH = 16;
export const EC_LENGTH = 2;
export const TP_LENGTH = 6;
export const PW_AFNS: ReadonlySet<number> = new Set([0x01, 0x04, 0x05, 0x06, 0x0f, 0x10]);

export interface TimeTag {
  /** PFC, the sender's frame counter. */
  pfc: number;
  /** Sending time stamp, A.16 (ss mm hh DD) as "DD hh:mm:ss"; null when not BCD. */
  sentAt: string | null;
  /** How many minutes the frame may take in transit (0 = no limit). */
  delayMinutes: number;
}

export interface Qgdw1376Aux {
  /** 32 hex digits. */
  pw?: string;
  ec?: { important: number; normal: number };
  tp?: TimeTag;
}

export function decodeTimeTag(bytes: Uint8Array): TimeTag {
  const parts = [bytes[4]!, bytes[3]!, bytes[2]!, bytes[1]!];
  const sentAt = parts.every(isBcdByte)
    ? `${byteHex(parts[0]!)} ${byteHex(parts[1]!)}:${byteHex(parts[2]!)}:${byteHex(parts[3]!)}`
    : null;
  return { pfc: bytes[0]!, sentAt, delayMinutes: bytes[5]! };
}

export interface TimeTagInput {
  pfc?: number;
  /** Day of month, hour, minute, second of sending. */
  sentAt: { day: number; hour: number; minute: number; second: number };
  delayMinutes?: number;
}

const bcd = (value: number, max: number, what: string) => {
  if (!Number.isInteger(value) || value < 0 || value > max)
    fail("bad-argument", `${what} ${value} is out of range`);
  return ((value / 10) << 4) | (value % 10);
};

export function encodeTimeTag(input: TimeTagInput): Uint8Array {
  const { day, hour, minute, second } = input.sentAt;
  const pfc = input.pfc ?? 0;
  const delay = input.delayMinutes ?? 0;
  if (!Number.isInteger(pfc) || pfc < 0 || pfc > 255) fail("bad-argument", "PFC is a byte");
  if (!Number.isInteger(delay) || delay < 0 || delay > 255)
    fail("bad-argument", "the allowed delay is 0..255 minutes");
  if (day < 1) fail("bad-argument", "day 0 cannot be sent");
  return Uint8Array.of(
    pfc,
    bcd(second, 59, "second"),
    bcd(minute, 59, "minute"),
    bcd(hour, 23, "hour"),
    bcd(day, 31, "day"),
    delay,
  );
}

/** True when the A.16 digits of a decoded tag are usable (tests and simulators). */
export function timeTagDay(tag: TimeTag): number | null {
  return tag.sentAt === null ? null : bcdToNumber(Number.parseInt(tag.sentAt.slice(0, 2), 16));
}

export function decodePassword(bytes: Uint8Array): string {
  return toHex(bytes, "");
}

export function encodePassword(pw: string | undefined): Uint8Array {
  const text = pw ?? "0".repeat(32);
  if (!/^[0-9A-Fa-f]{32}$/.test(text)) fail("bad-argument", "PW is 16 bytes: 32 hex digits");
  const out = new Uint8Array(PW_LENGTH);
  for (let i = 0; i < PW_LENGTH; i++) out[i] = Number.parseInt(text.slice(i * 2, i * 2 + 2), 16);
  return out;
}
