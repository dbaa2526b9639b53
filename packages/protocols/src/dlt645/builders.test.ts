import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { parseHex, toHex } from "../hex.ts";
import * as dlt645 from "./index.ts";

/** Builders must reproduce public frames byte for byte (sources as in the reference vectors). */
const same = (built: Uint8Array, hex: string) => assert.equal(toHex(built), toHex(parseHex(hex)));

describe("DL/T 645 master-side builders reproduce public frames", () => {
  test("2007 reads", () => {
    // Jayla630/Dlt645Master:tests/Dlt645Master.Core.Tests/Dlt645ProtocolContractTests.cs
    same(
      dlt645.buildRead("AAAAAAAAAAAA", dlt645.DI.FORWARD_ENERGY_TOTAL),
      "68 AA AA AA AA AA AA 68 11 04 33 33 34 33 AE 16",
    );
    // peace0phmind/dlt645:frame_test.go
    same(dlt645.buildRead("001234567890", "00000000"), "68 90 78 56 34 12 00 68 11 04 33 33 33 33 55 16");
    same(
      dlt645.buildRead("000012345678", dlt645.DI.VOLTAGE_A),
      "68 78 56 34 12 00 00 68 11 04 33 34 34 35 C9 16",
    );
    // cqqqq/godlt645:protocol_test.go
    same(dlt645.buildRead("000000000161", "00010000"), "68 61 01 00 00 00 00 68 11 04 33 33 34 33 14 16");
    // unresolved code-index file id 1761512763 (Java meter simulator)
    same(
      dlt645.buildRead("201000000012", dlt645.DI.BALANCE),
      "68 12 00 00 00 10 20 68 11 04 33 35 C3 33 85 16",
    );
    same(
      dlt645.buildRead("201000000012", dlt645.DI.DAILY_FROZEN_TIME),
      "68 12 00 00 00 10 20 68 11 04 34 33 39 38 FF 16",
    );
  });

  test("2007 read address with FE preamble (fdxxw/go-dlt645:README.md)", () => {
    same(dlt645.buildReadAddress({ preamble: 4 }), "FE FE FE FE 68 AA AA AA AA AA AA 68 13 00 DF 16");
  });

  test("1997 reads and write (KTS-Intek/DLT645:test-exchange-dlt645-97.log, https://kaledl.com/down/1493168.html)", () => {
    same(dlt645.buildRead("999999999999", "9010"), "68 99 99 99 99 99 99 68 01 02 43 C3 6F 16");
    same(dlt645.buildRead("999999999999", "B611"), "68 99 99 99 99 99 99 68 01 02 44 E9 96 16");
    same(
      dlt645.buildRead("138000130754", dlt645.forwardEnergyDi1997(0)),
      "68 54 07 13 00 80 13 68 01 02 43 C3 DA 16",
    );
    same(
      dlt645.buildWrite("999999999999", "C010", [{ year: 2019, month: 7, day: 6, weekday: 6 }], {
        passwordLevel: 0,
      }),
      "68 99 99 99 99 99 99 68 04 0a 43 F3 33 33 33 33 39 39 3A 4C 6E 16",
    );
  });

  test("relay control (Holley ProtocolMeter645_2007Util, file id 13152332338; 376.1 handler, file id 17039352107)", () => {
    same(
      dlt645.buildRelayControl("111111111111", {
        command: "trip",
        passwordLevel: 0,
        validUntil: { year: 2018, month: 5, day: 12, hour: 15, minute: 41, second: 24 },
      }),
      "68 11 11 11 11 11 11 68 1C 10 33 33 33 33 33 33 33 33 4D 33 57 74 48 45 38 4B 55 16",
    );
    same(
      dlt645.buildRelayControl("151230011061", {
        command: "close-allowed",
        passwordLevel: 2,
        password: "020637",
        operator: "00000001",
        validUntil: { year: 2099, month: 12, day: 30 },
      }),
      "68 61 10 01 30 12 15 68 1C 10 35 6A 39 35 34 33 33 33 4E 33 33 33 33 63 45 CC 2D 16",
    );
  });

  test("broadcast time (file id 39298352736)", () => {
    same(
      dlt645.buildBroadcastTime({ year: 2017, month: 6, day: 5, hour: 10, minute: 22, second: 51 }),
      "68 99 99 99 99 99 99 68 08 06 84 55 43 38 39 4A 4B 16",
    );
  });

  test("every relay command has its N1 code", () => {
    const validUntil = { year: 2030, month: 1, day: 1 };
    for (const [command, code] of Object.entries(dlt645.RelayCommand)) {
      const frame = dlt645.parseFrame(
        dlt645.buildRelayControl("000000000001", { command: command as dlt645.RelayCommandName, validUntil }),
      );
      assert.equal(frame.data[8], code);
      const decoded = dlt645.decodeRequest(frame);
      assert.ok(decoded.message.kind === "relay-control-request");
      assert.equal(decoded.message.relay.command, command);
    }
  });

  test("write 0x14 with password level, password and operator (2007 layout)", () => {
    const frame = dlt645.parseFrame(
      dlt645.buildWrite("000000000001", dlt645.DI.TARIFF_PRICE_1, ["0.5283"], {
        passwordLevel: 2,
        password: "123456",
        operator: "87654321",
      }),
    );
    assert.equal(frame.control, 0x14);
    assert.equal(toHex(frame.data), "01 01 05 04 02 56 34 12 21 43 65 87 83 52 00 00");
    const decoded = dlt645.decodeRequest(frame);
    assert.ok(decoded.message.kind === "write-request");
    assert.equal(decoded.message.password, "123456");
    assert.equal(decoded.message.operator, "87654321");
    assert.equal(decoded.message.fields[0]?.value, "0.5283");
  });
});

describe("DL/T 645 meter-side builders reproduce public replies", () => {
  test("read replies", () => {
    // Jayla630/Dlt645Master:tests/Dlt645Master.Transport.Tests/Dlt645MeterSlaveTests.cs
    same(
      dlt645.buildReadReply("000072007201", "00010000", ["0.00"]),
      "68 01 72 00 72 00 00 68 91 08 33 33 34 33 33 33 33 33 E7 16",
    );
    // file id 1761512763 (Java meter simulator)
    same(
      dlt645.buildReadReply("201000000012", "0001FF00", ["1.29", "0.62", "0.60", "0.03", "0.02"]),
      "68 12 00 00 00 10 20 68 91 18 33 32 34 33 5C 34 33 33 95 33 33 33 93 33 33 33 36 33 33 33 35 33 33 33 74 16",
    );
    same(
      dlt645.buildReadReply("201000000012", "04000101", [{ year: 2016, month: 1, day: 11 }]),
      "68 12 00 00 00 10 20 68 91 08 34 34 33 37 34 44 34 49 72 16",
    );
    // cqqqq/godlt645:protocol_test.go (1997)
    same(
      dlt645.buildReadReply("000000001111", "B613", ["220"]),
      "68 11 11 00 00 00 00 68 81 04 46 E9 53 35 2E 16",
    );
  });

  test("address reply, relay ack, error replies", () => {
    same(
      dlt645.buildReadAddressReply("201000000012"),
      "68 12 00 00 00 10 20 68 93 06 45 33 33 33 43 53 1F 16",
    );
    same(dlt645.buildRelayAck("111111111111"), "68 11 11 11 11 11 11 68 9C 00 D2 16");
    same(
      dlt645.buildErrorReply("123456789012", dlt645.Fn2007.READ, ["no-requested-data"]),
      "68 12 90 78 56 34 12 68 D1 01 35 8D 16",
    );
    same(
      dlt645.buildErrorReply("000000063295", dlt645.Fn1997.READ, ["di-error"]),
      "68 95 32 06 00 00 00 68 C1 01 35 94 16",
    );
    same(dlt645.buildWriteAck("000000000001"), "68 01 00 00 00 00 00 68 94 00 65 16");
  });

  test("follow-up flag and follow-up reply", () => {
    const first = dlt645.parseFrame(
      dlt645.buildReadReply("000000000001", "0001FF00", ["1.00", "0.50"], { followUp: true }),
    );
    assert.equal(first.control, 0xb1);
    const decoded = dlt645.decodeReply(first);
    assert.ok(decoded.message.kind === "read-reply" && decoded.message.followUp);
    const next = dlt645.parseFrame(
      dlt645.buildReadFollowUpReply("000000000001", "0001FF00", parseHex("00 50 00 00"), 1),
    );
    assert.equal(next.control, 0x92);
    const nextDecoded = dlt645.decodeReply(next);
    assert.ok(nextDecoded.message.kind === "read-follow-up-reply");
    assert.equal(nextDecoded.message.seq, 1);
    const request = dlt645.decodeRequest(
      dlt645.parseFrame(dlt645.buildReadFollowUp("000000000001", "0001FF00", 1)),
    );
    assert.deepEqual(request.message, {
      kind: "read-follow-up-request",
      di: "0001FF00",
      name: "forward active energy block",
      seq: 1,
    });
  });
});
