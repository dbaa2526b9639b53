/** DL/T 698.45 Data as typed values (appendix tables): the type tags and what each type holds. */
export const Tag = {
  NULL: 0,
  ARRAY: 1,
  STRUCTURE: 2,
  BOOL: 3,
  BIT_STRING: 4,
  DOUBLE_LONG: 5,
  DOUBLE_LONG_UNSIGNED: 6,
  OCTET_STRING: 9,
  VISIBLE_STRING: 10,
  UTF8_STRING: 12,
  INTEGER: 15,
  LONG: 16,
  UNSIGNED: 17,
  LONG_UNSIGNED: 18,
  LONG64: 20,
  LONG64_UNSIGNED: 21,
  ENUM: 22,
  FLOAT32: 23,
  FLOAT64: 24,
  DATE_TIME: 25,
  DATE: 26,
  TIME: 27,
  DATE_TIME_S: 28,
  OI: 80,
  OAD: 81,
  ROAD: 82,
  OMD: 83,
  TI: 84,
  TSA: 85,
  MAC: 86,
  RN: 87,
  REGION: 88,
  SCALER_UNIT: 89,
  RSD: 90,
  CSD: 91,
  MS: 92,
  SID: 93,
  SID_MAC: 94,
  COMDCB: 95,
  RCSD: 96,
} as const;

/** date_time: 10 bytes; 0xFF (0xFFFF for year and milliseconds) marks "no value" in a field. */
export interface DateTime {
  year: number;
  month: number;
  day: number;
  /** 0 = Sunday … 6 = Saturday. */
  weekday: number;
  hour: number;
  minute: number;
  second: number;
  milliseconds: number;
}
/** date_time_s: 7 bytes, no weekday or milliseconds. */
export type DateTimeS = Omit<DateTime, "weekday" | "milliseconds">;
export type DateOnly = Pick<DateTime, "year" | "month" | "day" | "weekday">;
export type TimeOnly = Pick<DateTime, "hour" | "minute" | "second">;

/** TI: an interval, unit 0 s, 1 min, 2 h, 3 day, 4 month, 5 year. */
export interface Ti {
  unit: number;
  interval: number;
}
export interface Road {
  oad: string;
  oads: string[];
}
/** CSD: a column of a record: an OAD, or a ROAD (a record object and the columns wanted). */
export type Csd = { oad: string } | { road: Road };
export interface Region {
  /** 0 [start, end), 1 (start, end], 2 [start, end], 3 (start, end). */
  kind: number;
  start: Data;
  end: Data;
}
/** MS: which meters (of a concentrator's file) a record selection covers. */
export type Ms =
  | { kind: "none" }
  | { kind: "all" }
  | { kind: "user-types"; items: number[] }
  | { kind: "addresses"; items: string[] }
  | { kind: "serials"; items: number[] }
  | { kind: "user-type-regions"; items: Region[] }
  | { kind: "address-regions"; items: Region[] }
  | { kind: "serial-regions"; items: Region[] };
/** RSD: the row selector of GET-Record (selector number 0..10 and its parameters). */
export type Rsd =
  | { selector: 0 }
  | { selector: 1; oad: string; value: Data }
  | { selector: 2; oad: string; from: Data; to: Data; step: Data }
  | { selector: 3; items: { oad: string; from: Data; to: Data; step: Data }[] }
  | { selector: 4 | 5; time: DateTimeS; ms: Ms }
  | { selector: 6 | 7 | 8; from: DateTimeS; to: DateTimeS; interval: Ti; ms: Ms }
  | { selector: 9; last: number }
  | { selector: 10; last: number; ms: Ms };
export interface Sid {
  /** Identifier, double-long-unsigned. */
  id: number;
  /** Additional data (octet-string), hex. */
  extra: string;
}
export interface SidMac {
  sid: Sid;
  mac: string;
}
export interface Comdcb {
  baud: number;
  parity: number;
  dataBits: number;
  stopBits: number;
  flowControl: number;
}

export type Data =
  | { type: "null" }
  | { type: "array"; items: Data[] }
  | { type: "structure"; items: Data[] }
  | { type: "bool"; value: boolean }
  /** Bits as "0"/"1" text, first bit on the wire first (bit 0 of a 698 bit-string is leftmost). */
  | { type: "bit-string"; bits: string }
  | {
      type: "double-long" | "double-long-unsigned" | "integer" | "long" | "unsigned" | "long-unsigned";
      value: number;
    }
  | { type: "enum"; value: number }
  | { type: "long64" | "long64-unsigned"; value: bigint }
  | { type: "float32" | "float64"; value: number }
  | { type: "octet-string" | "mac" | "rn" | "tsa"; hex: string }
  | { type: "visible-string" | "utf8-string"; value: string }
  | { type: "date-time"; value: DateTime }
  | { type: "date"; value: DateOnly }
  | { type: "time"; value: TimeOnly }
  | { type: "date-time-s"; value: DateTimeS }
  /** OI as 4 hex digits, OAD and OMD as 8 ("00100200", "80008100"). */
  | { type: "oi"; value: string }
  | { type: "oad" | "omd"; value: string }
  | { type: "road"; value: Road }
  | { type: "ti"; value: Ti }
  | { type: "region"; value: Region }
  | { type: "scaler-unit"; scaler: number; unit: number }
  | { type: "rsd"; value: Rsd }
  | { type: "csd"; value: Csd }
  | { type: "ms"; value: Ms }
  | { type: "sid"; value: Sid }
  | { type: "sid-mac"; value: SidMac }
  | { type: "comdcb"; value: Comdcb }
  | { type: "rcsd"; value: Csd[] };

export type DataType = Data["type"];
