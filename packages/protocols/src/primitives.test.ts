import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { decodeDateTime, encodeDateTime, parseDateTimeText, weekdayOf } from "./datetime.ts";
import { formatScaled, parseScaled } from "./decimal.ts";
import { ProtocolError } from "./errors.ts";
import { parseHex, toHex } from "./hex.ts";

const throwsCode = (fn: () => unknown, code: string) =>
  assert.throws(fn, (error: unknown) => error instanceof ProtocolError && error.code === code);

describe("hex input as pasted from logs", () => {
  test("spaces, no spaces, 0x prefixes, commas, dashes and line breaks", () => {
    for (const text of ["68 AA 16", "68aa16", "0x68, 0xAA, 0x16", "68-AA-16", "68\nAA\r\n16", " 68 aa 16 "]) {
      assert.equal(toHex(parseHex(text)), "68 AA 16");
    }
  });
  test("rejects non-hex letters and odd digit groups", () => {
    throwsCode(() => parseHex("68 GG"), "bad-hex");
    throwsCode(() => parseHex("68 A 16"), "bad-hex");
  });
});

describe("exact decimals", () => {
  test("format scaled integers", () => {
    assert.equal(formatScaled(12345n, 2), "123.45");
    assert.equal(formatScaled(5n, 3), "0.005");
    assert.equal(formatScaled(-5n, 3), "-0.005");
    assert.equal(formatScaled(7n, 0), "7");
    assert.equal(formatScaled(0n, 2), "0.00");
  });
  test("parse without rounding", () => {
    assert.equal(parseScaled("123.45", 2), 12345n);
    assert.equal(parseScaled("123.4", 2), 12340n);
    assert.equal(parseScaled("-0.5", 4), -5000n);
    assert.equal(parseScaled("1.2300", 2), 123n);
    throwsCode(() => parseScaled("0.52345", 4), "bad-argument");
    throwsCode(() => parseScaled("1e3", 2), "bad-argument");
    throwsCode(() => parseScaled("", 2), "bad-argument");
  });
  test("0.1 + 0.2 stays exact", () => {
    assert.equal(formatScaled(parseScaled("0.1", 2) + parseScaled("0.2", 2), 2), "0.30");
  });
});

describe("BCD dates and times", () => {
  test("wire order is reversed display order", () => {
    const wire = encodeDateTime("YYMMDDhhmmss", {
      year: 2017,
      month: 6,
      day: 5,
      hour: 10,
      minute: 22,
      second: 51,
    });
    assert.equal(toHex(wire), "51 22 10 05 06 17");
    assert.deepEqual(decodeDateTime("YYMMDDhhmmss", wire), { status: "ok", value: "2017-06-05 10:22:51" });
  });
  test("weekday is computed when omitted", () => {
    assert.equal(weekdayOf(2016, 1, 11), 1);
    assert.equal(toHex(encodeDateTime("YYMMDDWW", { year: 2016, month: 1, day: 11 })), "01 11 01 16");
  });
  test("absent and invalid", () => {
    assert.equal(decodeDateTime("hhmmss", parseHex("FF FF FF")).status, "absent");
    assert.equal(decodeDateTime("hhmmss", parseHex("60 00 00")).status, "invalid");
    assert.equal(decodeDateTime("YYMMDDWW", parseHex("00 30 02 24")).status, "invalid", "February 30th");
    throwsCode(() => encodeDateTime("YYMMDDhhmm", { year: 1999, month: 1, day: 1 }), "bad-argument");
    throwsCode(() => encodeDateTime("YYMMDDhhmm", { year: 2023, month: 13, day: 1 }), "bad-argument");
  });
  test("text input", () => {
    assert.deepEqual(parseDateTimeText("2017-06-05 10:22:51"), {
      year: 2017,
      month: 6,
      day: 5,
      hour: 10,
      minute: 22,
      second: 51,
    });
    assert.deepEqual(parseDateTimeText("2017-06-05T10:22"), {
      year: 2017,
      month: 6,
      day: 5,
      hour: 10,
      minute: 22,
      second: 0,
    });
    throwsCode(() => parseDateTimeText("05/06/2017"), "bad-argument");
  });
});

test("parsing a Node Buffer leaves the caller's bytes untouched", async () => {
  const { dlt645, cjt188 } = await import("./index.ts");
  const electric = Buffer.from("68030000001020689C009F16", "hex");
  const before = Buffer.from(electric);
  const frame = dlt645.parseFrame(electric);
  assert.equal(frame.address, "201000000003");
  assert.deepEqual(electric, before);
  const request = Buffer.from(dlt645.buildRead("201000000003", "00010000"));
  const copy = Buffer.from(request);
  dlt645.decodeRequest(dlt645.parseFrame(request));
  assert.deepEqual(request, copy);
  const water = Buffer.from(cjt188.buildReadData("78330000000000", { ser: 1 }));
  const waterCopy = Buffer.from(water);
  cjt188.parseFrame(water);
  assert.deepEqual(water, waterCopy);
});
