import type { Unit } from "../units.ts";

/**
 * The DL/T 698.45 objects Meterline reads and drives (appendix E object list, interface
 * classes 1–21): names, units and scalers (the value on the wire × 10^scaler). Energy and
 * demand scalers are the ones meters declare in attribute 3 ("scaler and unit"); a meter that
 * declares another scaler there wins, read it once when in doubt.
 */
export interface FieldSpec {
  name: string;
  unit?: Unit;
  scaler?: number;
}
/** How the elements of an array attribute are named: by tariff, by phase, or one spec each. */
export type Elements = "tariffs" | "phases" | "total-phases" | "prices" | readonly FieldSpec[];
export interface AttributeSpec extends FieldSpec {
  elements?: Elements;
  /** For arrays of structures (demand with its time): the fields of each structure. */
  fields?: readonly FieldSpec[];
}
export interface ObjectSpec {
  name: string;
  attributes: Readonly<Record<number, AttributeSpec>>;
  methods?: Readonly<Record<number, string>>;
}

/**
 * ESAM (F100) method of the wallet operation — account opening, recharge and refund — as we
 * read DL/T 698.45-2017 interface class 21; confirm against the meter's protocol sheet.
 */
export const WALLET_METHOD = 6;

const PHASE = ["", " phase A", " phase B", " phase C"];

function energy(name: string, unit: Unit): ObjectSpec {
  return {
    name,
    attributes: {
      2: { name, unit, scaler: -2, elements: "tariffs" },
      3: { name: `${name} scaler and unit` },
      4: { name: `${name} (high precision)`, unit, scaler: -4, elements: "tariffs" },
      5: { name: `${name} high-precision scaler and unit` },
    },
  };
}
function demand(name: string, unit: Unit): ObjectSpec {
  return {
    name,
    attributes: {
      2: {
        name,
        elements: "tariffs",
        fields: [{ name: "demand", unit, scaler: -4 }, { name: "time" }],
      },
    },
  };
}

const ENERGY_FAMILIES: [oi: number, name: string, unit: Unit, phases: boolean][] = [
  [0x0000, "combined active energy", "kWh", false],
  [0x0010, "forward active energy", "kWh", true],
  [0x0020, "reverse active energy", "kWh", true],
  [0x0030, "combined reactive energy 1", "kvarh", true],
  [0x0040, "combined reactive energy 2", "kvarh", true],
  [0x0050, "quadrant I reactive energy", "kvarh", true],
  [0x0060, "quadrant II reactive energy", "kvarh", true],
  [0x0070, "quadrant III reactive energy", "kvarh", true],
  [0x0080, "quadrant IV reactive energy", "kvarh", true],
  [0x0090, "forward apparent energy", "kVAh", true],
  [0x00a0, "reverse apparent energy", "kVAh", true],
];

const OBJECTS = new Map<number, ObjectSpec>();
for (const [oi, name, unit, phases] of ENERGY_FAMILIES) {
  for (let phase = 0; phase <= (phases ? 3 : 0); phase++)
    OBJECTS.set(oi + phase, energy(`${name}${PHASE[phase]}`, unit));
}
OBJECTS.set(0x1010, demand("forward active max demand", "kW"));
OBJECTS.set(0x1020, demand("reverse active max demand", "kW"));

const variable = (
  name: string,
  unit: Unit | undefined,
  scaler: number | undefined,
  elements?: Elements,
): ObjectSpec => ({
  name,
  attributes: {
    2: {
      name,
      ...(unit === undefined ? {} : { unit }),
      ...(scaler === undefined ? {} : { scaler }),
      ...(elements ? { elements } : {}),
    },
  },
});
const money = (name: string): FieldSpec => ({ name, unit: "yuan", scaler: -2 });

const ENTRIES: [number, ObjectSpec][] = [
  [0x2000, variable("voltage", "V", -1, "phases")],
  [
    0x2001,
    {
      name: "current",
      attributes: {
        2: { name: "current", unit: "A", scaler: -3, elements: "phases" },
        4: { name: "neutral current", unit: "A", scaler: -3 },
      },
    },
  ],
  [0x2002, variable("voltage phase angle", "°", -1, "phases")],
  [0x2003, variable("voltage-current phase angle", "°", -1, "phases")],
  [0x2004, variable("active power", "W", -1, "total-phases")],
  [0x2005, variable("reactive power", "var", -1, "total-phases")],
  [0x2006, variable("apparent power", "VA", -1, "total-phases")],
  [0x200a, variable("power factor", "", -3, "total-phases")],
  [0x200f, variable("grid frequency", "Hz", -2)],
  [0x2014, variable("meter running status words", undefined, undefined)],
  [0x2021, { name: "data freeze time", attributes: { 2: { name: "data freeze time" } } }],
  [
    0x202c,
    {
      name: "current wallet file",
      attributes: {
        2: {
          name: "current wallet file",
          elements: [money("remaining amount"), { name: "purchase count", unit: "count" }],
        },
      },
    },
  ],
  [0x202d, { name: "current overdraft amount", attributes: { 2: money("current overdraft amount") } }],
  [0x202e, { name: "accumulated purchase amount", attributes: { 2: money("accumulated purchase amount") } }],
  [0x2031, variable("monthly consumption", "kWh", -2)],
  [0x2032, variable("step settlement consumption", "kWh", -2)],
  [0x3011, { name: "power-down event", attributes: { 2: { name: "power-down event records" } } }],
  [0x3013, { name: "meter clear event", attributes: { 2: { name: "meter clear event records" } } }],
  [
    0x4000,
    { name: "date and time", attributes: { 2: { name: "clock" } }, methods: { 127: "broadcast time" } },
  ],
  [0x4001, { name: "communication address", attributes: { 2: { name: "communication address" } } }],
  [0x4002, { name: "meter number", attributes: { 2: { name: "meter number" } } }],
  [0x4003, { name: "customer number", attributes: { 2: { name: "customer number" } } }],
  [
    0x400c,
    { name: "time zone and period counts", attributes: { 2: { name: "time zone and period counts" } } },
  ],
  [
    0x4018,
    {
      name: "current tariff prices",
      attributes: { 2: { name: "current tariff prices", unit: "yuan/kWh", scaler: -4, elements: "prices" } },
    },
  ],
  [
    0x4019,
    {
      name: "standby tariff prices",
      attributes: { 2: { name: "standby tariff prices", unit: "yuan/kWh", scaler: -4, elements: "prices" } },
    },
  ],
  [0x401a, { name: "current step prices", attributes: { 2: { name: "current step prices" } } }],
  [0x401b, { name: "standby step prices", attributes: { 2: { name: "standby step prices" } } }],
  [0x401c, { name: "current transformer ratio", attributes: { 2: { name: "current transformer ratio" } } }],
  [0x401d, { name: "voltage transformer ratio", attributes: { 2: { name: "voltage transformer ratio" } } }],
  [
    0x401e,
    {
      name: "amount limits",
      attributes: {
        2: { name: "amount limits", elements: [money("alarm amount 1"), money("alarm amount 2")] },
      },
    },
  ],
  [
    0x401f,
    {
      name: "other amount limits",
      attributes: {
        2: {
          name: "other amount limits",
          elements: [money("overdraft limit"), money("hoarding limit"), money("close-allowed threshold")],
        },
      },
    },
  ],
  [
    0x8000,
    {
      name: "remote control",
      attributes: {
        2: { name: "remote control configuration" },
        4: { name: "alarm state" },
        5: { name: "relay command state" },
      },
      methods: { 127: "alarm", 128: "alarm release", 129: "trip", 130: "close" },
    },
  ],
  [
    0x8001,
    {
      name: "power hold",
      attributes: { 2: { name: "power hold state" } },
      methods: { 127: "power hold on", 128: "power hold off", 129: "release automatic power hold" },
    },
  ],
  [
    0xf100,
    {
      name: "ESAM",
      attributes: {
        2: { name: "ESAM serial number" },
        3: { name: "ESAM version" },
        4: { name: "symmetric key version" },
        7: { name: "ESAM counters" },
      },
      methods: { [WALLET_METHOD]: "wallet operation" },
    },
  ],
  [0x5004, { name: "daily freeze", attributes: { 2: { name: "daily frozen records" } } }],
  [0xf101, { name: "security mode parameters", attributes: { 2: { name: "security mode enabled" } } }],
  [0xf205, { name: "relay outputs", attributes: { 2: { name: "relay outputs" } } }],
];
for (const [oi, spec] of ENTRIES) OBJECTS.set(oi, spec);

/** Well-known OADs and OMDs the gateway uses. */
export const OAD = {
  FORWARD_ACTIVE_ENERGY: "00100200",
  FORWARD_ACTIVE_ENERGY_TOTAL: "00100201",
  REVERSE_ACTIVE_ENERGY: "00200200",
  VOLTAGE: "20000200",
  CURRENT: "20010200",
  ACTIVE_POWER: "20040200",
  POWER_FACTOR: "200A0200",
  FREQUENCY: "200F0200",
  WALLET: "202C0200",
  OVERDRAFT: "202D0200",
  /** Status words 1–7 (array of bit-string(16)), word 1 first. */
  STATUS_WORDS: "20140200",
  /** The freeze time column of a frozen record (date_time_s). */
  FREEZE_TIME: "20210200",
  /** Daily freeze (日冻结), attribute 2: the frozen records, read by GET-Record. */
  DAILY_FROZEN: "50040200",
  CLOCK: "40000200",
  ADDRESS: "40010200",
  METER_NUMBER: "40020200",
  CUSTOMER_NUMBER: "40030200",
  TARIFF_PRICES: "40180200",
  AMOUNT_LIMITS: "401E0200",
  RELAY_COMMAND_STATE: "80000500",
  POWER_HOLD_STATE: "80010200",
  RELAY_OUTPUTS: "F2050200",
  /** The relay itself, as the trip and close parameters name it. */
  RELAY_1: "F2050201",
} as const;
export const OMD = {
  ALARM: "80007F00",
  ALARM_RELEASE: "80008000",
  TRIP: "80008100",
  CLOSE: "80008200",
  POWER_HOLD_ON: "80017F00",
  POWER_HOLD_OFF: "80018000",
  BROADCAST_TIME: "40007F00",
  WALLET_OPERATION: `F100${WALLET_METHOD.toString(16).padStart(2, "0").toUpperCase()}00`,
} as const;

export function objectSpec(oi: number): ObjectSpec | undefined {
  return OBJECTS.get(oi);
}

/** An OAD as its parts: OI, attribute number (bits 0–4), attribute feature (bits 5–7), index. */
export function splitOad(oad: string): { oi: number; attribute: number; feature: number; index: number } {
  const value = Number.parseInt(oad, 16);
  const attributeByte = (value >>> 8) & 0xff;
  return {
    oi: value >>> 16,
    attribute: attributeByte & 0x1f,
    feature: attributeByte >> 5,
    index: value & 0xff,
  };
}

export function attributeSpec(oad: string): AttributeSpec | undefined {
  const { oi, attribute } = splitOad(oad);
  return OBJECTS.get(oi)?.attributes[attribute];
}

/** Name of an element of an array attribute (index counts from 1; 0 means the whole array). */
export function elementName(elements: Elements | undefined, index: number): string | null {
  if (elements === undefined) return null;
  if (typeof elements !== "string") return elements[index - 1]?.name ?? null;
  if (elements === "tariffs") return index === 1 ? "total" : `tariff ${index - 1}`;
  if (elements === "prices") return `price ${index}`;
  if (elements === "phases") return ["phase A", "phase B", "phase C"][index - 1] ?? `element ${index}`;
  return ["total", "phase A", "phase B", "phase C"][index - 1] ?? `element ${index}`;
}

/** "forward active energy, total" for 00100201; null for objects outside the catalogue. */
export function oadName(oad: string): string | null {
  const { oi, attribute, index } = splitOad(oad);
  const object = OBJECTS.get(oi);
  if (!object) return null;
  const spec = object.attributes[attribute];
  const base = spec?.name ?? `${object.name}, attribute ${attribute}`;
  if (index === 0) return base;
  return `${base}, ${elementName(spec?.elements, index) ?? `element ${index}`}`;
}

/** "remote control: trip" for 80008100. */
export function omdName(omd: string): string | null {
  const value = Number.parseInt(omd, 16);
  const object = OBJECTS.get(value >>> 16);
  if (!object) return null;
  const method = (value >>> 8) & 0xff;
  return `${object.name}: ${object.methods?.[method] ?? `method ${method}`}`;
}

/** DAR codes (data access result, appendix F.1). */
const DAR_NAMES: Record<number, string> = {
  0: "success",
  1: "hardware failure",
  2: "temporarily unavailable",
  3: "read/write denied",
  4: "object undefined",
  5: "interface class mismatch",
  6: "object unavailable",
  7: "type mismatch",
  8: "out of range",
  9: "data block unavailable",
  10: "split transfer cancelled",
  11: "not in split transfer",
  12: "block write cancelled",
  13: "not in block write",
  14: "invalid data block number",
  15: "password error / unauthorised",
  16: "communication rate cannot change",
  17: "year time zones exceeded",
  18: "day periods exceeded",
  19: "tariffs exceeded",
  20: "security authentication mismatch",
  21: "duplicate recharge",
  22: "ESAM verification failed",
  23: "security authentication failed",
  24: "customer number mismatch",
  25: "recharge count error",
  26: "purchase exceeds hoarding limit",
  27: "address error",
  28: "symmetric decryption error",
  29: "asymmetric decryption error",
  30: "signature error",
  31: "meter suspended",
  32: "time tag invalid",
  33: "request timed out",
  34: "ESAM P1P2 incorrect",
  35: "ESAM LC error",
  255: "other",
};
export function darName(dar: number): string {
  return DAR_NAMES[dar] ?? `DAR ${dar}`;
}
