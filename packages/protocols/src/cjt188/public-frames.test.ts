import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { parseHex, toHex } from "../hex.ts";
import { decodeOne } from "../test-helpers.ts";
import * as cjt188 from "./index.ts";

/** CJ/T 188 frames from public sources (repository:path or unresolved code-index file id). */
const FOX =
  "hupengwu/fox-edge-server-protocol:fox-edge-server-protocol/fox-edge-server-protocol-cjt188/src/main/java/cn/foxtech/device/protocol/v1/cjt188/Demo.java";
const FOX_VALVE = "hupengwu/fox-edge-server-protocol:…/cjt188/CJT188ProtocolOperatingValve.java";
const ZX = "Zhou-HR/zxemeter:src/main/java/com/gdiot/ssm/util/WMUdpSendCmdsUtils.java";
const UART = "wdjxysc/Uart:app/src/main/java/com/example/uart/ConstData.java";
const CJ94 = "https://cnblogs.com/cj94/p/18534598";

const decoded = (hex: string) => {
  const result = decodeOne(hex);
  assert.ok(result.protocol === "cjt188");
  assert.deepEqual(result.warnings, []);
  return result;
};
const meterData = (hex: string) => {
  const { message } = decoded(hex);
  assert.ok(message.kind === "read-data-reply" && message.meterData);
  return message.meterData;
};

describe("CJ/T 188 frames from public sources", () => {
  test(`901F reply, DI as 1F 90, corrected checksum of the SC meter example [${FOX}]`, () => {
    const data = meterData(
      "68 10 44 33 22 11 00 33 78 81 16 1F 90 00 00 77 66 55 2C 00 77 66 55 2C 31 01 22 11 05 15 20 21 84 13 16",
    );
    assert.equal(data.currentTotal.value, "556677.00");
    assert.equal(data.currentTotal.unit, "m³");
    assert.equal(data.settlementDayTotal.scaled, 55667700n);
    assert.equal(data.time.value, "2015-05-11 22:01:31");
    assert.deepEqual(data.status, { raw: "2184", valve: "closed", batteryLow: false, vendorByte: 0x84 });
  });

  test(`901F replies with DI as 90 1F [${FOX}]`, () => {
    assert.equal(
      meterData(
        "FE FE FE 68 10 01 00 00 05 08 00 00 81 16 90 1F 00 00 23 01 00 2C 00 00 00 00 2C 00 00 00 00 00 00 00 00 00 48 16",
      ).currentTotal.value,
      "123.00",
    );
    const second = meterData(
      "FE FE FE 68 10 18 02 12 20 20 00 00 81 16 90 1F 00 00 02 00 00 2C 00 02 00 00 2C 00 00 00 00 00 00 00 00 FF 85 16",
    );
    assert.equal(second.currentTotal.value, "2.00");
    assert.equal(second.status.raw, "00FF");
  });

  test("901F with FF fills (absent settlement total and clock), SER AA [file id 34103005706, Go collector]", () => {
    const result = decoded(
      "FE FE 68 10 45 41 10 05 15 33 78 81 16 90 1F AA 00 59 59 00 2C FF FF FF FF 2C FF FF FF FF FF FF FF 00 00 C2 16",
    );
    assert.ok(result.message.kind === "read-data-reply" && result.message.meterData);
    assert.equal(result.message.ser, 0xaa);
    assert.equal(result.message.meterData.currentTotal.value, "5959.00");
    assert.equal(result.message.meterData.settlementDayTotal.status, "absent");
    assert.equal(result.message.meterData.time.status, "absent");
    assert.equal(result.address, "78331505104145");
  });

  test("901F with a clock and trailing junk after 16 [file id 14547892808, Java resolver comment]", () => {
    const data = meterData(
      "68 10 69 00 01 07 17 20 00 81 16 1F 90 02 00 00 00 00 2C 00 00 00 00 2C 59 54 16 19 08 17 20 13 01 EF 16 52 4F",
    );
    assert.equal(data.time.value, "2017-08-19 16:54:59");
    assert.equal(data.status.valve, "abnormal");
  });

  test("901F clock values [file id 83574551, C# FrameCJT188_2004 test; file id 27556822879, Java ReceiveDataHelper]", () => {
    assert.equal(
      meterData(
        "68 10 88 05 27 10 15 20 00 81 16 90 1F 01 00 00 00 00 2C 00 00 00 00 2C 06 20 17 09 01 17 20 00 00 8E 16",
      ).time.value,
      "2017-01-09 17:20:06",
    );
    const odd = meterData(
      "68 10 01 00 23 09 18 20 00 81 16 90 1F 01 60 00 00 00 2C 60 00 00 00 2C 60 20 20 00 00 00 00 00 00 DC 16",
    );
    assert.equal(odd.currentTotal.value, "0.60");
    assert.equal(odd.time.status, "invalid", "second 60 is not a time");
  });

  test(`read request with DI 1F 90 and read-address reply [${FOX}]`, () => {
    const request = decoded("68 10 01 00 00 05 08 00 00 01 03 1F 90 00 39 16");
    assert.ok(request.message.kind === "read-data-request");
    assert.equal(request.message.diOrder, "little-endian");
    assert.equal(request.address, "00000805000001");
    const reply = decoded("68 10 01 00 00 05 08 00 00 83 03 81 0A 00 97 16");
    assert.equal(reply.message.kind, "read-address-reply");
  });

  test(`write address request (C=15, A018) [${FOX}, ${UART}]`, () => {
    const fox = decoded("68 10 02 00 00 05 08 00 00 15 0a a0 18 00 01 00 00 05 08 00 00 6C 16");
    assert.ok(fox.message.kind === "write-request");
    assert.equal(fox.message.di, "A018");
    assert.equal(fox.message.data, "01 00 00 05 08 00 00");
    const gas = decoded("FE FE FE 68 30 03 00 00 00 00 00 00 15 0A 18 A0 FF 05 00 00 00 00 00 00 76 16");
    assert.ok(gas.message.kind === "write-request");
    assert.equal(gas.message.diOrder, "little-endian");
    assert.equal(gas.meterTypeName, "gas meter");
  });

  test(`vendor valve control C=2A / AA with ST replies [${FOX_VALVE}]`, () => {
    const open = decoded("FE FE FE 68 10 01 00 00 05 08 00 00 2A 04 A0 17 00 55 C0 16");
    assert.ok(open.message.kind === "valve-control-request");
    assert.equal(open.message.command, "open");
    assert.equal(open.control.functionName, "vendor function 0x2A");
    const close = decoded("FE FE FE 68 10 01 00 00 05 08 00 00 2A 04 A0 17 00 99 04 16");
    assert.ok(close.message.kind === "valve-control-request" && close.message.command === "close");
    const closed = decoded("FE FE FE 68 10 01 00 00 05 08 00 00 AA 05 A0 17 00 01 FF EC 16");
    assert.ok(closed.message.kind === "valve-control-reply");
    assert.equal(closed.message.status?.valve, "closed");
    const opened = decoded("FE FE FE 68 10 01 00 00 05 08 00 00 AA 05 A0 17 00 00 FF EB 16");
    assert.ok(opened.message.kind === "valve-control-reply" && opened.message.status?.valve === "open");
  });

  test(`valve commands including vendor free open / close [${ZX}]`, () => {
    const command = (hex: string) => {
      const { message } = decoded(hex);
      return message.kind === "valve-control-request" ? message.command : null;
    };
    assert.equal(command("FE FE FE 68 10 01 13 12 19 00 00 00 04 04 A0 17 01 55 CC 16"), "open");
    assert.equal(command("FE FE FE 68 10 01 13 12 19 00 00 00 04 04 A0 17 01 99 10 16"), "close");
    assert.equal(command("FE FE FE 68 10 01 13 12 19 00 00 00 04 04 A0 17 01 66 DD 16"), "free-open");
    assert.equal(command("FE FE FE 68 10 01 13 12 19 00 00 00 04 04 A0 17 01 77 EE 16"), "free-close");
  });
});

describe("CJ/T 188 builders reproduce public frames", () => {
  const same = (built: Uint8Array, hex: string) => assert.equal(toHex(built), toHex(parseHex(hex)));

  test(`valve open / close, DI A0 17, SER 01 [${ZX}]`, () => {
    const options = { ser: 1, preamble: 3 };
    same(
      cjt188.buildValveControl("00000019121301", "open", options),
      "FE FE FE 68 10 01 13 12 19 00 00 00 04 04 A0 17 01 55 CC 16",
    );
    same(
      cjt188.buildValveControl("00000019121301", "close", options),
      "FE FE FE 68 10 01 13 12 19 00 00 00 04 04 A0 17 01 99 10 16",
    );
    same(
      cjt188.buildReadAddress({ meterType: 0x10, ser: 1, preamble: 3 }),
      "FE FE FE 68 10 AA AA AA AA AA AA AA 03 03 81 0A 01 B0 16",
    );
  });

  test(`gas meter with DI 17 A0 / 1F 90 (per-model little-endian order) [${UART}]`, () => {
    const options = { meterType: 0x30, diOrder: "little-endian", preamble: 3 } as const;
    same(
      cjt188.buildValveControl("00000000000003", "open", { ...options, ser: 1 }),
      "FE FE FE 68 30 03 00 00 00 00 00 00 04 04 17 A0 01 55 B0 16",
    );
    same(
      cjt188.buildValveControl("00000000000003", "close", { ...options, ser: 1 }),
      "FE FE FE 68 30 03 00 00 00 00 00 00 04 04 17 A0 01 99 F4 16",
    );
    same(
      cjt188.buildReadData("00000000000003", { ...options, ser: 0xff }),
      "FE FE FE 68 30 03 00 00 00 00 00 00 01 03 1F 90 FF 4D 16",
    );
  });

  test(`read data and read-address reply [${CJ94}]`, () => {
    same(
      cjt188.buildReadData("00002020120218", { preamble: 4 }),
      "FE FE FE FE 68 10 18 02 12 20 20 00 00 01 03 90 1F 00 97 16",
    );
    same(
      cjt188.buildReadAddress({ preamble: 4 }),
      "FE FE FE FE 68 AA AA AA AA AA AA AA AA 03 03 81 0A 00 49 16",
    );
    same(
      cjt188.buildReadAddressReply("00002020120218", { preamble: 4 }),
      "FE FE FE FE 68 10 18 02 12 20 20 00 00 83 03 81 0A 00 F5 16",
    );
  });

  test("901F reply of the SC meter example (https://hftangyu.com/563.html values, little-endian DI)", () => {
    same(
      cjt188.buildReadDataReply(
        "78330011223344",
        {
          currentTotal: "556677.00",
          settlementDayTotal: "556677",
          time: { year: 2015, month: 5, day: 11, hour: 22, minute: 1, second: 31 },
          status: { valve: "closed", batteryLow: true, vendorByte: 0x84 },
        },
        { diOrder: "little-endian", statusMap: { ...cjt188.STANDARD_STATUS_MAP, batteryLowMask: 0x20 } },
      ),
      "68 10 44 33 22 11 00 33 78 81 16 1F 90 00 00 77 66 55 2C 00 77 66 55 2C 31 01 22 11 05 15 20 21 84 13 16",
    );
  });
});
