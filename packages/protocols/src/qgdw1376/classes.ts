import { toHex } from "../hex.ts";
import type { DateTimeField, NumberField } from "../values.ts";
import { PW_LENGTH } from "./aux.ts";
import { decodeDataUnitId } from "./data-units.ts";
import {
  type DirectRead,
  type DirectReadReply,
  type DirectSwitchReply,
  decodeDirectRead,
  decodeDirectReadReply,
  decodeDirectSwitchReply,
  directReadLength,
  directReadReplyLength,
} from "./direct.ts";
import {
  A5,
  A7,
  A9,
  A9_KVA,
  A9_KVAR,
  A11,
  A11_KVARH,
  A14,
  A14_YUAN,
  A25,
  a15At,
  binAt,
  decodeA1,
  decodeA8,
  decodeA20,
  decodeA21,
  type NumberFormat,
  numberAt,
} from "./formats.ts";
import {
  decodeForwardReply,
  decodeForwardRequest,
  type ForwardReply,
  type ForwardRequest,
  forwardReplyLength,
  forwardRequestLength,
} from "./forwarding.ts";
import { decodeMeterEntry, METER_ENTRY_LENGTH, type MeterFileEntry } from "./meter-file.ts";

/**
 * What each (AFN, Fn) data unit holds, per direction: its name, how long it is (fixed, or read
 * from its own count fields) and how it decodes. A unit this table does not know is kept as raw
 * bytes to the end of the data, since its length cannot be told.
 */
export type Way = "down" | "up";

export type UnitValue =
  | { type: "none" }
  | { type: "clock"; time: DateTimeField }
  | { type: "byte"; name: string; value: number }
  | { type: "meter-file"; meters: MeterFileEntry[] }
  | { type: "meter-file-query"; indexes: number[] }
  | { type: "unit-results"; afn: number; results: { pn: number | "all"; fn: number; ok: boolean }[] }
  | {
      type: "readings";
      readAt: DateTimeField | null;
      frozen?: DateTimeField;
      tariffCount?: number;
      fields: (NumberField | DateTimeField)[];
    }
  | { type: "purchase"; readAt: DateTimeField; purchaseCount: number | null; fields: NumberField[] }
  | {
      type: "settlement";
      readAt: DateTimeField;
      tariffCount: number;
      settled: NumberField[];
      unsettled: NumberField[];
    }
  | DirectRead
  | DirectReadReply
  | DirectSwitchReply
  | { type: "frozen-request"; frozen: DateTimeField }
  | { type: "curve-request"; start: DateTimeField; density: number; points: number }
  | { type: "event-request"; from: number; to: number }
  | {
      type: "events";
      importantCount: number;
      normalCount: number;
      from: number;
      to: number;
      records: EventRecord[];
    }
  | ForwardRequest
  | ForwardReply
  | { type: "login-password"; hex: string }
  | { type: "raw"; hex: string };

export interface EventRecord {
  erc: number;
  name: string;
  data: string;
}

interface ClassSpec {
  name: string;
  /** Bytes the unit takes from `at` (the data ends at `end`); null = cannot tell. */
  length: (bytes: Uint8Array, at: number, end: number) => number | null;
  decode: (data: Uint8Array) => UnitValue;
}

const NONE: ClassSpec["decode"] = () => ({ type: "none" });
const fixed = (n: number) => () => n;
const rest = (_bytes: Uint8Array, at: number, end: number) => end - at;

const AFN_NAMES: Record<number, string> = {
  0: "confirm / deny",
  1: "reset",
  2: "link interface test",
  3: "relay station command",
  4: "set parameters",
  5: "control command",
  6: "authentication and key agreement",
  8: "request cascaded terminal report",
  9: "request terminal configuration",
  10: "query parameters",
  11: "request task data",
  12: "request class 1 data (real time)",
  13: "request class 2 data (frozen)",
  14: "request class 3 data (events)",
  15: "file transfer",
  16: "data forwarding",
};

export function afnName(afn: number): string {
  return AFN_NAMES[afn] ?? `reserved AFN ${afn.toString(16).toUpperCase().padStart(2, "0")}H`;
}

/** Class names the gateway and field tool print; unknown ones read "AFN 0CH F200". */
const NAMES: Record<string, string> = {
  "0:1": "all confirmed",
  "0:2": "all denied",
  "0:3": "confirm / deny per data unit",
  "0:4": "hardware security authentication error",
  "1:1": "hardware initialisation",
  "1:2": "data area initialisation",
  "1:3": "parameter and data area initialisation",
  "1:4": "parameter initialisation (keep communication parameters)",
  "2:1": "login",
  "2:2": "logout",
  "2:3": "heartbeat",
  "4:1": "terminal up-link communication parameters",
  "4:3": "master station IP address and port",
  "4:10": "meter file (meter / AC sampling device configuration)",
  "4:25": "measurement point basic parameters",
  "5:1": "remote trip",
  "5:2": "allow closing",
  "5:25": "terminal power hold on",
  "5:26": "urge-fee alarm on",
  "5:29": "allow active reporting",
  "5:31": "clock set",
  "5:33": "terminal power hold off",
  "5:34": "urge-fee alarm off",
  "5:37": "forbid active reporting",
  "9:1": "terminal version information",
  "12:2": "terminal clock",
  "12:25": "current power, power factor, voltage, current",
  "12:33": "current forward active / reactive energy, quadrant I / IV reactive energy",
  "12:129": "current forward active energy (total, tariffs 1..M)",
  "12:130": "current forward reactive energy (total, tariffs 1..M)",
  "12:161": "meter remote switching state and record",
  "12:162": "meter clock",
  "12:166": "meter parameter change count and time",
  "12:167": "meter purchase and usage information",
  "12:168": "meter settlement information",
  "13:1": "daily frozen forward active / reactive energy, quadrant I / IV reactive energy",
  "13:17": "monthly frozen forward active / reactive energy, quadrant I / IV reactive energy",
  "13:161": "daily frozen forward active energy (total, tariffs 1..M)",
  "13:177": "monthly frozen forward active energy (total, tariffs 1..M)",
  "14:1": "important events",
  "14:2": "normal events",
  "16:1": "transparent forwarding",
  "16:9": "forward the master's direct meter read",
  "16:10": "forward the master's direct meter trip / close",
  "16:11": "forward the master's direct meter power-on",
};

export function className(afn: number, fn: number): string {
  // AFN 0A reads back what AFN 04 sets: the same class names.
  return (
    NAMES[`${afn === 0x0a ? 0x04 : afn}:${fn}`] ??
    (AFN_NAMES[afn] ? `${afnName(afn)} F${fn}` : `AFN ${afn} F${fn}`)
  );
}

const ERC_NAMES: Record<number, string> = {
  1: "data initialisation and version change",
  3: "parameter change",
  5: "remote control trip",
  12: "meter time out of tolerance",
  13: "meter fault",
  14: "terminal power off / on",
  19: "purchase parameter set",
  20: "message authentication error",
  21: "terminal fault",
  27: "meter reading went down",
  28: "meter energy over tolerance",
  29: "meter runs away",
  30: "meter stopped",
  31: "RS-485 meter reading failed",
  33: "meter run status word changed",
  35: "unknown meter found",
  37: "meter cover opened",
};

export function ercName(erc: number): string {
  return ERC_NAMES[erc] ?? `ERC${erc}`;
}

/** Readings at time + tariff count + (M+1) values: F129, F130 and their frozen forms. */
function tariffReadings(format: NumberFormat, unitName: string, frozenBytes: 0 | 2 | 3) {
  const head = frozenBytes + 6;
  const spec: Omit<ClassSpec, "name"> = {
    length: (bytes, at, end) =>
      end - at > head - 1 ? head + format.bytes * (bytes[at + head - 1]! + 1) : null,
    decode: (data) => {
      const m = data[head - 1]!;
      const fields: NumberField[] = [];
      for (let i = 0; i <= m; i++)
        fields.push(
          numberAt(
            i === 0 ? `${unitName} total` : `${unitName} tariff ${i}`,
            format,
            data,
            head + i * format.bytes,
          ),
        );
      const value: UnitValue = {
        type: "readings",
        readAt: a15At("read at", data, frozenBytes),
        tariffCount: m,
        fields,
      };
      if (frozenBytes === 3) value.frozen = decodeA20("frozen day", data.subarray(0, 3));
      if (frozenBytes === 2) value.frozen = decodeA21("frozen month", data.subarray(0, 2));
      return value;
    },
  };
  return spec;
}

/** F33 and its daily / monthly frozen forms (0D F1, F17): four blocks of M+1 values. */
function fourQuadrants(frozenBytes: 0 | 2 | 3): Omit<ClassSpec, "name"> {
  const head = frozenBytes + 6;
  return {
    length: (bytes, at, end) => (end - at > head - 1 ? head + 17 * (bytes[at + head - 1]! + 1) : null),
    decode: (data) => {
      const m = data[head - 1]!;
      const fields: NumberField[] = [];
      let at = head;
      for (const [label, format] of [
        ["forward active energy", A14],
        ["forward reactive energy", A11_KVARH],
        ["quadrant I reactive energy", A11_KVARH],
        ["quadrant IV reactive energy", A11_KVARH],
      ] as const) {
        for (let i = 0; i <= m; i++, at += format.bytes)
          fields.push(numberAt(i === 0 ? `${label} total` : `${label} tariff ${i}`, format, data, at));
      }
      const value: UnitValue = {
        type: "readings",
        readAt: a15At("read at", data, frozenBytes),
        tariffCount: m,
        fields,
      };
      if (frozenBytes === 3) value.frozen = decodeA20("frozen day", data.subarray(0, 3));
      if (frozenBytes === 2) value.frozen = decodeA21("frozen month", data.subarray(0, 2));
      return value;
    },
  };
}

const PHASES = ["total", "phase A", "phase B", "phase C"] as const;
/** 0C F25: 67 bytes, in the order of the standard's table. */
const POWER_LAYOUT: [
  string,
  typeof A9 | typeof A5 | typeof A7 | typeof A25 | typeof A9_KVAR | typeof A9_KVA,
][] = [
  ...PHASES.map((p) => [`active power ${p}`, A9] as [string, typeof A9]),
  ...PHASES.map((p) => [`reactive power ${p}`, A9_KVAR] as [string, typeof A9_KVAR]),
  ...PHASES.map((p) => [`power factor ${p} (%)`, A5] as [string, typeof A5]),
  ...PHASES.slice(1).map((p) => [`voltage ${p}`, A7] as [string, typeof A7]),
  ...PHASES.slice(1).map((p) => [`current ${p}`, A25] as [string, typeof A25]),
  ["zero-sequence current", A25],
  ...PHASES.map((p) => [`apparent power ${p}`, A9_KVA] as [string, typeof A9_KVA]),
];
export const POWER_LENGTH = 5 + POWER_LAYOUT.reduce((sum, [, format]) => sum + format.bytes, 0);

/** 0C F167: read time, purchase count, remaining and cumulative money, then six energies. */
const PURCHASE_LAYOUT: [string, typeof A14_YUAN | typeof A11][] = [
  ["remaining amount", A14_YUAN],
  ["cumulative purchased amount", A14_YUAN],
  ["remaining energy", A11],
  ["overdraft energy", A11],
  ["cumulative purchased energy", A11],
  ["credit threshold energy", A11],
  ["alarm energy", A11],
  ["fault energy", A11],
];
export const PURCHASE_LENGTH = 7 + PURCHASE_LAYOUT.reduce((sum, [, format]) => sum + format.bytes, 0);

function eventsLength(_bytes: Uint8Array, at: number, end: number): number | null {
  // EC1 EC2 Pm Pn, then records ERC Le data: walk them; the unit ends where the data ends.
  if (end - at < 4) return null;
  return end - at;
}

function decodeEvents(data: Uint8Array): UnitValue {
  const records: EventRecord[] = [];
  let at = 4;
  while (at + 2 <= data.length) {
    const length = data[at + 1]!;
    const body = data.subarray(at + 2, Math.min(data.length, at + 2 + length));
    records.push({ erc: data[at]!, name: ercName(data[at]!), data: toHex(body) });
    at += 2 + length;
  }
  return {
    type: "events",
    importantCount: data[0]!,
    normalCount: data[1]!,
    from: data[2]!,
    to: data[3]!,
    records,
  };
}

function unitResults(data: Uint8Array): UnitValue {
  const results: { pn: number | "all"; fn: number; ok: boolean }[] = [];
  for (let at = 1; at + 5 <= data.length; at += 5) {
    const id = decodeDataUnitId(data, at);
    const ok = data[at + 4] === 0;
    const pns: (number | "all")[] = id.allPoints ? ["all"] : id.pns;
    for (const pn of pns) for (const fn of id.fns) results.push({ pn, fn, ok });
  }
  return { type: "unit-results", afn: data[0] ?? 0, results };
}

const clock =
  (name: string): ClassSpec["decode"] =>
  (data) => ({ type: "clock", time: decodeA1(name, data) });
const oneByte = (name: string): Omit<ClassSpec, "name"> => ({
  length: fixed(1),
  decode: (data) => ({ type: "byte", name, value: data[0]! }),
});

/** Daily-frozen classes of AFN 0D are asked for with Td_d (3 bytes), monthly with Td_m (2), curves with Td_c (7). */
export function frozenRequestBytes(fn: number): 2 | 3 | 7 | null {
  if (
    (fn >= 1 && fn <= 12) ||
    (fn >= 25 && fn <= 32) ||
    (fn >= 41 && fn <= 48) ||
    (fn >= 153 && fn <= 176) ||
    (fn >= 185 && fn <= 188)
  )
    return 3;
  if (
    (fn >= 17 && fn <= 24) ||
    (fn >= 33 && fn <= 40) ||
    (fn >= 177 && fn <= 184) ||
    (fn >= 189 && fn <= 192)
  )
    return 2;
  if ((fn >= 73 && fn <= 76) || (fn >= 81 && fn <= 95) || (fn >= 101 && fn <= 104)) return 7;
  return null;
}

function frozenRequest(fn: number): Omit<ClassSpec, "name"> | undefined {
  const size = frozenRequestBytes(fn);
  if (size === 3)
    return {
      length: fixed(3),
      decode: (d) => ({ type: "frozen-request", frozen: decodeA20("frozen day", d) }),
    };
  if (size === 2)
    return {
      length: fixed(2),
      decode: (d) => ({ type: "frozen-request", frozen: decodeA21("frozen month", d) }),
    };
  if (size === 7)
    return {
      length: fixed(7),
      decode: (d) => ({
        type: "curve-request",
        start: a15At("curve start", d, 0),
        density: d[5]!,
        points: d[6]!,
      }),
    };
  return undefined;
}

function spec(afn: number, fn: number, way: Way): Omit<ClassSpec, "name"> | undefined {
  switch (afn) {
    case 0x00:
      if (fn === 1 || fn === 2) return { length: fixed(0), decode: NONE };
      if (fn === 3) return { length: rest, decode: unitResults };
      return undefined;
    case 0x01:
    case 0x09:
      return way === "down" || afn === 0x01 ? { length: fixed(0), decode: NONE } : undefined;
    case 0x02:
      if (fn === 3)
        // Some concentrators add their clock (A.1) to the heartbeat; the standard's is empty.
        return {
          length: (_b, at, end) => (end - at === 6 ? 6 : 0),
          decode: (d) => (d.length === 6 ? clock("terminal clock")(d) : { type: "none" }),
        };
      if (fn === 1)
        // A login may carry the terminal's 16-byte login password (a master station's convention).
        return {
          length: (_b, at, end) => (end - at === PW_LENGTH ? PW_LENGTH : 0),
          decode: (d) =>
            d.length === PW_LENGTH ? { type: "login-password", hex: toHex(d, "") } : { type: "none" },
        };
      return fn === 2 ? { length: fixed(0), decode: NONE } : undefined;
    case 0x04:
    case 0x0a:
      if (fn === 10 && (afn === 0x04 || way === "up"))
        return {
          length: (b, at, end) => (end - at >= 2 ? 2 + METER_ENTRY_LENGTH * binAt(b, at, 2) : null),
          decode: (d) => {
            const meters: MeterFileEntry[] = [];
            for (let at = 2; at + METER_ENTRY_LENGTH <= d.length; at += METER_ENTRY_LENGTH)
              meters.push(decodeMeterEntry(d, at));
            return { type: "meter-file", meters };
          },
        };
      if (fn === 10)
        return {
          length: (b, at, end) => (end - at >= 2 ? 2 + 2 * binAt(b, at, 2) : null),
          decode: (d) => {
            const indexes: number[] = [];
            for (let at = 2; at + 2 <= d.length; at += 2) indexes.push(binAt(d, at, 2));
            return { type: "meter-file-query", indexes };
          },
        };
      return afn === 0x0a && way === "down" ? { length: fixed(0), decode: NONE } : undefined;
    case 0x05:
      if (way === "up") return undefined;
      if (fn === 1) return oneByte("alarm delay and power-limit time");
      if (fn === 25) return oneByte("power hold duration (0.5 h)");
      if (fn === 31) return { length: fixed(6), decode: clock("clock to set") };
      if ([2, 26, 27, 28, 29, 33, 34, 35, 36, 37, 38].includes(fn)) return { length: fixed(0), decode: NONE };
      return undefined;
    case 0x0c:
      if (way === "down") return { length: fixed(0), decode: NONE };
      if (fn === 2) return { length: fixed(6), decode: clock("terminal clock") };
      if (fn === 25)
        return {
          length: fixed(POWER_LENGTH),
          decode: (d) => {
            const fields: NumberField[] = [];
            let at = 5;
            for (const [name, format] of POWER_LAYOUT) {
              fields.push(numberAt(name, format, d, at));
              at += format.bytes;
            }
            return { type: "readings", readAt: a15At("read at", d, 0), fields };
          },
        };
      if (fn === 33) return fourQuadrants(0);
      if (fn === 129) return tariffReadings(A14, "forward active energy", 0);
      if (fn === 130) return tariffReadings(A11_KVARH, "forward reactive energy", 0);
      if (fn === 167)
        return {
          length: fixed(PURCHASE_LENGTH),
          decode: (d) => {
            const fields: NumberField[] = [];
            let at = 7;
            for (const [name, format] of PURCHASE_LAYOUT) {
              fields.push(numberAt(name, format, d, at));
              at += format.bytes;
            }
            return {
              type: "purchase",
              readAt: a15At("read at", d, 0),
              purchaseCount: decodeA8(d, 5),
              fields,
            };
          },
        };
      if (fn === 168)
        return {
          length: (b, at, end) => (end - at >= 6 ? 6 + 10 * (b[at + 5]! + 1) : null),
          decode: (d) => {
            const m = d[5]!;
            const block = (label: string, from: number) =>
              Array.from({ length: m + 1 }, (_, i) =>
                numberAt(i === 0 ? `${label} total` : `${label} tariff ${i}`, A14, d, from + 5 * i),
              );
            return {
              type: "settlement",
              readAt: a15At("read at", d, 0),
              tariffCount: m,
              settled: block("settled active energy", 6),
              unsettled: block("unsettled active energy", 6 + 5 * (m + 1)),
            };
          },
        };
      return undefined;
    case 0x0d:
      if (way === "down") return frozenRequest(fn);
      if (fn === 1) return fourQuadrants(3);
      if (fn === 17) return fourQuadrants(2);
      if (fn === 161) return tariffReadings(A14, "forward active energy", 3);
      if (fn === 177) return tariffReadings(A14, "forward active energy", 2);
      return undefined;
    case 0x0e:
      if (fn !== 1 && fn !== 2) return undefined;
      if (way === "down")
        return { length: fixed(2), decode: (d) => ({ type: "event-request", from: d[0]!, to: d[1]! }) };
      return { length: eventsLength, decode: decodeEvents };
    case 0x10:
      if (fn === 1)
        return way === "down"
          ? { length: forwardRequestLength, decode: decodeForwardRequest }
          : { length: forwardReplyLength, decode: decodeForwardReply };
      if (fn === 9)
        return way === "down"
          ? { length: directReadLength, decode: decodeDirectRead }
          : { length: directReadReplyLength, decode: decodeDirectReadReply };
      if ((fn === 10 || fn === 11) && way === "up")
        return { length: fixed(9), decode: decodeDirectSwitchReply };
      return undefined;
    default:
      return undefined;
  }
}

export function classSpec(afn: number, fn: number, way: Way): ClassSpec | undefined {
  const found = spec(afn, fn, way);
  return found ? { name: className(afn, fn), ...found } : undefined;
}
