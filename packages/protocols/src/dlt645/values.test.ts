import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { parseHex, toHex } from "../hex.ts";
import * as dlt645 from "./index.ts";

/** Value formats per data identifier: BCD with decimals and sign, dates, fills meaning "not present". */
describe("DL/T 645 values", () => {
  const reply = (di: string, dataHex: string) => {
    const data = parseHex(`${toHex(dlt645.encodeDi(di, "2007"))} ${dataHex}`);
    return dlt645.decodeReply(
      dlt645.parseFrame(dlt645.buildFrame({ address: "000000000001", control: 0x91, data })),
    );
  };
  const fields = (di: string, dataHex: string) => {
    const decoded = reply(di, dataHex);
    assert.ok(decoded.message.kind === "read-reply");
    return decoded.message.fields;
  };

  test("FF and EE fills mean not present; FF FF marks an absent phase", () => {
    assert.equal(fields("00900200", "FF FF FF FF")[0]?.status, "absent");
    assert.equal(fields("00900200", "EE EE EE EE")[0]?.status, "absent");
    const phases = fields("0201FF00", "00 22 FF FF FF FF");
    assert.deepEqual(
      phases.map((field) => [field.name, field.status, field.value]),
      [
        ["phase A", "ok", "220.0"],
        ["phase B", "absent", null],
        ["phase C", "absent", null],
      ],
    );
  });

  test("non-BCD digits are invalid, not thrown", () => {
    assert.equal(fields("00900200", "1A 00 00 00")[0]?.status, "invalid");
    assert.equal(fields("04000101", "01 32 01 16")[0]?.status, "invalid");
  });

  test("signed formats use the top bit", () => {
    const [current] = fields("02020100", "00 05 80");
    assert.ok(current?.kind === "number");
    assert.equal(current.value, "-0.500");
    assert.equal(current.scaled, -500n);
  });

  test("length mismatches become warnings with the raw bytes kept", () => {
    const short = reply("00900200", "00 01");
    assert.equal(short.warnings.length, 1);
    const long = reply("00900200", "00 01 00 00 99");
    assert.ok(long.message.kind === "read-reply");
    assert.equal(long.message.fields.at(-1)?.value, "99");
    assert.equal(long.warnings.length, 1);
  });

  test("unknown identifiers keep their raw data", () => {
    const [raw] = fields("12345678", "01 02");
    assert.deepEqual([raw?.kind, raw?.value], ["raw", "0102"]);
  });

  test("trip records are open-ended: the time is decoded, the rest kept without a warning", () => {
    const decoded = reply("1D000101", "00 30 08 01 05 24 01 00 00 00");
    assert.ok(decoded.message.kind === "read-reply");
    assert.equal(decoded.message.fields[0]?.value, "2024-05-01 08:30:00");
    assert.deepEqual(decoded.warnings, []);
  });

  test("status word 3 summary covers close-pending and power-hold", () => {
    const status = (word: number) => dlt645.decodeStatusWord3(word);
    assert.equal(status(0x0010).relay, "close-pending");
    assert.equal(status(0x0040).relay, "trip-pending");
    assert.equal(status(0x1000).powerHold, true);
    assert.equal(status(0x0200).meterKind, "money-prepaid");
    assert.equal(status(0x0100).meterKind, "energy-prepaid");
  });

  test("status word 1: battery bits 2 and 3, power direction bits 4 and 5, reserved bits ignored", () => {
    const word = dlt645.decodeStatusWord1;
    assert.deepEqual(word(0x0000), {
      raw: 0,
      blockDemand: false,
      clockBatteryLow: false,
      readingBatteryLow: false,
      activeReverse: false,
      reactiveReverse: false,
    });
    assert.equal(word(0x0004).clockBatteryLow, true);
    assert.equal(word(0x0008).readingBatteryLow, true);
    assert.equal(word(0x0010).activeReverse, true);
    assert.equal(word(0x0010).reactiveReverse, false);
    assert.equal(word(0x0020).reactiveReverse, true);
    assert.equal(word(0xffc1).activeReverse, false);
    assert.equal(word(0xffc1).clockBatteryLow, false);
    for (let raw = 0; raw < 0x40; raw += 2) assert.equal(dlt645.encodeStatusWord1(word(raw)), raw);
  });

  test("the cover-open event count decodes as a plain count", () => {
    const decoded = reply("03300D00", "12 00 00");
    assert.ok(decoded.message.kind === "read-reply");
    assert.equal(decoded.message.fields[0]?.value, "12");
  });
});
