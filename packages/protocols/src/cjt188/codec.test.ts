import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { ProtocolError } from "../errors.ts";
import { parseHex, toHex } from "../hex.ts";
import * as cjt188 from "./index.ts";

const code = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof ProtocolError, `expected a ProtocolError, got ${String(error)}`);
    return error.code;
  }
  return "no error";
};

describe("CJ/T 188 frame layer", () => {
  const VALID = "68 10 12 00 00 00 00 00 00 01 03 90 1F 00 3D 16";

  test("parses after FE and junk; no 0x33 offset on data", () => {
    const frame = cjt188.parseFrame(parseHex(`FE FE 00 FE ${VALID}`));
    assert.equal(frame.start, 4);
    assert.equal(frame.meterType, 0x10);
    assert.equal(frame.address, "00000000000012");
    assert.equal(toHex(frame.data), "90 1F 00");
  });

  test("typed errors", () => {
    const parse = (hex: string, max?: number) => cjt188.parseFrame(parseHex(hex), { maxFrameLength: max });
    assert.equal(
      code(() => parse("")),
      "no-start",
    );
    assert.equal(
      code(() => parse("68 10 12 00 00 00 00 00 00 01 03 90")),
      "truncated",
    );
    assert.equal(
      code(() => parse("68 10 12 00 00 00 00 00 00 01 03 90 1F 00 3E 16")),
      "checksum",
    );
    assert.equal(
      code(() => parse("68 10 12 00 00 00 00 00 00 01 03 90 1F 00 3D 17")),
      "bad-end",
    );
    assert.equal(
      code(() => parse(VALID, 14)),
      "bad-length",
    );
  });

  test("builders reject bad arguments", () => {
    assert.equal(
      code(() => cjt188.buildReadData("123456789012345")),
      "bad-argument",
    );
    assert.equal(
      code(() => cjt188.buildReadData("1", { ser: 256 })),
      "bad-argument",
    );
    assert.equal(
      code(() => cjt188.buildReadData("1", { meterType: 300 })),
      "bad-argument",
    );
    assert.equal(
      code(() => cjt188.buildValveControl("1", "sideways" as cjt188.ValveCommandName)),
      "bad-argument",
    );
    assert.equal(
      code(() => cjt188.buildReadData("1", { di: "901" })),
      "bad-argument",
    );
    const input = {
      currentTotal: "1.234",
      settlementDayTotal: null,
      time: null,
      status: { valve: "open" },
    } as const;
    assert.equal(
      code(() => cjt188.buildReadDataReply("1", input)),
      "bad-argument",
    );
  });

  test("the checksum cannot tell DI orders apart, the parser accepts both (metering-domain.md §2.4)", () => {
    const big = cjt188.buildReadData("00000000000001", { ser: 1 });
    const little = cjt188.buildReadData("00000000000001", { ser: 1, diOrder: "little-endian" });
    assert.equal(big.at(-2), little.at(-2));
    for (const frame of [big, little]) {
      const decoded = cjt188.decodeRequest(cjt188.parseFrame(frame));
      assert.ok(decoded.message.kind === "read-data-request");
      assert.equal(decoded.message.di, "901F");
    }
  });
});

describe("CJ/T 188 round trips and the simulated meter", () => {
  test("901F reply: values, units, time, status, SER, both DI orders", () => {
    for (const diOrder of ["big-endian", "little-endian"] as const) {
      const wire = cjt188.buildReadDataReply(
        "12345678901234",
        {
          currentTotal: "1234.56",
          settlementDayTotal: null,
          time: { year: 2024, month: 12, day: 31, hour: 23, minute: 59, second: 59 },
          status: { valve: "closed", batteryLow: true },
        },
        { ser: 7, diOrder, meterType: cjt188.MeterType.HOT_WATER },
      );
      const decoded = cjt188.decodeReply(cjt188.parseFrame(wire));
      assert.equal(decoded.meterTypeName, "domestic hot water meter");
      assert.ok(decoded.message.kind === "read-data-reply" && decoded.message.meterData);
      const data = decoded.message.meterData;
      assert.equal(decoded.message.ser, 7);
      assert.equal(decoded.message.diOrder, diOrder);
      assert.equal(data.currentTotal.value, "1234.56");
      assert.equal(data.currentTotal.scaled, 123456n);
      assert.equal(data.settlementDayTotal.status, "absent");
      assert.equal(data.time.value, "2024-12-31 23:59:59");
      assert.equal(data.status.valve, "closed");
      assert.equal(data.status.batteryLow, true);
    }
  });

  test("a simulated water meter answers read, valve and address requests and checks SER echo", () => {
    const address = "00000019121301";
    let valve: "open" | "closed" = "open";
    const answer = (wire: Uint8Array): Uint8Array => {
      const request = cjt188.decodeRequest(cjt188.parseFrame(wire));
      const options = {
        ser: "ser" in request.message && request.message.ser !== null ? request.message.ser : 0,
      };
      switch (request.message.kind) {
        case "valve-control-request":
          valve = request.message.command === "close" ? "closed" : "open";
          return cjt188.buildValveControlReply(address, { valve }, options);
        case "read-data-request":
          if (request.message.di !== "901F") break;
          return cjt188.buildReadDataReply(
            address,
            { currentTotal: "12.34", settlementDayTotal: "10.00", time: null, status: { valve } },
            options,
          );
        case "read-address-request":
          return cjt188.buildReadAddressReply(address, options);
      }
      return cjt188.buildErrorReply(address, request.control.function, { valve }, options);
    };
    const exchange = (request: Uint8Array) => {
      const reply = answer(request);
      assert.ok(cjt188.isReplyTo(cjt188.parseFrame(reply), cjt188.parseFrame(request)));
      return cjt188.decodeReply(cjt188.parseFrame(reply));
    };
    const closed = exchange(cjt188.buildValveControl(address, "close", { ser: 9 }));
    assert.ok(closed.message.kind === "valve-control-reply" && closed.message.status?.valve === "closed");
    const read = exchange(cjt188.buildReadData(address, { ser: 10, diOrder: "little-endian" }));
    assert.ok(read.message.kind === "read-data-reply" && read.message.meterData?.status.valve === "closed");
    assert.equal(exchange(cjt188.buildReadAddress({ ser: 11 })).address, address);
    const unsupported = exchange(
      cjt188.buildFrame({ meterType: 0x10, address, control: 0x09, data: Uint8Array.of(0x81, 0x06, 12) }),
    );
    assert.equal(unsupported.message.kind, "error-reply", "read key version is not simulated");
    assert.equal(unsupported.control.raw, 0xc9);

    const error = cjt188.decodeReply(
      cjt188.parseFrame(cjt188.buildErrorReply(address, 0x04, { valve: "abnormal" }, { ser: 5 })),
    );
    assert.deepEqual(error.message, {
      kind: "error-reply",
      ser: 5,
      status: { raw: "0300", valve: "abnormal", batteryLow: false, vendorByte: 0 },
    });
    const wrongSer = cjt188.parseFrame(cjt188.buildValveControlReply(address, { valve: "open" }, { ser: 1 }));
    assert.equal(
      cjt188.isReplyTo(wrongSer, cjt188.parseFrame(cjt188.buildValveControl(address, "open", { ser: 2 }))),
      false,
    );
  });

  test("per-model ST bit map (collector firmware masking 0xC0 / 0x20)", () => {
    const map: cjt188.StatusBitMap = {
      valveMask: 0xc0,
      valveStates: { 0: "open", 64: "closed", 192: "abnormal" },
      batteryLowMask: 0x20,
    };
    assert.deepEqual(cjt188.decodeStatus(0x60, 0x00, map), {
      raw: "6000",
      valve: "closed",
      batteryLow: true,
      vendorByte: 0,
    });
    assert.deepEqual([...cjt188.encodeStatus({ valve: "abnormal" }, map)], [0xc0, 0x00]);
    assert.equal(cjt188.decodeStatus(0x02, 0x00).valve, "unknown");
  });
});
