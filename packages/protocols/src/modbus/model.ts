import { fail } from "../errors.ts";
import type { Unit } from "../units.ts";
import {
  DATA_TYPES,
  type DataType,
  type Order,
  type RegisterFormat,
  registerCount,
  scaleExponent,
} from "./registers.ts";

/**
 * A Modbus meter model as data (design.md: "adding a model adds no code"): its registers with
 * type, scale, unit and word order, its relay, its prepaid registers and its quirks, and the
 * manual it comes from. `parseModel` is the schema: it checks a JSON value field by field and
 * names the first field that is wrong, so a bad catalogue file fails its test, not a meter.
 */
export const MODEL_UNITS = [
  "kWh",
  "kvarh",
  "V",
  "A",
  "kW",
  "kvar",
  "kVA",
  "W",
  "var",
  "VA",
  "Hz",
  "°",
  "yuan",
  "yuan/kWh",
  "count",
  "",
] as const satisfies readonly Unit[];
export type ModelUnit = (typeof MODEL_UNITS)[number];

export const QUIRK_KINDS = [
  /** Holding registers accept writes only by function 0x10, even a single register. */
  "write-multiple-only",
  /** Replies hold at most `value` registers per read. */
  "max-registers-per-read",
  /** Parameters (address, baud rate...) are float32 too. */
  "float-parameters",
  /** A password register must be written before a relay or money write. */
  "password-before-write",
  /** Anything else worth knowing (see its note). */
  "other",
] as const;
export type QuirkKind = (typeof QUIRK_KINDS)[number];

export interface ModelRegister extends RegisterFormat {
  name: string;
  address: number;
  /** 3 or 4 for a read; 6 or 16 for a write-only register such as a recharge. */
  function: 3 | 4 | 6 | 16;
  notes?: string;
}

export interface RelayPoint {
  kind: "coil" | "register";
  address: number;
  function: number;
  /** Coils: 1 = ON (FF 00 on the wire), 0 = OFF. Registers: the register value. */
  on: number;
  off: number;
}

export interface MeterModel {
  model: string;
  manufacturer: string;
  description: string;
  source: { title: string; version: string; url?: string };
  /** "checked": addresses checked against the manual or a public driver; "unverified": confirm on a real meter first. */
  confidence: "checked" | "unverified";
  serial: { baud: number; parity: "none" | "even" | "odd"; defaultSlave: number };
  registers: ModelRegister[];
  relay: { write: RelayPoint; readBack: RelayPoint; notes?: string } | null;
  prepaid: { remainingAmount?: string; purchaseCount?: string; recharge?: string; notes?: string } | null;
  quirks: { kind: QuirkKind; value?: number; note: string }[];
  notes?: string;
}

type Json = Record<string, unknown>;

class Checker {
  constructor(private readonly where: string) {}
  at(path: string): Checker {
    return new Checker(`${this.where}.${path}`);
  }
  bad(message: string): never {
    fail("bad-argument", `${this.where}: ${message}`);
  }
  object(value: unknown): Json {
    if (typeof value !== "object" || value === null || Array.isArray(value)) this.bad("must be an object");
    return value as Json;
  }
  string(value: unknown, allowEmpty = false): string {
    if (typeof value !== "string" || (!allowEmpty && value.trim() === ""))
      this.bad("must be a non-empty string");
    return value;
  }
  optionalString(value: unknown): string | undefined {
    return value === undefined ? undefined : this.string(value);
  }
  integer(value: unknown, min: number, max: number): number {
    if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max)
      this.bad(`must be an integer in ${min}..${max}`);
    return value;
  }
  oneOf<T>(value: unknown, allowed: readonly T[]): T {
    if (!allowed.includes(value as T))
      this.bad(`must be one of ${allowed.map((a) => JSON.stringify(a)).join(", ")}`);
    return value as T;
  }
  /** Addresses are written as in manuals: "0x2000" (protocol address, 0-based). */
  address(value: unknown): number {
    if (typeof value !== "string" || !/^0x[0-9A-F]{4}$/.test(value))
      this.bad('must be a hex address such as "0x2000"');
    return Number.parseInt(value.slice(2), 16);
  }
  onlyKeys(object: Json, keys: readonly string[]): void {
    for (const key of Object.keys(object)) if (!keys.includes(key)) this.at(key).bad("is not a known field");
  }
}

const REGISTER_KEYS = [
  "name",
  "address",
  "function",
  "type",
  "scale",
  "unit",
  "byteOrder",
  "wordOrder",
  "notes",
];

function parseRegister(
  value: unknown,
  check: Checker,
  defaults: { byteOrder: Order; wordOrder: Order },
): ModelRegister {
  const json = check.object(value);
  check.onlyKeys(json, REGISTER_KEYS);
  const scale = check.at("scale").string(json.scale);
  try {
    scaleExponent(scale);
  } catch {
    check.at("scale").bad('must be a power of ten such as "0.01", "1" or "10"');
  }
  const register: ModelRegister = {
    name: check.at("name").string(json.name),
    address: check.at("address").address(json.address),
    function: check.at("function").oneOf(json.function, [3, 4, 6, 16] as const),
    type: check.at("type").oneOf<DataType>(json.type, DATA_TYPES),
    scale,
    unit: check.at("unit").oneOf<ModelUnit>(json.unit, MODEL_UNITS),
    byteOrder:
      json.byteOrder === undefined ? defaults.byteOrder : check.at("byteOrder").oneOf(json.byteOrder, ORDERS),
    wordOrder:
      json.wordOrder === undefined ? defaults.wordOrder : check.at("wordOrder").oneOf(json.wordOrder, ORDERS),
  };
  const notes = check.at("notes").optionalString(json.notes);
  if (notes !== undefined) register.notes = notes;
  if (register.address + registerCount(register.type) > 0x10000) check.at("address").bad("runs past 0xFFFF");
  return register;
}

const ORDERS: readonly Order[] = ["big", "little"];

function parseRelayPoint(value: unknown, check: Checker, write: boolean): RelayPoint {
  const json = check.object(value);
  check.onlyKeys(json, ["kind", "address", "function", "on", "off"]);
  const kind = check.at("kind").oneOf(json.kind, ["coil", "register"] as const);
  const functions = write ? (kind === "coil" ? [5, 15] : [6, 16]) : kind === "coil" ? [1, 2] : [3, 4];
  const point: RelayPoint = {
    kind,
    address: check.at("address").address(json.address),
    function: check.at("function").oneOf(json.function, functions),
    on: check.at("on").integer(json.on, 0, kind === "coil" ? 1 : 0xffff),
    off: check.at("off").integer(json.off, 0, kind === "coil" ? 1 : 0xffff),
  };
  if (point.on === point.off) check.at("off").bad("must differ from on");
  return point;
}

/** Check one catalogue file's JSON and return the model with every default filled in. */
export function parseModel(value: unknown, file = "model"): MeterModel {
  const check = new Checker(file);
  const json = check.object(value);
  check.onlyKeys(json, [
    "$schema",
    "model",
    "manufacturer",
    "description",
    "source",
    "confidence",
    "serial",
    "byteOrder",
    "wordOrder",
    "registers",
    "relay",
    "prepaid",
    "quirks",
    "notes",
  ]);
  const source = check.at("source").object(json.source);
  check.at("source").onlyKeys(source, ["title", "version", "url"]);
  const serial = check.at("serial").object(json.serial);
  check.at("serial").onlyKeys(serial, ["baud", "parity", "defaultSlave"]);
  const defaults = {
    byteOrder: check.at("byteOrder").oneOf(json.byteOrder, ORDERS),
    wordOrder: check.at("wordOrder").oneOf(json.wordOrder, ORDERS),
  };
  const registersJson: unknown[] =
    Array.isArray(json.registers) && json.registers.length > 0
      ? json.registers
      : check.at("registers").bad("must be a non-empty array");
  const registers = registersJson.map((entry, i) =>
    parseRegister(entry, check.at(`registers[${i}]`), defaults),
  );
  checkRegisterSet(registers, check);
  const quirksJson: unknown[] =
    json.quirks === undefined
      ? []
      : Array.isArray(json.quirks)
        ? json.quirks
        : check.at("quirks").bad("must be an array");
  const quirks = quirksJson.map((entry, i) => {
    const at = check.at(`quirks[${i}]`);
    const quirk = at.object(entry);
    at.onlyKeys(quirk, ["kind", "value", "note"]);
    const kind = at.at("kind").oneOf<QuirkKind>(quirk.kind, QUIRK_KINDS);
    const parsed: MeterModel["quirks"][number] = { kind, note: at.at("note").string(quirk.note) };
    if (kind === "max-registers-per-read") parsed.value = at.at("value").integer(quirk.value, 1, 125);
    return parsed;
  });
  const model: MeterModel = {
    model: check.at("model").string(json.model),
    manufacturer: check.at("manufacturer").string(json.manufacturer),
    description: check.at("description").string(json.description),
    source: {
      title: check.at("source.title").string(source.title),
      version: check.at("source.version").string(source.version),
    },
    confidence: check.at("confidence").oneOf(json.confidence, ["checked", "unverified"] as const),
    serial: {
      baud: check.at("serial.baud").oneOf(serial.baud, [1200, 2400, 4800, 9600, 19200, 38400, 57600, 115200]),
      parity: check.at("serial.parity").oneOf(serial.parity, ["none", "even", "odd"] as const),
      defaultSlave: check.at("serial.defaultSlave").integer(serial.defaultSlave, 1, 247),
    },
    registers,
    relay:
      json.relay === null || json.relay === undefined
        ? null
        : parseRelay(json.relay, check.at("relay"), quirks),
    prepaid:
      json.prepaid === null || json.prepaid === undefined
        ? null
        : parsePrepaid(json.prepaid, check.at("prepaid"), registers),
    quirks,
  };
  const url = check.at("source.url").optionalString(source.url);
  if (url !== undefined) model.source.url = url;
  const notes = check.at("notes").optionalString(json.notes);
  if (notes !== undefined) model.notes = notes;
  return model;
}

function checkRegisterSet(registers: ModelRegister[], check: Checker): void {
  const names = new Set<string>();
  const used = new Map<string, string>();
  for (const register of registers) {
    if (names.has(register.name)) check.at("registers").bad(`the name "${register.name}" appears twice`);
    names.add(register.name);
    // Input (4) and holding (3, 6, 16) registers are separate address spaces.
    const space = register.function === 4 ? "input" : "holding";
    for (let i = 0; i < registerCount(register.type); i++) {
      const key = `${space}:${register.address + i}`;
      const other = used.get(key);
      if (other)
        check
          .at("registers")
          .bad(`"${register.name}" overlaps "${other}" at ${space} register ${register.address + i}`);
      used.set(key, register.name);
    }
  }
}

function parseRelay(
  value: unknown,
  check: Checker,
  quirks: MeterModel["quirks"],
): NonNullable<MeterModel["relay"]> {
  const json = check.object(value);
  check.onlyKeys(json, ["write", "readBack", "notes"]);
  const write = parseRelayPoint(json.write, check.at("write"), true);
  if (
    write.kind === "register" &&
    write.function === 6 &&
    quirks.some((q) => q.kind === "write-multiple-only")
  )
    check.at("write.function").bad("must be 16: the model accepts writes only by function 0x10");
  const relay: NonNullable<MeterModel["relay"]> = {
    write,
    readBack: parseRelayPoint(json.readBack, check.at("readBack"), false),
  };
  const notes = check.at("notes").optionalString(json.notes);
  if (notes !== undefined) relay.notes = notes;
  return relay;
}

function parsePrepaid(
  value: unknown,
  check: Checker,
  registers: ModelRegister[],
): NonNullable<MeterModel["prepaid"]> {
  const json = check.object(value);
  check.onlyKeys(json, ["remainingAmount", "purchaseCount", "recharge", "notes"]);
  const prepaid: NonNullable<MeterModel["prepaid"]> = {};
  for (const key of ["remainingAmount", "purchaseCount", "recharge"] as const) {
    const name = check.at(key).optionalString(json[key]);
    if (name === undefined) continue;
    const register =
      registers.find((r) => r.name === name) ?? check.at(key).bad(`names no register ("${name}")`);
    const writes = register.function === 6 || register.function === 16;
    if (key === "recharge" ? !writes : writes)
      check
        .at(key)
        .bad(
          key === "recharge"
            ? "must name a written register (function 6 or 16)"
            : "must name a read register",
        );
    prepaid[key] = name;
  }
  const notes = check.at("notes").optionalString(json.notes);
  if (notes !== undefined) prepaid.notes = notes;
  return prepaid;
}
