import { parseDateTimeText } from "../datetime.ts";
import type * as dlt645 from "../dlt645/index.ts";
import { fail } from "../errors.ts";
import { byteHex, parseHex } from "../hex.ts";
import * as qgdw1376 from "../qgdw1376/index.ts";
import { intOption, option, type ParsedArgs, required } from "./args.ts";
import { fieldSummary } from "./summary.ts";

/**
 * The field tool's Q/GDW 1376.1 half: decode names A1 / A2 / A3, the control and SEQ flags,
 * the AFN in hex and every data unit as "p<n> F<n>" with its name and values; encode builds
 * the requests and confirms the gateway sends to a concentrator.
 */
export interface Qgdw1376Summary {
  protocol: "Q/GDW 1376.1" | "Q/GDW 130-2005";
  A1: string;
  A2: string;
  A3: string;
  control: string;
  function: string;
  direction: string;
  flags: string[];
  AFN: string;
  kind: string;
  seq: { tpv: boolean; fir: boolean; fin: boolean; con: boolean; seq: number };
  units: Record<string, unknown>[];
  aux: qgdw1376.Qgdw1376Aux;
  warnings: string[];
  frame: { offset: number; length: number };
}

function unitSummary(unit: qgdw1376.Qgdw1376Unit): Record<string, unknown> {
  const out: Record<string, unknown> = { unit: unit.label, name: unit.name };
  const value = unit.value;
  switch (value.type) {
    case "none":
      break;
    case "clock":
      out.values = [fieldSummary(value.time)];
      break;
    case "readings":
    case "purchase": {
      const head = [value.readAt, "frozen" in value ? value.frozen : undefined].filter((f) => f != null);
      out.values = [...head, ...value.fields].map(fieldSummary);
      if (value.type === "purchase") out.purchaseCount = value.purchaseCount;
      break;
    }
    case "forward-request":
    case "forward-reply": {
      const { embedded, ...rest } = value;
      Object.assign(out, rest);
      if (embedded) {
        const decoded = embedded.decoded;
        out.embedded = {
          protocol: `DL/T 645-${decoded.version}`,
          address: decoded.address,
          function: decoded.control.functionName,
          message: decoded.message,
        };
      }
      break;
    }
    default: {
      const { type: _type, ...rest } = value;
      Object.assign(out, rest);
    }
  }
  return out;
}

export function summarizeQgdw1376(
  decoded: qgdw1376.Qgdw1376Decoded,
  frame: { offset: number; length: number },
): Qgdw1376Summary {
  const { control, address, seq } = decoded;
  const flags = [
    control.primary ? "PRM" : null,
    control.fcb ? "FCB" : null,
    control.fcv ? "FCV" : null,
    control.acd ? "ACD" : null,
  ].filter((f): f is string => f !== null);
  return {
    protocol: decoded.protocolId === 1 ? "Q/GDW 130-2005" : "Q/GDW 1376.1",
    A1: address.area,
    A2: `${address.terminal} (0x${address.terminal.toString(16).toUpperCase().padStart(4, "0")})`,
    A3: `MSA ${address.master}${address.group ? ", group address" : ""}`,
    control: `0x${byteHex(control.raw)}`,
    function: control.functionName,
    direction: control.direction,
    flags,
    AFN: `${decoded.afnHex} ${decoded.afnName}`,
    kind: decoded.kind,
    seq: { tpv: seq.tpv, fir: seq.fir, fin: seq.fin, con: seq.con, seq: seq.seq },
    units: decoded.units.map(unitSummary),
    aux: decoded.aux,
    warnings: decoded.warnings,
    frame,
  };
}

export function decodeQgdw1376Text(text: string): Qgdw1376Summary[] {
  return qgdw1376.parseFrames(parseHex(text)).map((frame) =>
    summarizeQgdw1376(qgdw1376.decodeFrame(frame), {
      offset: frame.start,
      length: frame.end - frame.start,
    }),
  );
}

interface RequestSpec {
  usage: string;
  build: (args: ParsedArgs, now: Date) => Uint8Array;
}

function target(args: ParsedArgs): qgdw1376.TerminalTarget {
  return {
    area: required(args, "area"),
    terminal: intOption(args, "terminal") ?? fail("bad-argument", "--terminal is required"),
  };
}

function requestOptions(args: ParsedArgs): qgdw1376.RequestOptions {
  return {
    seq: intOption(args, "seq"),
    master: intOption(args, "master"),
    pw: option(args, "pw"),
    confirm: option(args, "con") === "1",
  };
}

function answerTo(args: ParsedArgs): qgdw1376.AnswerTo {
  return {
    address: { ...target(args), master: intOption(args, "master") ?? 0, group: false },
    seq: intOption(args, "seq") ?? 0,
  };
}

function numbers(args: ParsedArgs, name: string): number[] {
  const list = required(args, name)
    .split(",")
    .map((part) => Number(part.trim()));
  if (list.some((n) => !Number.isInteger(n)))
    fail("bad-argument", `--${name} is a comma-separated list of numbers`);
  return list;
}

function validUntil(args: ParsedArgs, now: Date) {
  const text = option(args, "valid-until");
  if (text) return parseDateTimeText(text);
  const until = new Date(now.getTime() + (intOption(args, "valid-minutes") ?? 10) * 60_000);
  return {
    year: until.getFullYear(),
    month: until.getMonth() + 1,
    day: until.getDate(),
    hour: until.getHours(),
    minute: until.getMinutes(),
    second: until.getSeconds(),
  };
}

function forwardRelay(command: dlt645.RelayCommandName) {
  return (args: ParsedArgs, now: Date) =>
    qgdw1376.buildForwardRelay(
      target(args),
      intOption(args, "port") ?? 2,
      required(args, "meter"),
      {
        command,
        validUntil: validUntil(args, now),
        password: option(args, "password"),
        operator: option(args, "operator"),
      },
      requestOptions(args),
    );
}

/** `meter` = index:pn:port:protocol:address, e.g. 1:1:2:30:201000000012. */
function meterRow(text: string): qgdw1376.MeterFileInput {
  const [index, pn, port, protocol, address] = text.split(":");
  if (address === undefined) fail("bad-argument", `--meter "${text}" is index:pn:port:protocol:address`);
  return {
    index: Number(index),
    pn: Number(pn),
    port: Number(port),
    protocol: Number(protocol),
    address,
    baud: null,
  };
}

const T = "--area A1 --terminal A2 [--master MSA] [--seq N]";

export const QGDW1376_REQUESTS: Record<string, RequestSpec> = {
  "login-confirm": {
    usage: `${T}   AFN 00 F1 to a login (C=0B; --master defaults to 0)`,
    build: (a) => qgdw1376.buildLoginConfirm(answerTo(a)),
  },
  "heartbeat-confirm": {
    usage: `${T}   AFN 00 F1 to a heartbeat`,
    build: (a) => qgdw1376.buildHeartbeatConfirm(answerTo(a)),
  },
  deny: { usage: `${T}   AFN 00 F2`, build: (a) => qgdw1376.buildDeny(answerTo(a)) },
  "read-clock": {
    usage: `${T}   AFN 0C p0 F2`,
    build: (a) => qgdw1376.buildReadClock(target(a), requestOptions(a)),
  },
  read: {
    usage: `${T} --pn 1,2 --fn 129,167   AFN 0C class 1 data`,
    build: (a) => qgdw1376.buildReadClass1(target(a), numbers(a, "pn"), numbers(a, "fn"), requestOptions(a)),
  },
  "read-frozen": {
    usage: `${T} --pn 1 --fn 161 --date YYYY-MM-DD   AFN 0D (daily Td_d or monthly Td_m)`,
    build: (a) =>
      qgdw1376.buildReadClass2(
        target(a),
        numbers(a, "pn"),
        intOption(a, "fn") ?? 161,
        parseDateTimeText(required(a, "date")),
        requestOptions(a),
      ),
  },
  "write-meter-file": {
    usage: `${T} --meter index:pn:port:protocol:address [--meter …] [--pw HEX32]   AFN 04 F10 (protocol 1 = 645-97, 30 = 645-07)`,
    build: (a) =>
      qgdw1376.buildWriteMeterFile(
        target(a),
        (a.options.get("meter") ?? []).map(meterRow),
        requestOptions(a),
      ),
  },
  "query-meter-file": {
    usage: `${T} --index 1,2   AFN 0A F10`,
    build: (a) => qgdw1376.buildQueryMeterFile(target(a), numbers(a, "index"), requestOptions(a)),
  },
  forward: {
    usage: `${T} --port 2 (--frame HEX | --meter A --di DI)   AFN 10 F1 transparent forwarding (2400 8E1)`,
    build: (a) => {
      const frame = option(a, "frame");
      const port = intOption(a, "port") ?? 2;
      if (frame) return qgdw1376.buildForward(target(a), { port, frame: parseHex(frame) }, requestOptions(a));
      return qgdw1376.buildForwardRead(
        target(a),
        port,
        required(a, "meter"),
        required(a, "di"),
        requestOptions(a),
      );
    },
  },
  "forward-trip": {
    usage: `${T} --port 2 --meter A [--valid-minutes 10]   AFN 10 F1 with a 645 relay trip (1C 1A)`,
    build: forwardRelay("trip"),
  },
  "forward-close": {
    usage: `${T} --port 2 --meter A   AFN 10 F1 with a 645 close-allowed (1C 1B)`,
    build: forwardRelay("close-allowed"),
  },
  trip: {
    usage: `${T} --pn ROUND   AFN 05 F1 remote trip of a control round`,
    build: (a) => qgdw1376.buildRemoteTrip(target(a), intOption(a, "pn") ?? 1, 0, requestOptions(a)),
  },
  "allow-close": {
    usage: `${T} --pn ROUND   AFN 05 F2`,
    build: (a) => qgdw1376.buildAllowClose(target(a), intOption(a, "pn") ?? 1, requestOptions(a)),
  },
  "read-events": {
    usage: `${T} [--from 0] [--to 255] [--normal]   AFN 0E F1 (important) or F2`,
    build: (a) =>
      qgdw1376.buildReadEvents(
        target(a),
        option(a, "normal") === undefined,
        intOption(a, "from") ?? 0,
        intOption(a, "to") ?? 255,
        requestOptions(a),
      ),
  },
};
