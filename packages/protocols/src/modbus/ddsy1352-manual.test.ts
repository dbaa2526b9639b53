import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { runFrameCli } from "../cli/frame-core.ts";

/**
 * The Acrel DDSY1352 read the way its manual lays the registers out (T181 operation manual T1.0,
 * §8.1 address table), decoded by name with the field tool. The frames are written out byte by
 * byte from the table (big-endian words, high word first), with their CRC, not built by the codec.
 */
const decode = (hex: string, start: string) => {
  const result = runFrameCli([
    "decode",
    "--protocol",
    "modbus",
    hex,
    "--model",
    "ddsy1352",
    "--start",
    start,
  ]);
  assert.equal(result.exitCode, 0, result.stderr);
  return JSON.parse(result.stdout) as {
    values: { name: string; value: string; unit: string }[];
    prepaid?: Record<string, string>;
    relay?: string;
    modelConfidence?: string;
  };
};
const byName = (values: { name: string; value: string; unit: string }[]) =>
  Object.fromEntries(values.map((v) => [v.name, `${v.value} ${v.unit}`.trim()]));

describe("Acrel DDSY1352 by its manual's address table", () => {
  test("0000H..0010H: energies at 0.01 kWh, U at 0.1 V, I at 0.01 A, P and S at 0.001 kW/kVA, PF at 0.001", () => {
    // Slave 1 answers a read of 17 holding registers from 0000H (34 bytes).
    const reply = [
      "01 03 22",
      "0001 E240", // 0000H total 123456 × 0.01 = 1234.56 kWh
      "0000 2710", // 0002H spike 100.00
      "0000 9C72", // 0004H peak 400.50
      "0000 C356", // 0006H flat 500.06
      "0000 5B68", // 0008H valley 234.00
      "0001", // 000AH code (not a measurement)
      "089D", // 000BH U 2205 × 0.1 = 220.5 V
      "0200", // 000CH I 512 × 0.01 = 5.12 A
      "0466", // 000DH P 1126 × 0.001 = 1.126 kW
      "0000", // 000EH not in the table
      "046A", // 000FH S 1130 × 0.001 = 1.13 kVA
      "03E4", // 0010H PF 996 × 0.001 = 0.996
      "70D0", // CRC, low byte first
    ].join(" ");
    const out = decode(reply, "0x0000");
    assert.deepEqual(byName(out.values), {
      "forward active energy": "1234.56 kWh",
      "spike active energy": "100.00 kWh",
      "peak active energy": "400.50 kWh",
      "flat active energy": "500.06 kWh",
      "valley active energy": "234.00 kWh",
      voltage: "220.5 V",
      current: "5.12 A",
      "active power": "1.126 kW",
      "apparent power": "1.130 kVA",
      "power factor": "0.996",
    });
  });

  test("the prepaid registers decode by name and by role: an overdraft reads negative", () => {
    // Slave 1 answers a read of 6 registers from the remaining amount on.
    const reply = [
      "01 03 0C",
      "FFFF FB2E", // remaining amount, int32 -1234 × 0.01 = -12.34 yuan
      "0007", // purchase count 7
      "0000 1450", // unit price 5200 × 0.0001 = 0.52 yuan/kWh
      "0001", // relay state: tripped
      "E414", // CRC, low byte first
    ].join(" ");
    const out = decode(reply, "0x0040");
    assert.deepEqual(byName(out.values), {
      "remaining amount": "-12.34 yuan",
      "purchase count": "7 count",
      "unit price": "0.5200 yuan/kWh",
      "relay state": "1",
    });
    assert.deepEqual(out.prepaid, { remainingAmount: "-12.34 yuan", purchaseCount: "7 count" });
    assert.equal(out.relay, "off");
    assert.match(out.modelConfidence ?? "", /unverified/, "the prepaid map is not confirmed on a meter yet");
  });

  test("a frame with one byte changed is refused for its CRC, not decoded", () => {
    const result = runFrameCli([
      "decode",
      "--protocol",
      "modbus",
      "01 03 0C FFFF FB2F 0007 0000 1450 0001 E414",
      "--model",
      "ddsy1352",
      "--start",
      "0x0040",
    ]);
    assert.equal(result.exitCode, 1);
    assert.match(JSON.parse(result.stderr).error.message, /CRC is wrong/);
  });
});
