import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { ProtocolError } from "../errors.ts";
import { parseHex, toHex } from "../hex.ts";
import * as dlt645 from "./index.ts";

const VALID = "68 AA AA AA AA AA AA 68 11 04 33 33 34 33 AE 16";
const code = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof ProtocolError, `expected a ProtocolError, got ${String(error)}`);
    return error.code;
  }
  return "no error";
};
const parse = (hex: string, maxFrameLength?: number) => dlt645.parseFrame(parseHex(hex), { maxFrameLength });

describe("DL/T 645 frame layer", () => {
  test("skips any number of FE and junk before 68, and trailing bytes", () => {
    const frame = parse(`FE FE FE FE FE FE FE FE 00 13 77 ${VALID} 52 4F`);
    assert.equal(frame.start, 11);
    assert.equal(frame.end, 27);
    assert.equal(frame.address, "AAAAAAAAAAAA");
    assert.equal(toHex(frame.data), "00 00 01 00");
  });

  test("a 0x68 inside junk before the frame is skipped", () => {
    assert.equal(parse(`68 01 02 ${VALID}`).start, 3);
  });

  test("typed errors", () => {
    assert.equal(
      code(() => parse("")),
      "no-start",
    );
    assert.equal(
      code(() => parse("FE FE FE")),
      "no-start",
    );
    assert.equal(
      code(() => parse("68 AA AA AA AA AA AA 68 11 04 33 33")),
      "truncated",
    );
    assert.equal(
      code(() => parse("68 AA AA AA AA AA AA 67 11 04 33 33 34 33 AE 16")),
      "bad-header",
    );
    assert.equal(
      code(() => parse("68 AA AA AA AA AA AA 68 11 04 33 33 34 33 AF 16")),
      "checksum",
    );
    assert.equal(
      code(() => parse("68 AA AA AA AA AA AA 68 11 04 33 33 34 33 AE 17")),
      "bad-end",
    );
    assert.equal(
      code(() => parse(VALID, 15)),
      "bad-length",
    );
    assert.equal(
      code(() => dlt645.parseFrame(parseHex("68 12 90 78 56 34 12 68 91 08 33 33"))),
      "truncated",
    );
  });

  test("checksum covers both 68s, address, C, L and data but not the preamble", () => {
    const bytes = parseHex(VALID);
    let sum = 0;
    for (let i = 0; i < bytes.length - 2; i++) sum += bytes[i]!;
    assert.equal(sum & 0xff, 0xae);
  });

  test("the 0x33 offset wraps around", () => {
    const built = dlt645.buildFrame({
      address: "000000000001",
      control: 0x91,
      data: Uint8Array.of(0xcd, 0xff, 0x00),
    });
    assert.equal(toHex(built.subarray(10, 13)), "00 32 33");
    assert.deepEqual([...dlt645.parseFrame(built).data], [0xcd, 0xff, 0x00]);
  });

  test("builders reject what cannot be encoded", () => {
    assert.equal(
      code(() => dlt645.buildRead("12-3X", "00010000")),
      "bad-argument",
    );
    assert.equal(
      code(() => dlt645.buildRead("1234567890123", "00010000")),
      "bad-argument",
    );
    assert.equal(
      code(() => dlt645.buildRead("000000000001", "0001000")),
      "bad-argument",
    );
    assert.equal(
      code(() => dlt645.buildReadReply("000000000001", "00900200", ["1.234"])),
      "bad-argument",
    );
    assert.equal(
      code(() => dlt645.buildReadReply("000000000001", "00900200", ["-1.00"])),
      "bad-argument",
    );
    assert.equal(
      code(() => dlt645.buildReadReply("000000000001", "00900200", ["1000000.00"])),
      "bad-argument",
    );
    assert.equal(
      code(() => dlt645.buildReadReply("000000000001", "02020100", ["800.000"])),
      "bad-argument",
    );
    assert.equal(
      code(() => dlt645.buildReadReply("000000000001", "12345678", ["1"])),
      "bad-argument",
    );
    assert.equal(
      code(() => dlt645.buildFrame({ address: "1", control: 0x11, data: new Uint8Array(256) })),
      "bad-argument",
    );
    const validUntil = { year: 2023, month: 2, day: 29 };
    assert.equal(
      code(() => dlt645.buildRelayControl("000000000001", { command: "trip", validUntil })),
      "bad-argument",
    );
    assert.equal(
      code(() =>
        dlt645.buildRelayControl("000000000001", {
          command: "trip",
          validUntil: { year: 2030, month: 1, day: 1 },
          password: "12",
        }),
      ),
      "bad-argument",
    );
  });

  test("short addresses are left-padded and AA wildcards survive", () => {
    assert.equal(dlt645.parseFrame(dlt645.buildRead("161", "00010000")).address, "000000000161");
    assert.equal(dlt645.parseFrame(dlt645.buildRead("AAAA12345678", "00010000")).address, "AAAA12345678");
  });
});
