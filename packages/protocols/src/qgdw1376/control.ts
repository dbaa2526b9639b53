import { fail } from "../errors.ts";

/**
 * Control field C: D7 DIR (0 = master → terminal, 1 = terminal → master), D6 PRM (1 = from
 * the initiating station), D5 FCB on down frames / ACD on up frames (the terminal has
 * important events waiting: EC follows in AUX), D4 FCV on down frames (FCB is valid),
 * D3..D0 the link function code, named per PRM.
 */
export const LinkFn = {
  /** PRM = 1 */
  RESET: 1,
  USER_DATA: 4,
  LINK_TEST: 9,
  REQUEST_CLASS_1: 10,
  REQUEST_CLASS_2: 11,
  /** PRM = 0 */
  CONFIRM: 0,
  RESPONSE_USER_DATA: 8,
  DENY_NO_DATA: 9,
  LINK_STATUS: 11,
} as const;

const PRIMARY_NAMES: Record<number, string> = {
  1: "reset",
  4: "user data",
  9: "link test",
  10: "request class 1 data",
  11: "request class 2 data",
};
const SECONDARY_NAMES: Record<number, string> = {
  0: "confirm",
  8: "user data (response)",
  9: "deny: no data requested",
  11: "link status",
};

export type Direction = "master->terminal" | "terminal->master";

export interface Qgdw1376ControlInfo {
  raw: number;
  direction: Direction;
  /** PRM: this frame starts an exchange (request or report), not an answer. */
  primary: boolean;
  /** FCB (down frames). */
  fcb?: boolean;
  /** FCV (down frames). */
  fcv?: boolean;
  /** ACD (up frames): important events wait; the frame carries EC. */
  acd?: boolean;
  function: number;
  functionName: string;
}

export function decodeControl(raw: number): Qgdw1376ControlInfo {
  const up = (raw & 0x80) !== 0;
  const primary = (raw & 0x40) !== 0;
  const fn = raw & 0x0f;
  const names = primary ? PRIMARY_NAMES : SECONDARY_NAMES;
  const info: Qgdw1376ControlInfo = {
    raw,
    direction: up ? "terminal->master" : "master->terminal",
    primary,
    function: fn,
    functionName: names[fn] ?? `reserved function ${fn}`,
  };
  if (up) info.acd = (raw & 0x20) !== 0;
  else {
    info.fcb = (raw & 0x20) !== 0;
    info.fcv = (raw & 0x10) !== 0;
  }
  return info;
}

export interface ControlInput {
  direction: Direction;
  primary: boolean;
  function: number;
  /** FCB on down frames, ACD on up frames. */
  fcbOrAcd?: boolean;
  fcv?: boolean;
}

export function encodeControl(input: ControlInput): number {
  if (!Number.isInteger(input.function) || input.function < 0 || input.function > 15)
    fail("bad-argument", `link function ${input.function} is not 0..15`);
  return (
    (input.direction === "terminal->master" ? 0x80 : 0) |
    (input.primary ? 0x40 : 0) |
    (input.fcbOrAcd ? 0x20 : 0) |
    (input.fcv && input.direction === "master->terminal" ? 0x10 : 0) |
    input.function
  );
}

/**
 * SEQ: D7 TpV (a time tag Tp ends AUX), D6 FIR and D5 FIN (first / last frame of a
 * multi-frame answer; both set on a single frame), D4 CON (the receiver must confirm),
 * D3..D0 PSEQ on requests (the master counts 0..15) and RSEQ on answers (the terminal echoes
 * PSEQ, counting the frames of a multi-frame answer).
 */
export interface Qgdw1376Seq {
  raw: number;
  tpv: boolean;
  fir: boolean;
  fin: boolean;
  con: boolean;
  seq: number;
}

export function decodeSeq(raw: number): Qgdw1376Seq {
  return {
    raw,
    tpv: (raw & 0x80) !== 0,
    fir: (raw & 0x40) !== 0,
    fin: (raw & 0x20) !== 0,
    con: (raw & 0x10) !== 0,
    seq: raw & 0x0f,
  };
}

export interface SeqInput {
  seq: number;
  tpv?: boolean;
  /** Single frame (FIR and FIN) unless told. */
  fir?: boolean;
  fin?: boolean;
  con?: boolean;
}

export function encodeSeq(input: SeqInput): number {
  if (!Number.isInteger(input.seq) || input.seq < 0 || input.seq > 15)
    fail("bad-argument", `sequence number ${input.seq} is not 0..15`);
  return (
    (input.tpv ? 0x80 : 0) |
    ((input.fir ?? true) ? 0x40 : 0) |
    ((input.fin ?? true) ? 0x20 : 0) |
    (input.con ? 0x10 : 0) |
    input.seq
  );
}
