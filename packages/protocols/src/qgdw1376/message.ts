import { fail } from "../errors.ts";
import { concatBytes } from "../hex.ts";
import type { Qgdw1376Address } from "./address.ts";
import { EC_LENGTH, encodePassword, encodeTimeTag, PW_AFNS, type TimeTagInput } from "./aux.ts";
import { encodeDataUnitId } from "./data-units.ts";
import { buildFrame } from "./frame.ts";

/** One data unit to send: a point, a class and its encoded data (none for most requests). */
export interface UnitInput {
  pn: number;
  fn: number;
  data?: Uint8Array;
}

export interface MessageInput {
  address: Qgdw1376Address;
  control: number;
  afn: number;
  seq: number;
  /** Each unit gets its own identifier; `ids` sends merged identifiers instead (reads). */
  units?: UnitInput[];
  ids?: Uint8Array[];
  /** PW, 32 hex digits; zeros unless told. Only sent on down frames of AFN 01/04/05/06/0F/10. */
  pw?: string;
  /** EC, sent when the control field has ACD (up frames). */
  ec?: { important: number; normal: number };
  /** Tp, sent when SEQ has TpV. */
  tp?: TimeTagInput;
}

/** Data units, then AUX in the standard's order (PW or EC, then Tp), into a frame. */
export function buildMessage(input: MessageInput): Uint8Array {
  const parts: Uint8Array[] = [];
  for (const id of input.ids ?? []) parts.push(id);
  for (const unit of input.units ?? []) {
    parts.push(encodeDataUnitId(unit.pn, unit.fn));
    if (unit.data) parts.push(unit.data);
  }
  const down = (input.control & 0x80) === 0;
  if (down && PW_AFNS.has(input.afn)) parts.push(encodePassword(input.pw));
  if (!down && input.control & 0x20) {
    const ec = input.ec ?? { important: 0, normal: 0 };
    if (![ec.important, ec.normal].every((n) => Number.isInteger(n) && n >= 0 && n <= 255))
      fail("bad-argument", "event counters are bytes");
    parts.push(Uint8Array.of(ec.important, ec.normal).subarray(0, EC_LENGTH));
  }
  if (input.seq & 0x80) {
    if (!input.tp) fail("bad-argument", "SEQ has TpV but no time tag was given");
    parts.push(encodeTimeTag(input.tp));
  }
  return buildFrame({
    control: input.control,
    address: input.address,
    afn: input.afn,
    seq: input.seq,
    body: concatBytes(...parts),
  });
}
