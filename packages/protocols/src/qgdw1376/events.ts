import type { DateTimeInput } from "../datetime.ts";
import { fail } from "../errors.ts";
import type { DateTimeField } from "../values.ts";
import { a15At, encodeA15 } from "./formats.ts";

/**
 * Where and when a meter event happened. The meter events of AFN 0E (ERC 33 run status word
 * changed, ERC 37 cover opened and their kin) open with the occurrence time (A.15, 5 bytes) and the
 * measurement point: pn in D0–D11 and D15 set when the event starts (clear when it ends), 2 bytes
 * low first; the ERC's own fields follow. Terminal events (power failure, parameter change) carry
 * no point and are not read this way.
 */
export interface EventPoint {
  at: DateTimeField;
  pn: number;
  /** D15: the event began (true) or ended (false). */
  start: boolean;
}

export const EVENT_POINT_LENGTH = 7;

/** The point of an event record's data, or null when the record is too short to hold one. */
export function decodeEventPoint(data: Uint8Array): EventPoint | null {
  if (data.length < EVENT_POINT_LENGTH) return null;
  const word = data[5]! | (data[6]! << 8);
  return { at: a15At("occurred at", data, 0), pn: word & 0x0fff, start: (word & 0x8000) !== 0 };
}

export function encodeEventPoint(at: DateTimeInput, pn: number, start = true): Uint8Array {
  if (!Number.isInteger(pn) || pn < 1 || pn > 2040) fail("bad-argument", `pn ${pn} is not 1..2040`);
  const word = pn | (start ? 0x8000 : 0);
  const out = new Uint8Array(EVENT_POINT_LENGTH);
  out.set(encodeA15(at), 0);
  out[5] = word & 0xff;
  out[6] = word >> 8;
  return out;
}
