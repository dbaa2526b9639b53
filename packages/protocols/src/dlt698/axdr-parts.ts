import { fail } from "../errors.ts";
import { readData, writeData } from "./axdr.ts";
import { checkInt, hexBytes, type Reader, type Writer } from "./axdr-io.ts";
import type { Csd, Data, DateTime, DateTimeS, Ms, Region, Road, Rsd, Sid, Ti } from "./axdr-types.ts";

/**
 * The fixed-layout parts shared by Data and the APDUs: OAD, date-times, TI, ROAD, CSD, RCSD,
 * Region, MS (meter sets), RSD (row selectors), SID and octet strings.
 */

export function readOad(r: Reader, what = "an OAD"): string {
  return r.hex(4, what).toUpperCase();
}
export function writeOad(w: Writer, oad: string, what = "OAD"): void {
  if (!/^[0-9A-Fa-f]{8}$/.test(oad)) fail("bad-argument", `${what} "${oad}" must be 8 hex digits`);
  w.hex(oad, what);
}
export function readDateTimeS(r: Reader): DateTimeS {
  return {
    year: r.u16("date_time_s"),
    month: r.u8("date_time_s"),
    day: r.u8("date_time_s"),
    hour: r.u8("date_time_s"),
    minute: r.u8("date_time_s"),
    second: r.u8("date_time_s"),
  };
}
export function writeDateTimeS(w: Writer, v: DateTimeS): void {
  for (const [name, value, max] of [
    ["year", v.year, 0xffff],
    ["month", v.month, 0xff],
    ["day", v.day, 0xff],
    ["hour", v.hour, 0xff],
    ["minute", v.minute, 0xff],
    ["second", v.second, 0xff],
  ] as const)
    checkInt(value, max === 0xffff ? 2 : 1, false, `date_time_s ${name}`);
  w.u16(v.year).u8(v.month).u8(v.day).u8(v.hour).u8(v.minute).u8(v.second);
}
export function readDateTime(r: Reader): DateTime {
  const year = r.u16("date_time");
  const month = r.u8("date_time");
  const day = r.u8("date_time");
  const weekday = r.u8("date_time");
  const hour = r.u8("date_time");
  const minute = r.u8("date_time");
  const second = r.u8("date_time");
  return { year, month, day, weekday, hour, minute, second, milliseconds: r.u16("date_time") };
}
export function writeDateTime(w: Writer, v: DateTime): void {
  checkInt(v.year, 2, false, "date_time year");
  checkInt(v.milliseconds, 2, false, "date_time milliseconds");
  for (const value of [v.month, v.day, v.weekday, v.hour, v.minute, v.second])
    checkInt(value, 1, false, "date_time field");
  w.u16(v.year).u8(v.month).u8(v.day).u8(v.weekday).u8(v.hour).u8(v.minute).u8(v.second);
  w.u16(v.milliseconds);
}
export function readTi(r: Reader): Ti {
  return { unit: r.u8("TI"), interval: r.u16("TI") };
}
export function writeTi(w: Writer, ti: Ti): void {
  checkInt(ti.unit, 1, false, "TI unit");
  checkInt(ti.interval, 2, false, "TI interval");
  w.u8(ti.unit).u16(ti.interval);
}
export function readRoad(r: Reader): Road {
  const oad = readOad(r, "a ROAD");
  const n = r.count("a ROAD", 4);
  const oads: string[] = [];
  for (let i = 0; i < n; i++) oads.push(readOad(r, "a ROAD"));
  return { oad, oads };
}
export function writeRoad(w: Writer, road: Road): void {
  writeOad(w, road.oad);
  w.axdrLength(road.oads.length);
  for (const oad of road.oads) writeOad(w, oad);
}
export function readCsd(r: Reader): Csd {
  const choice = r.u8("a CSD");
  if (choice === 0) return { oad: readOad(r, "a CSD") };
  if (choice === 1) return { road: readRoad(r) };
  fail("bad-apdu", `CSD choice ${choice} is neither OAD (0) nor ROAD (1)`, r.pos - 1);
}
export function writeCsd(w: Writer, csd: Csd): void {
  if ("oad" in csd) writeOad(w.u8(0), csd.oad);
  else writeRoad(w.u8(1), csd.road);
}
export function readRcsd(r: Reader): Csd[] {
  const n = r.count("an RCSD", 5);
  const out: Csd[] = [];
  for (let i = 0; i < n; i++) out.push(readCsd(r));
  return out;
}
export function writeRcsd(w: Writer, rcsd: readonly Csd[]): void {
  w.axdrLength(rcsd.length);
  for (const csd of rcsd) writeCsd(w, csd);
}
export function readRegion(r: Reader, depth: number): Region {
  return { kind: r.u8("a Region"), start: readData(r, depth + 1), end: readData(r, depth + 1) };
}
export function writeRegion(w: Writer, region: Region, depth: number): void {
  checkInt(region.kind, 1, false, "Region kind");
  w.u8(region.kind);
  writeData(w, region.start, depth + 1);
  writeData(w, region.end, depth + 1);
}
function readTsaContent(r: Reader): string {
  return r.hex(r.length("a TSA"), "a TSA").toUpperCase();
}
export function readMs(r: Reader, depth = 0): Ms {
  const choice = r.u8("an MS");
  const list = <T>(min: number, item: () => T): T[] => {
    const n = r.count("an MS", min);
    const out: T[] = [];
    for (let i = 0; i < n; i++) out.push(item());
    return out;
  };
  switch (choice) {
    case 0:
      return { kind: "none" };
    case 1:
      return { kind: "all" };
    case 2:
      return { kind: "user-types", items: list(1, () => r.u8("an MS")) };
    case 3:
      return { kind: "addresses", items: list(1, () => readTsaContent(r)) };
    case 4:
      return { kind: "serials", items: list(2, () => r.u16("an MS")) };
    case 5:
      return { kind: "user-type-regions", items: list(3, () => readRegion(r, depth)) };
    case 6:
      return { kind: "address-regions", items: list(3, () => readRegion(r, depth)) };
    case 7:
      return { kind: "serial-regions", items: list(3, () => readRegion(r, depth)) };
    default:
      fail("bad-apdu", `MS choice ${choice} is not 0..7`, r.pos - 1);
  }
}
export function writeMs(w: Writer, ms: Ms, depth = 0): void {
  switch (ms.kind) {
    case "none":
      w.u8(0);
      return;
    case "all":
      w.u8(1);
      return;
    case "user-types":
      w.u8(2).axdrLength(ms.items.length);
      for (const item of ms.items) w.u8(checkedByte(item, "user type"));
      return;
    case "addresses":
      w.u8(3).axdrLength(ms.items.length);
      for (const item of ms.items) {
        const bytes = hexBytes(item, "TSA");
        w.axdrLength(bytes.length).bytes(bytes);
      }
      return;
    case "serials":
      w.u8(4).axdrLength(ms.items.length);
      for (const item of ms.items) {
        checkInt(item, 2, false, "serial number");
        w.u16(item);
      }
      return;
    default: {
      const code = { "user-type-regions": 5, "address-regions": 6, "serial-regions": 7 }[ms.kind];
      w.u8(code).axdrLength(ms.items.length);
      for (const region of ms.items) writeRegion(w, region, depth);
    }
  }
}
function checkedByte(value: number, what: string): number {
  checkInt(value, 1, false, what);
  return value;
}
function readSelector2(r: Reader, depth: number) {
  return {
    oad: readOad(r, "a selector"),
    from: readData(r, depth + 1),
    to: readData(r, depth + 1),
    step: readData(r, depth + 1),
  };
}
export function readRsd(r: Reader, depth = 0): Rsd {
  const selector = r.u8("an RSD");
  switch (selector) {
    case 0:
      return { selector };
    case 1:
      return { selector, oad: readOad(r, "selector 1"), value: readData(r, depth + 1) };
    case 2:
      return { selector, ...readSelector2(r, depth) };
    case 3: {
      const n = r.count("selector 3", 7);
      const items = [];
      for (let i = 0; i < n; i++) items.push(readSelector2(r, depth));
      return { selector, items };
    }
    case 4:
    case 5:
      return { selector, time: readDateTimeS(r), ms: readMs(r, depth) };
    case 6:
    case 7:
    case 8:
      return {
        selector,
        from: readDateTimeS(r),
        to: readDateTimeS(r),
        interval: readTi(r),
        ms: readMs(r, depth),
      };
    case 9:
      return { selector, last: r.u8("selector 9") };
    case 10:
      return { selector, last: r.u8("selector 10"), ms: readMs(r, depth) };
    default:
      fail("bad-apdu", `RSD selector ${selector} is not 0..10`, r.pos - 1);
  }
}
export function writeRsd(w: Writer, rsd: Rsd, depth = 0): void {
  w.u8(rsd.selector);
  switch (rsd.selector) {
    case 0:
      return;
    case 1:
      writeOad(w, rsd.oad);
      writeData(w, rsd.value, depth + 1);
      return;
    case 2:
      writeSelector2(w, rsd, depth);
      return;
    case 3:
      w.axdrLength(rsd.items.length);
      for (const item of rsd.items) writeSelector2(w, item, depth);
      return;
    case 4:
    case 5:
      writeDateTimeS(w, rsd.time);
      writeMs(w, rsd.ms, depth);
      return;
    case 6:
    case 7:
    case 8:
      writeDateTimeS(w, rsd.from);
      writeDateTimeS(w, rsd.to);
      writeTi(w, rsd.interval);
      writeMs(w, rsd.ms, depth);
      return;
    case 9:
      w.u8(checkedByte(rsd.last, "selector 9 count"));
      return;
    case 10:
      w.u8(checkedByte(rsd.last, "selector 10 count"));
      writeMs(w, rsd.ms, depth);
      return;
    default:
      fail("bad-argument", "RSD selector must be 0..10");
  }
}
function writeSelector2(
  w: Writer,
  s: { oad: string; from: Data; to: Data; step: Data },
  depth: number,
): void {
  writeOad(w, s.oad);
  writeData(w, s.from, depth + 1);
  writeData(w, s.to, depth + 1);
  writeData(w, s.step, depth + 1);
}
export function readSid(r: Reader): Sid {
  const id = r.u32("a SID");
  return { id, extra: r.hex(r.length("a SID"), "a SID").toUpperCase() };
}
export function writeSid(w: Writer, sid: Sid): void {
  checkInt(sid.id, 4, false, "SID identifier");
  const extra = hexBytes(sid.extra, "SID additional data");
  w.u32(sid.id).axdrLength(extra.length).bytes(extra);
}
export function readOctets(r: Reader, what: string): string {
  return r.hex(r.length(what), what).toUpperCase();
}
export function writeOctets(w: Writer, hex: string, what: string): void {
  const bytes = hexBytes(hex, what);
  w.axdrLength(bytes.length).bytes(bytes);
}
