import type { DateTimeInput } from "../datetime.ts";
import { fail } from "../errors.ts";
import { concatBytes } from "../hex.ts";
import type { Qgdw1376Address } from "./address.ts";
import { encodePassword, type TimeTagInput } from "./aux.ts";
import { PURCHASE_LENGTH } from "./classes.ts";
import { encodeControl, encodeSeq, LinkFn } from "./control.ts";
import {
  A11,
  A14,
  A14_YUAN,
  encodeA1,
  encodeA8,
  encodeA15,
  encodeA20,
  encodeA21,
  encodeBin,
  encodeNumber,
} from "./formats.ts";
import { encodeForwardReply } from "./forwarding.ts";
import { buildMessage, type UnitInput } from "./message.ts";
import { encodeMeterEntry, type MeterFileInput } from "./meter-file.ts";

/** Terminal-side frames, for the simulated concentrator and for tests. */
export interface TerminalOptions {
  /** PSEQ of a frame the terminal starts, or the RSEQ echoing the master's request. */
  seq?: number;
  /** ACD with these event counters. */
  ec?: { important: number; normal: number };
  tp?: TimeTagInput;
  /** FIR / FIN for multi-frame answers; a single frame unless told. */
  fir?: boolean;
  fin?: boolean;
}

function upFrame(
  address: Qgdw1376Address,
  afn: number,
  primary: boolean,
  fn: number,
  units: UnitInput[],
  options: TerminalOptions,
  con = false,
): Uint8Array {
  return buildMessage({
    address,
    control: encodeControl({
      direction: "terminal->master",
      primary,
      function: fn,
      fcbOrAcd: options.ec !== undefined,
    }),
    afn,
    seq: encodeSeq({
      seq: options.seq ?? 0,
      con,
      tpv: options.tp !== undefined,
      fir: options.fir,
      fin: options.fin,
    }),
    units,
    ec: options.ec,
    tp: options.tp,
  });
}

function linkTest(fn: 1 | 2 | 3, data?: Uint8Array) {
  // C9: DIR 1, PRM 1, link test; CON set: the master must answer (AFN 00 F1).
  return (address: Qgdw1376Address, options: TerminalOptions = {}) =>
    upFrame(address, 0x02, true, LinkFn.LINK_TEST, [{ pn: 0, fn, data }], options, true);
}

/**
 * AFN 02 F1: the terminal logs in after connecting (A3 = 0: no master station yet). The
 * standard's login carries no data; `password` (32 hex digits) appends the terminal's 16-byte
 * login password to it, as concentrators configured for a master station that asks for proof
 * send it (the F1 unit then holds 16 bytes; decoded as a "login-password").
 */
export function buildLogin(
  address: Qgdw1376Address,
  options: TerminalOptions & { password?: string } = {},
): Uint8Array {
  const data = options.password === undefined ? undefined : encodePassword(options.password);
  return linkTest(1, data)(address, options);
}

export const buildLogout = linkTest(2);

/** AFN 02 F3 heartbeat; `clock` adds the terminal's time as some concentrators do. */
export function buildHeartbeat(
  address: Qgdw1376Address,
  options: TerminalOptions & { clock?: DateTimeInput } = {},
): Uint8Array {
  return linkTest(3, options.clock ? encodeA1(options.clock) : undefined)(address, options);
}

/** The answer to a master's request: C = 88 (user data), AFN and RSEQ of the request. */
export function buildResponse(
  address: Qgdw1376Address,
  afn: number,
  units: UnitInput[],
  options: TerminalOptions = {},
): Uint8Array {
  return upFrame(address, afn, false, LinkFn.RESPONSE_USER_DATA, units, options);
}

/** AFN 00 F1 / F2 from the terminal: a parameter write or control command done, or refused. */
export function buildTerminalConfirm(
  address: Qgdw1376Address,
  ok: boolean,
  options: TerminalOptions = {},
): Uint8Array {
  return upFrame(address, 0x00, false, LinkFn.CONFIRM, [{ pn: 0, fn: ok ? 1 : 2 }], options);
}

/** 0C F2 data: the terminal clock, A.1. */
export function encodeClock(time: DateTimeInput): Uint8Array {
  return encodeA1(time);
}

/** 0C F129 (and 0C F33's first block): read time, tariff count, total then tariffs 1..M in kWh. */
export function encodeTariffReadings(readAt: DateTimeInput, values: readonly (string | null)[]): Uint8Array {
  if (values.length < 1 || values.length > 15)
    fail("bad-argument", "readings are the total and up to 14 tariffs");
  return concatBytes(
    encodeA15(readAt),
    Uint8Array.of(values.length - 1),
    ...values.map((v) => encodeNumber(A14, v)),
  );
}

/** 0D F161: the frozen day, then as F129. */
export function encodeDailyFrozenReadings(
  day: DateTimeInput,
  readAt: DateTimeInput,
  values: readonly (string | null)[],
): Uint8Array {
  return concatBytes(encodeA20(day), encodeTariffReadings(readAt, values));
}

/** 0D F177: the frozen month, then as F129. */
export function encodeMonthlyFrozenReadings(
  month: { year: number; month: number },
  readAt: DateTimeInput,
  values: readonly (string | null)[],
): Uint8Array {
  return concatBytes(encodeA21(month), encodeTariffReadings(readAt, values));
}

export interface PurchaseInput {
  readAt: DateTimeInput;
  purchaseCount: number;
  /** Decimal text: yuan with up to 4 decimals, energies in kWh with up to 2; null = not present. */
  remainingAmount: string | null;
  cumulativePurchasedAmount: string | null;
  remainingEnergy?: string | null;
  overdraftEnergy?: string | null;
  cumulativePurchasedEnergy?: string | null;
  creditThresholdEnergy?: string | null;
  alarmEnergy?: string | null;
  faultEnergy?: string | null;
}

/** 0C F167 data, 41 bytes. */
export function encodePurchase(input: PurchaseInput): Uint8Array {
  const out = concatBytes(
    encodeA15(input.readAt),
    encodeA8(input.purchaseCount, "purchase count"),
    encodeNumber(A14_YUAN, input.remainingAmount),
    encodeNumber(A14_YUAN, input.cumulativePurchasedAmount),
    ...[
      input.remainingEnergy,
      input.overdraftEnergy,
      input.cumulativePurchasedEnergy,
      input.creditThresholdEnergy,
      input.alarmEnergy,
      input.faultEnergy,
    ].map((value) => encodeNumber(A11, value ?? "0")),
  );
  if (out.length !== PURCHASE_LENGTH) fail("bad-argument", "purchase layout mismatch");
  return out;
}

/** 0A F10 answer data: the meter file rows. */
export function encodeMeterFile(meters: readonly MeterFileInput[]): Uint8Array {
  return concatBytes(encodeBin(meters.length, 2, "meter count"), ...meters.map(encodeMeterEntry));
}

/** AFN 10 F1 answer: what the meter said on `port` (empty when it said nothing). */
export function buildForwardReply(
  address: Qgdw1376Address,
  port: number,
  frame: Uint8Array,
  options: TerminalOptions = {},
): Uint8Array {
  return buildResponse(address, 0x10, [{ pn: 0, fn: 1, data: encodeForwardReply(port, frame) }], options);
}

/**
 * AFN 0E F1 (important) or F2 (normal) sent by the terminal on its own (主动上报): PRM 1, user
 * data, CON set so the master confirms with AFN 00 F1; the data as encodeEvents lays it out.
 */
export function buildEventReport(
  address: Qgdw1376Address,
  important: boolean,
  data: Uint8Array,
  options: TerminalOptions = {},
): Uint8Array {
  return upFrame(
    address,
    0x0e,
    true,
    LinkFn.USER_DATA,
    [{ pn: 0, fn: important ? 1 : 2, data }],
    options,
    true,
  );
}

export interface EventInput {
  erc: number;
  data: Uint8Array;
}

/** 0E F1 / F2 answer data: EC1 EC2 Pm Pn, then the records. */
export function encodeEvents(
  counters: { important: number; normal: number },
  from: number,
  to: number,
  records: readonly EventInput[],
): Uint8Array {
  return concatBytes(
    Uint8Array.of(counters.important & 0xff, counters.normal & 0xff, from & 0xff, to & 0xff),
    ...records.map((r) => {
      if (r.data.length > 255) fail("bad-argument", "an event record holds at most 255 bytes");
      return concatBytes(Uint8Array.of(r.erc & 0xff, r.data.length), r.data);
    }),
  );
}
