import type { DateTimeInput } from "../datetime.ts";
import * as dlt645 from "../dlt645/index.ts";
import { fail } from "../errors.ts";
import { concatBytes } from "../hex.ts";
import type { Qgdw1376Address } from "./address.ts";
import type { TimeTagInput } from "./aux.ts";
import { frozenRequestBytes } from "./classes.ts";
import { encodeControl, encodeSeq, LinkFn } from "./control.ts";
import { encodeDataUnitId, encodeDataUnitIds } from "./data-units.ts";
import { encodeA1, encodeA20, encodeA21, encodeBin } from "./formats.ts";
import { encodeForwardRequest, type ForwardInput } from "./forwarding.ts";
import { buildMessage, type UnitInput } from "./message.ts";
import { encodeMeterEntry, type MeterFileInput } from "./meter-file.ts";

/**
 * Master-station requests (the gateway's side). The terminal is named by area code and
 * terminal address; the master station address (MSA, 1 unless told) travels in A3 and comes
 * back in the answer. Link function codes: 10 for parameter writes and control (AFN 04, 05,
 * 06, 0F), 11 for reads and forwarding (AFN 09, 0A, 0C, 0D, 0E, 10), as the public frames we
 * test against use them; `linkFunction` overrides for a concentrator that wants the other.
 */
export interface TerminalTarget {
  area: string;
  terminal: number;
  /** A2 is a group address (A3 D0). */
  group?: boolean;
}

export interface RequestOptions {
  /** PSEQ 0..15: the master counts it up per request; the answer echoes it. */
  seq?: number;
  /** MSA 1..127; 1 unless told. */
  master?: number;
  /** CON: ask the terminal to confirm. */
  confirm?: boolean;
  fcb?: boolean;
  fcv?: boolean;
  linkFunction?: number;
  /** PW, 32 hex digits (AFN 04/05/06/0F/10); zeros unless told. */
  pw?: string;
  /** Time tag: the frame is refused by the terminal when it arrives later than allowed. */
  tp?: TimeTagInput;
}

const WRITE_AFNS = new Set([0x04, 0x05, 0x06, 0x0f]);

function address(target: TerminalTarget, options: RequestOptions): Qgdw1376Address {
  return {
    area: target.area,
    terminal: target.terminal,
    master: options.master ?? 1,
    group: target.group ?? false,
  };
}

function request(
  target: TerminalTarget,
  afn: number,
  options: RequestOptions,
  content: { units?: UnitInput[]; ids?: Uint8Array[] },
): Uint8Array {
  const fn =
    options.linkFunction ??
    (afn === 0x01 ? LinkFn.RESET : WRITE_AFNS.has(afn) ? LinkFn.REQUEST_CLASS_1 : LinkFn.REQUEST_CLASS_2);
  return buildMessage({
    address: address(target, options),
    control: encodeControl({
      direction: "master->terminal",
      primary: true,
      function: fn,
      fcbOrAcd: options.fcb,
      fcv: options.fcv,
    }),
    afn,
    seq: encodeSeq({ seq: options.seq ?? 0, con: options.confirm, tpv: options.tp !== undefined }),
    pw: options.pw,
    tp: options.tp,
    ...content,
  });
}

export interface AnswerTo {
  /** The terminal's address exactly as it came (A3 included). */
  address: Qgdw1376Address;
  /** The sequence number of the frame being answered. */
  seq: number;
}

function confirmation(to: AnswerTo, fn: 1 | 2, link: number = LinkFn.LINK_STATUS): Uint8Array {
  return buildMessage({
    address: to.address,
    control: encodeControl({ direction: "master->terminal", primary: false, function: link }),
    afn: 0x00,
    seq: encodeSeq({ seq: to.seq }),
    units: [{ pn: 0, fn }],
  });
}

/**
 * AFN 00 F1 to a login, heartbeat or logout: the answer to a link test (AFN 02) is the link's
 * status, DIR 0, PRM 0, function 11, so C = 0B (as public login exchanges show).
 */
export function buildConfirm(to: AnswerTo): Uint8Array {
  return confirmation(to, 1);
}

/**
 * AFN 00 F1 to data the terminal sent on its own asking for a confirmation (CON), such as an
 * AFN 0E event report: that is user data, not a link test, so the master's answer is the link's
 * plain acknowledgement, DIR 0, PRM 0, function 0 (认可), C = 00.
 */
export function buildReportConfirm(to: AnswerTo): Uint8Array {
  return confirmation(to, 1, LinkFn.CONFIRM);
}

export const buildLoginConfirm = buildConfirm;
export const buildHeartbeatConfirm = buildConfirm;

/** AFN 00 F2: refuse, e.g. a login from a terminal the registry does not know. */
export function buildDeny(to: AnswerTo): Uint8Array {
  return confirmation(to, 2);
}

/** AFN 00 F3: confirm or deny unit by unit (some concentrators want this to a heartbeat). */
export function buildUnitConfirm(
  to: AnswerTo,
  afn: number,
  results: readonly { pn: number; fn: number; ok: boolean }[],
): Uint8Array {
  const data = concatBytes(
    Uint8Array.of(afn),
    ...results.map((r) => concatBytes(encodeDataUnitId(r.pn, r.fn), Uint8Array.of(r.ok ? 0 : 1))),
  );
  return buildMessage({
    address: to.address,
    control: encodeControl({ direction: "master->terminal", primary: false, function: LinkFn.LINK_STATUS }),
    afn: 0x00,
    seq: encodeSeq({ seq: to.seq }),
    units: [{ pn: 0, fn: 3, data }],
  });
}

/** AFN 0C: class 1 (real-time) data for every pn × Fn, identifiers merged by group. */
export function buildReadClass1(
  target: TerminalTarget,
  pns: readonly number[],
  fns: readonly number[],
  options: RequestOptions = {},
): Uint8Array {
  if (pns.length === 0 || fns.length === 0) fail("bad-argument", "a read names at least one pn and one Fn");
  return request(target, 0x0c, options, { ids: encodeDataUnitIds(pns, fns) });
}

/** AFN 0C p0 F2: the terminal's clock. */
export function buildReadClock(target: TerminalTarget, options: RequestOptions = {}): Uint8Array {
  return buildReadClass1(target, [0], [2], options);
}

/**
 * AFN 0D: frozen data of one class for each pn, each unit followed by its time mark: the day
 * (Td_d, A.20) for daily freezes such as F161, the month (Td_m, A.21) for monthly ones (F177).
 */
export function buildReadClass2(
  target: TerminalTarget,
  pns: readonly number[],
  fn: number,
  when: DateTimeInput,
  options: RequestOptions = {},
): Uint8Array {
  const size = frozenRequestBytes(fn);
  if (size === null || size === 7) fail("bad-argument", `F${fn} is not a daily or monthly frozen class`);
  const td = size === 3 ? encodeA20(when) : encodeA21(when);
  if (pns.length === 0) fail("bad-argument", "a read names at least one pn");
  return request(target, 0x0d, options, { units: pns.map((pn) => ({ pn, fn, data: td })) });
}

/** AFN 04 p0 F10: write rows of the meter file (the registry's meters behind the concentrator). */
export function buildWriteMeterFile(
  target: TerminalTarget,
  meters: readonly MeterFileInput[],
  options: RequestOptions = {},
): Uint8Array {
  if (meters.length === 0) fail("bad-argument", "the meter file write needs at least one meter");
  const data = concatBytes(encodeBin(meters.length, 2, "meter count"), ...meters.map(encodeMeterEntry));
  return request(target, 0x04, options, { units: [{ pn: 0, fn: 10, data }] });
}

/** AFN 0A p0 F10: read rows of the meter file by index. */
export function buildQueryMeterFile(
  target: TerminalTarget,
  indexes: readonly number[],
  options: RequestOptions = {},
): Uint8Array {
  const data = concatBytes(
    encodeBin(indexes.length, 2, "index count"),
    ...indexes.map((i) => encodeBin(i, 2, "meter index")),
  );
  return request(target, 0x0a, options, { units: [{ pn: 0, fn: 10, data }] });
}

/** AFN 10 p0 F1: forward a meter frame (645 or 698) through a terminal port, unchanged. */
export function buildForward(
  target: TerminalTarget,
  input: ForwardInput,
  options: RequestOptions = {},
): Uint8Array {
  return request(target, 0x10, options, { units: [{ pn: 0, fn: 1, data: encodeForwardRequest(input) }] });
}

/** A DL/T 645-2007 read of `di` from the meter at `meter`, forwarded through `port`. */
export function buildForwardRead(
  target: TerminalTarget,
  port: number,
  meter: string,
  di: string,
  options: RequestOptions & Omit<ForwardInput, "port" | "frame"> = {},
): Uint8Array {
  return buildForward(
    target,
    { ...options, port, frame: dlt645.buildRead(meter, di, { preamble: 4 }) },
    options,
  );
}

/** A DL/T 645-2007 relay command (1C: trip, close…) forwarded to the meter behind the terminal. */
export function buildForwardRelay(
  target: TerminalTarget,
  port: number,
  meter: string,
  relay: dlt645.RelayControlInput,
  options: RequestOptions & Omit<ForwardInput, "port" | "frame"> = {},
): Uint8Array {
  return buildForward(
    target,
    { ...options, port, frame: dlt645.buildRelayControl(meter, relay, { preamble: 4 }) },
    options,
  );
}

/** AFN 05: a control command for one point (control round for F1/F2, p0 for the terminal's). */
export function buildControl(
  target: TerminalTarget,
  pn: number,
  fn: number,
  data: Uint8Array | undefined,
  options: RequestOptions = {},
): Uint8Array {
  return request(target, 0x05, options, { units: [{ pn, fn, data }] });
}

/** AFN 05 F1 remote trip of control round `pn`; `setting` is the standard's one data byte. */
export function buildRemoteTrip(
  target: TerminalTarget,
  pn: number,
  setting = 0,
  options: RequestOptions = {},
): Uint8Array {
  return buildControl(target, pn, 1, encodeBin(setting, 1, "trip setting"), options);
}

/** AFN 05 F2 allow closing of control round `pn`. */
export function buildAllowClose(
  target: TerminalTarget,
  pn: number,
  options: RequestOptions = {},
): Uint8Array {
  return buildControl(target, pn, 2, undefined, options);
}

/** AFN 05 p0 F31: set the terminal's clock. */
export function buildSetClock(
  target: TerminalTarget,
  time: DateTimeInput,
  options: RequestOptions = {},
): Uint8Array {
  return buildControl(target, 0, 31, encodeA1(time), options);
}

/** AFN 0E p0 F1 (important) or F2 (normal): events from pointer `from` up to `to`. */
export function buildReadEvents(
  target: TerminalTarget,
  important: boolean,
  from: number,
  to: number,
  options: RequestOptions = {},
): Uint8Array {
  const data = concatBytes(encodeBin(from, 1, "event pointer"), encodeBin(to, 1, "event pointer"));
  return request(target, 0x0e, options, { units: [{ pn: 0, fn: important ? 1 : 2, data }] });
}
