import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { checkDlt645Frames, decodeOne, type PublicFrameRow } from "../test-helpers.ts";

/**
 * DL/T 645-2007 frames from public sources the codec was not written from. Several come from
 * "unresolved" code-index files: the index returned the file without its repository, so the
 * file id is given instead (as in metering-domain.md).
 */
const WUSONG =
  "unresolved code-index file id 40880446552 (Java Test.java by WuSong, decoded values in a comment)";
const CSHARP = "unresolved code-index file id 70282127919 (C# Dlt645.Core.Tests MeterClientTests.cs)";
const JS3761 = "unresolved code-index file id 17039352107 (JS Q/GDW 376.1 AFN=10 forwarding handler)";
const GO = "unresolved code-index file id 14975011456 (Go protocol_stack test)";

const ROWS: PublicFrameRow[] = [
  {
    source: WUSONG,
    hex: "68 61 01 00 00 00 00 68 91 08 33 33 34 33 59 33 33 33 8A 16",
    version: "2007",
    kind: "read-reply",
    di: "00010000",
    values: { "forward active energy total": "0.26 kWh" },
  },
  {
    source: WUSONG,
    hex: "68 61 01 00 00 00 00 68 91 06 33 34 34 35 34 43 10 16",
    version: "2007",
    kind: "read-reply",
    di: "02010100",
    values: { "voltage phase A": "100.1 V" },
  },
  {
    source: WUSONG,
    hex: "68 61 01 00 00 00 00 68 91 07 33 34 35 35 CC 7C 33 16 16",
    version: "2007",
    kind: "read-reply",
    di: "02020100",
    values: { "current phase A": "4.999 A" },
  },
  {
    source: WUSONG,
    hex: "68 61 01 00 00 00 00 68 91 07 33 33 36 35 45 58 33 6B 16",
    version: "2007",
    kind: "read-reply",
    di: "02030000",
    values: { "active power total": "0.2512 kW" },
  },
  {
    source: WUSONG,
    hex: "68 61 01 00 00 00 00 68 91 07 33 33 37 35 64 76 33 A9 16",
    version: "2007",
    kind: "read-reply",
    di: "02040000",
    values: { "reactive power total": "0.4331 kvar" },
  },
  {
    source: WUSONG,
    hex: "68 61 01 00 00 00 00 68 91 07 33 33 38 35 39 83 33 8C 16",
    version: "2007",
    kind: "read-reply",
    di: "02050000",
    values: { "apparent power total": "0.5006 kVA" },
  },
  {
    source: WUSONG,
    hex: "68 61 01 00 00 00 00 68 91 06 33 33 39 35 34 38 09 16",
    version: "2007",
    kind: "read-reply",
    di: "02060000",
    values: { "power factor total": "0.501" },
  },
  {
    source: CSHARP,
    hex: "FE FE 68 12 90 78 56 34 12 68 91 08 33 33 34 33 89 67 45 33 54 16",
    version: "2007",
    kind: "read-reply",
    di: "00010000",
    values: { "forward active energy total": "1234.56 kWh" },
  },
  {
    source: CSHARP,
    hex: "FE 68 12 90 78 56 34 12 68 93 06 45 C3 AB 89 67 45 07 16",
    version: "2007",
    kind: "read-address-reply",
  },
  { source: CSHARP, hex: "68 12 90 78 56 34 12 68 D1 01 35 8D 16", version: "2007", kind: "error-reply" },
  {
    source: JS3761,
    hex: "68 61 10 01 30 12 15 68 91 08 33 33 34 33 AB 39 33 33 49 16",
    version: "2007",
    kind: "read-reply",
    di: "00010000",
    values: { "forward active energy total": "6.78 kWh" },
  },
  {
    source: JS3761,
    hex: "68 61 10 01 30 12 15 68 91 06 36 38 33 37 83 33 BE 16",
    version: "2007",
    kind: "read-reply",
    di: "04000503",
    values: { "meter run status word 3": "0050" },
  },
  {
    source: JS3761,
    hex: "68 61 10 01 30 12 15 68 91 06 36 38 33 37 33 33 6E 16",
    version: "2007",
    kind: "read-reply",
    di: "04000503",
    values: { "meter run status word 3": "0000" },
  },
  {
    source: JS3761,
    hex: "68 61 10 01 30 12 15 68 1C 10 35 6A 39 35 34 33 33 33 4E 33 33 33 33 63 45 CC 2D 16",
    version: "2007",
    kind: "relay-control-request",
  },
  { source: JS3761, hex: "68 61 10 01 30 12 15 68 9C 00 35 16", version: "2007", kind: "relay-control-ack" },
  {
    source: GO,
    hex: "FE FE FE FE 68 60 07 92 04 00 91 68 91 08 33 33 33 33 97 35 A8 33 6A 16",
    version: "2007",
    kind: "read-reply",
    di: "00000000",
    values: { "combined active energy total": "7502.64 kWh" },
  },
  {
    source: GO,
    hex: "FE FE FE FE 68 60 07 92 04 00 91 68 D1 01 37 67 16",
    version: "2007",
    kind: "error-reply",
  },
  {
    source: GO,
    hex: "fe fe fe fe 68 00 00 00 00 00 00 68 91 06 33 34 34 35 4c 56 d9 16",
    version: "2007",
    kind: "read-reply",
    di: "02010100",
    values: { "voltage phase A": "231.9 V" },
  },
];

describe("DL/T 645-2007 frames from public sources", () => {
  checkDlt645Frames(ROWS);
  test("error bytes decode per edition", () => {
    const flags = (hex: string) => {
      const decoded = decodeOne(hex);
      return decoded.protocol === "dlt645" && decoded.message.kind === "error-reply"
        ? decoded.message.error.flags
        : null;
    };
    assert.deepEqual(flags("FE FE FE FE 68 34 69 17 08 17 20 68 C4 01 34 BC 16"), ["illegal-data"]);
    assert.deepEqual(flags("68 12 90 78 56 34 12 68 D1 01 35 8D 16"), ["no-requested-data"]);
    assert.deepEqual(flags("FE FE FE FE 68 60 07 92 04 00 91 68 D1 01 37 67 16"), [
      "password-or-unauthorised",
    ]);
  });

  test("status word 3: relay open vs closed, read after a relay command", () => {
    const status = (hex: string) => {
      const decoded = decodeOne(hex);
      return decoded.protocol === "dlt645" && decoded.message.kind === "read-reply"
        ? decoded.message.statusWord3
        : undefined;
    };
    const open = status("68 61 10 01 30 12 15 68 91 06 36 38 33 37 83 33 BE 16");
    assert.equal(open?.relay, "open");
    assert.equal(open?.relayOpen, true);
    assert.equal(open?.relayCommandOpen, true);
    assert.equal(status("68 61 10 01 30 12 15 68 91 06 36 38 33 37 33 33 6E 16")?.relay, "closed");
  });

  test("relay requests: close allowed with password, operator and a 2099 deadline; all-zero deadline", () => {
    const relay = (hex: string) => {
      const decoded = decodeOne(hex);
      assert.ok(decoded.protocol === "dlt645" && decoded.message.kind === "relay-control-request");
      return decoded.message.relay;
    };
    assert.deepEqual(
      relay("68 61 10 01 30 12 15 68 1C 10 35 6A 39 35 34 33 33 33 4E 33 33 33 33 63 45 CC 2D 16"),
      {
        passwordLevel: 2,
        password: "020637",
        operator: "00000001",
        command: "close-allowed",
        commandCode: 0x1b,
        reserved: 0,
        validUntil: "2099-12-30 00:00:00",
        validUntilStatus: "ok",
      },
    );
    assert.equal(
      relay("68 61 10 01 30 12 15 68 1C 10 35 6A 39 35 34 33 33 33 4D 33 33 33 33 63 45 CC 2C 16").command,
      "trip",
    );
    // unresolved code-index file id 47454965745 (C++ CDL645::SendYk comment): zero deadline, meters that check it reject it.
    const zero = relay("68 06 10 24 05 19 20 68 1C 10 35 33 33 33 33 33 33 33 4D 33 33 33 33 33 33 33 C0 16");
    assert.equal(zero.command, "trip");
    assert.equal(zero.validUntilStatus, "absent");
  });

  test("read-address reply carries the address in DATA", () => {
    const decoded = decodeOne("FE 68 12 90 78 56 34 12 68 93 06 45 C3 AB 89 67 45 07 16");
    assert.ok(decoded.protocol === "dlt645" && decoded.message.kind === "read-address-reply");
    assert.equal(decoded.message.address, "123456789012");
    assert.equal(decoded.address, "123456789012");
  });
});
