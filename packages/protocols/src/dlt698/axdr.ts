import { fail } from "../errors.ts";
import { checkInt, Reader, Writer } from "./axdr-io.ts";
import {
  readCsd,
  readDateTime,
  readDateTimeS,
  readMs,
  readOad,
  readOctets,
  readRcsd,
  readRegion,
  readRoad,
  readRsd,
  readSid,
  readTi,
  writeCsd,
  writeDateTime,
  writeDateTimeS,
  writeMs,
  writeOad,
  writeOctets,
  writeRcsd,
  writeRegion,
  writeRoad,
  writeRsd,
  writeSid,
  writeTi,
} from "./axdr-parts.ts";
import { type Data, Tag } from "./axdr-types.ts";

/**
 * A-XDR encoding of DL/T 698.45 Data (§6.3.3 and appendix tables): a one-byte type tag, then
 * the value, big endian. Variable lengths (array and structure counts, strings) use the A-XDR
 * length: one byte below 0x80, else 0x8n and n bytes. Reading is bounded: every read checks
 * the remaining bytes and nesting stops at MAX_DEPTH, so hostile input ends in a ProtocolError.
 */
export const MAX_DEPTH = 24;

export * from "./axdr-io.ts";
export * from "./axdr-parts.ts";
export * from "./axdr-types.ts";

const INTS = {
  "double-long": [Tag.DOUBLE_LONG, 4, true],
  "double-long-unsigned": [Tag.DOUBLE_LONG_UNSIGNED, 4, false],
  integer: [Tag.INTEGER, 1, true],
  long: [Tag.LONG, 2, true],
  unsigned: [Tag.UNSIGNED, 1, false],
  "long-unsigned": [Tag.LONG_UNSIGNED, 2, false],
  enum: [Tag.ENUM, 1, false],
} as const;
const INT_BY_TAG = new Map<number, keyof typeof INTS>(
  Object.entries(INTS).map(([name, [tag]]) => [tag, name as keyof typeof INTS]),
);
const OCTETS = { "octet-string": Tag.OCTET_STRING, mac: Tag.MAC, rn: Tag.RN, tsa: Tag.TSA } as const;

// ---- Data ----

const DECODER = new TextDecoder("utf-8", { fatal: false });
const ENCODER = new TextEncoder();

export function readData(r: Reader, depth = 0): Data {
  if (depth > MAX_DEPTH) fail("bad-apdu", `Data nested deeper than ${MAX_DEPTH}`, r.pos);
  const at = r.pos;
  const tag = r.u8("a Data type tag");
  const intName = INT_BY_TAG.get(tag);
  if (intName) {
    const [, bytes, signed] = INTS[intName];
    let value = bytes === 1 ? r.u8(intName) : bytes === 2 ? r.u16(intName) : r.u32(intName);
    if (signed && value >= 2 ** (bytes * 8 - 1)) value -= 2 ** (bytes * 8);
    return intName === "enum" ? { type: "enum", value } : { type: intName, value };
  }
  switch (tag) {
    case Tag.NULL:
      return { type: "null" };
    case Tag.ARRAY:
    case Tag.STRUCTURE: {
      const n = r.count(tag === Tag.ARRAY ? "an array" : "a structure");
      const items: Data[] = [];
      for (let i = 0; i < n; i++) items.push(readData(r, depth + 1));
      return { type: tag === Tag.ARRAY ? "array" : "structure", items };
    }
    case Tag.BOOL:
      return { type: "bool", value: r.u8("bool") !== 0 };
    case Tag.BIT_STRING: {
      const bits = r.length("a bit-string");
      const bytes = r.take(Math.ceil(bits / 8), "a bit-string");
      let text = "";
      for (let i = 0; i < bits; i++) text += (bytes[i >> 3]! >> (7 - (i & 7))) & 1 ? "1" : "0";
      return { type: "bit-string", bits: text };
    }
    case Tag.OCTET_STRING:
    case Tag.MAC:
    case Tag.RN:
    case Tag.TSA: {
      const type =
        tag === Tag.OCTET_STRING ? "octet-string" : tag === Tag.MAC ? "mac" : tag === Tag.RN ? "rn" : "tsa";
      return { type, hex: readOctets(r, type) };
    }
    case Tag.VISIBLE_STRING:
    case Tag.UTF8_STRING: {
      const bytes = r.take(r.length("a string"), "a string");
      const value =
        tag === Tag.UTF8_STRING ? DECODER.decode(bytes) : String.fromCharCode(...Array.from(bytes));
      return { type: tag === Tag.UTF8_STRING ? "utf8-string" : "visible-string", value };
    }
    case Tag.LONG64:
    case Tag.LONG64_UNSIGNED: {
      const bytes = r.take(8, "a long64");
      let value = 0n;
      for (const byte of bytes) value = (value << 8n) | BigInt(byte);
      if (tag === Tag.LONG64 && value >= 1n << 63n) value -= 1n << 64n;
      return { type: tag === Tag.LONG64 ? "long64" : "long64-unsigned", value };
    }
    case Tag.FLOAT32:
    case Tag.FLOAT64: {
      const size = tag === Tag.FLOAT32 ? 4 : 8;
      const view = new DataView(r.take(size, "a float").slice().buffer);
      return {
        type: size === 4 ? "float32" : "float64",
        value: size === 4 ? view.getFloat32(0) : view.getFloat64(0),
      };
    }
    case Tag.DATE_TIME:
      return { type: "date-time", value: readDateTime(r) };
    case Tag.DATE:
      return {
        type: "date",
        value: { year: r.u16("date"), month: r.u8("date"), day: r.u8("date"), weekday: r.u8("date") },
      };
    case Tag.TIME:
      return { type: "time", value: { hour: r.u8("time"), minute: r.u8("time"), second: r.u8("time") } };
    case Tag.DATE_TIME_S:
      return { type: "date-time-s", value: readDateTimeS(r) };
    case Tag.OI:
      return { type: "oi", value: r.hex(2, "an OI").toUpperCase() };
    case Tag.OAD:
    case Tag.OMD:
      return { type: tag === Tag.OAD ? "oad" : "omd", value: readOad(r) };
    case Tag.ROAD:
      return { type: "road", value: readRoad(r) };
    case Tag.TI:
      return { type: "ti", value: readTi(r) };
    case Tag.REGION:
      return { type: "region", value: readRegion(r, depth) };
    case Tag.SCALER_UNIT: {
      const scaler = r.u8("a Scaler_Unit");
      return {
        type: "scaler-unit",
        scaler: scaler >= 128 ? scaler - 256 : scaler,
        unit: r.u8("a Scaler_Unit"),
      };
    }
    case Tag.RSD:
      return { type: "rsd", value: readRsd(r, depth) };
    case Tag.CSD:
      return { type: "csd", value: readCsd(r) };
    case Tag.MS:
      return { type: "ms", value: readMs(r, depth) };
    case Tag.SID:
      return { type: "sid", value: readSid(r) };
    case Tag.SID_MAC:
      return { type: "sid-mac", value: { sid: readSid(r), mac: readOctets(r, "a MAC") } };
    case Tag.COMDCB:
      return {
        type: "comdcb",
        value: {
          baud: r.u8("COMDCB"),
          parity: r.u8("COMDCB"),
          dataBits: r.u8("COMDCB"),
          stopBits: r.u8("COMDCB"),
          flowControl: r.u8("COMDCB"),
        },
      };
    case Tag.RCSD:
      return { type: "rcsd", value: readRcsd(r) };
    default:
      fail("bad-apdu", `unknown Data type tag ${tag}`, at);
  }
}

export function writeData(w: Writer, data: Data, depth = 0): void {
  if (depth > MAX_DEPTH) fail("bad-argument", `Data nested deeper than ${MAX_DEPTH}`);
  switch (data.type) {
    case "null":
      w.u8(Tag.NULL);
      return;
    case "array":
    case "structure":
      w.u8(data.type === "array" ? Tag.ARRAY : Tag.STRUCTURE).axdrLength(data.items.length);
      for (const item of data.items) writeData(w, item, depth + 1);
      return;
    case "bool":
      w.u8(Tag.BOOL).u8(data.value ? 1 : 0);
      return;
    case "bit-string": {
      if (!/^[01]*$/.test(data.bits)) fail("bad-argument", "a bit-string is written as 0 and 1");
      const bytes = new Uint8Array(Math.ceil(data.bits.length / 8));
      for (let i = 0; i < data.bits.length; i++) if (data.bits[i] === "1") bytes[i >> 3]! |= 0x80 >> (i & 7);
      w.u8(Tag.BIT_STRING).axdrLength(data.bits.length).bytes(bytes);
      return;
    }
    case "double-long":
    case "double-long-unsigned":
    case "integer":
    case "long":
    case "unsigned":
    case "long-unsigned":
    case "enum": {
      const [tag, bytes, signed] = INTS[data.type];
      checkInt(data.value, bytes, signed, data.type);
      const value = data.value < 0 ? data.value + 2 ** (bytes * 8) : data.value;
      w.u8(tag);
      if (bytes === 1) w.u8(value);
      else if (bytes === 2) w.u16(value);
      else w.u32(value);
      return;
    }
    case "long64":
    case "long64-unsigned": {
      const signed = data.type === "long64";
      const min = signed ? -(1n << 63n) : 0n;
      const max = signed ? (1n << 63n) - 1n : (1n << 64n) - 1n;
      if (typeof data.value !== "bigint" || data.value < min || data.value > max)
        fail("bad-argument", `${data.type} ${data.value} is out of range`);
      let value = data.value < 0n ? data.value + (1n << 64n) : data.value;
      const bytes = new Uint8Array(8);
      for (let i = 7; i >= 0; i--) {
        bytes[i] = Number(value & 0xffn);
        value >>= 8n;
      }
      w.u8(signed ? Tag.LONG64 : Tag.LONG64_UNSIGNED).bytes(bytes);
      return;
    }
    case "float32":
    case "float64": {
      const size = data.type === "float32" ? 4 : 8;
      const view = new DataView(new ArrayBuffer(size));
      if (size === 4) view.setFloat32(0, data.value);
      else view.setFloat64(0, data.value);
      w.u8(size === 4 ? Tag.FLOAT32 : Tag.FLOAT64).bytes(new Uint8Array(view.buffer));
      return;
    }
    case "octet-string":
    case "mac":
    case "rn":
    case "tsa":
      writeOctets(w.u8(OCTETS[data.type]), data.hex, data.type);
      return;
    case "visible-string": {
      const codes = Array.from(data.value, (c) => c.charCodeAt(0));
      if (codes.some((c) => c > 0xff)) fail("bad-argument", "a visible-string holds single bytes only");
      w.u8(Tag.VISIBLE_STRING).axdrLength(codes.length).bytes(Uint8Array.from(codes));
      return;
    }
    case "utf8-string": {
      const bytes = ENCODER.encode(data.value);
      w.u8(Tag.UTF8_STRING).axdrLength(bytes.length).bytes(bytes);
      return;
    }
    case "date-time":
      writeDateTime(w.u8(Tag.DATE_TIME), data.value);
      return;
    case "date": {
      const v = data.value;
      checkInt(v.year, 2, false, "date year");
      for (const x of [v.month, v.day, v.weekday]) checkInt(x, 1, false, "date field");
      w.u8(Tag.DATE).u16(v.year).u8(v.month).u8(v.day).u8(v.weekday);
      return;
    }
    case "time": {
      const v = data.value;
      for (const x of [v.hour, v.minute, v.second]) checkInt(x, 1, false, "time field");
      w.u8(Tag.TIME).u8(v.hour).u8(v.minute).u8(v.second);
      return;
    }
    case "date-time-s":
      writeDateTimeS(w.u8(Tag.DATE_TIME_S), data.value);
      return;
    case "oi":
      if (!/^[0-9A-Fa-f]{4}$/.test(data.value))
        fail("bad-argument", `OI "${data.value}" must be 4 hex digits`);
      w.u8(Tag.OI).hex(data.value, "OI");
      return;
    case "oad":
    case "omd":
      writeOad(w.u8(data.type === "oad" ? Tag.OAD : Tag.OMD), data.value, data.type.toUpperCase());
      return;
    case "road":
      writeRoad(w.u8(Tag.ROAD), data.value);
      return;
    case "ti":
      writeTi(w.u8(Tag.TI), data.value);
      return;
    case "region":
      writeRegion(w.u8(Tag.REGION), data.value, depth);
      return;
    case "scaler-unit":
      checkInt(data.scaler, 1, true, "scaler");
      checkInt(data.unit, 1, false, "unit");
      w.u8(Tag.SCALER_UNIT).u8(data.scaler).u8(data.unit);
      return;
    case "rsd":
      writeRsd(w.u8(Tag.RSD), data.value, depth);
      return;
    case "csd":
      writeCsd(w.u8(Tag.CSD), data.value);
      return;
    case "ms":
      writeMs(w.u8(Tag.MS), data.value, depth);
      return;
    case "sid":
      writeSid(w.u8(Tag.SID), data.value);
      return;
    case "sid-mac":
      writeSid(w.u8(Tag.SID_MAC), data.value.sid);
      writeOctets(w, data.value.mac, "MAC");
      return;
    case "comdcb": {
      const v = data.value;
      for (const x of [v.baud, v.parity, v.dataBits, v.stopBits, v.flowControl])
        checkInt(x, 1, false, "COMDCB field");
      w.u8(Tag.COMDCB).u8(v.baud).u8(v.parity).u8(v.dataBits).u8(v.stopBits).u8(v.flowControl);
      return;
    }
    case "rcsd":
      writeRcsd(w.u8(Tag.RCSD), data.value);
      return;
    default:
      fail("bad-argument", `unknown Data type "${(data as { type: string }).type}"`);
  }
}

export function encodeData(data: Data): Uint8Array {
  const w = new Writer();
  writeData(w, data);
  return w.done();
}

export function decodeData(bytes: Uint8Array): Data {
  const r = new Reader(bytes);
  const data = readData(r);
  if (r.remaining !== 0) fail("bad-apdu", `${r.remaining} bytes after the Data`, r.pos);
  return data;
}
