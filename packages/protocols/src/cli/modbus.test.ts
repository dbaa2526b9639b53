import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { parseHex, toHex } from "../hex.ts";
import * as modbus from "../modbus/index.ts";
import { runFrameCli } from "./frame-core.ts";

const run = (...argv: string[]) => runFrameCli(argv);
const json = (...argv: string[]) => {
  const result = run(...argv);
  assert.equal(result.exitCode, 0, result.stderr);
  return JSON.parse(result.stdout);
};

describe("frame CLI, Modbus", () => {
  test("decode an RTU request: slave, function by name, address and quantity (spec V1.1b3 §6.3)", () => {
    assert.deepEqual(json("decode", "--protocol", "modbus", "01 03 00 6B 00 03 74 17"), {
      protocol: "Modbus-RTU",
      slave: 1,
      crc: "ok",
      direction: "request",
      function: "0x03 read holding registers",
      address: "0x006B",
      quantity: 3,
    });
  });

  test("decode an MBAP reply with --transport tcp: transaction, unit, byte count and registers", () => {
    const out = json(
      "decode",
      "--protocol",
      "modbus",
      "--transport",
      "tcp",
      "00 01 00 00 00 09 11 03 06 02 2B 00 00 00 64",
    );
    assert.equal(out.protocol, "Modbus TCP");
    assert.deepEqual([out.transactionId, out.unitId, out.direction], [1, 17, "reply"]);
    assert.equal(out.byteCount, 6);
    assert.deepEqual(out.registers, ["0x022B", "0x0000", "0x0064"]);
  });

  test("an exception reply is named", () => {
    const frame = toHex(modbus.buildRtuFrame(1, Uint8Array.of(0x81, 0x02)));
    const out = json("decode", "--protocol", "modbus", frame);
    assert.equal(out.function, "0x81 exception to read coils");
    assert.equal(out.exception, "0x02 illegal data address");
  });

  test("a bad CRC is refused with a message saying so", () => {
    const result = run("decode", "--protocol", "modbus", "01 03 00 6B 00 03 74 18");
    assert.equal(result.exitCode, 1);
    const error = JSON.parse(result.stderr).error;
    assert.equal(error.code, "checksum");
    assert.match(error.message, /CRC is wrong/);
  });

  test("with --model and --start a register reply prints the values by name", () => {
    const model = modbus.findModel(modbus.loadCatalogue(), "dtsu666");
    const registers = new Array(12).fill(0);
    const voltageA = model.registers.find((r) => r.name === "voltage A")!;
    registers.splice(0, 2, ...modbus.encodeRegisterValue(voltageA, "230.2"));
    const reply = modbus.buildRtuFrame(
      1,
      modbus.encodeReply({ kind: "read-registers", functionCode: 3, byteCount: 24, registers }),
    );
    const out = json(
      "decode",
      "--protocol",
      "modbus",
      toHex(reply),
      "--model",
      "DTSU666",
      "--start",
      "0x2006",
    );
    assert.equal(out.model, "DTSU666");
    assert.deepEqual(out.values[0], {
      name: "voltage A",
      value: "230.2",
      unit: "V",
      scaled: "2302",
      scale: 1,
    });
    assert.deepEqual(
      out.values.map((v: { name: string }) => v.name),
      ["voltage A", "voltage B", "voltage C", "current A", "current B", "current C"],
    );
    assert.equal(run("decode", "--protocol", "modbus", toHex(reply), "--model", "DTSU666").exitCode, 1);
    const request = json("decode", "--protocol", "modbus", "01 03 20 06 00 0C AE 0E", "--model", "dtsu666");
    assert.deepEqual(request.covers, [
      "0x2006 voltage A",
      "0x2008 voltage B",
      "0x200A voltage C",
      "0x200C current A",
      "0x200E current B",
      "0x2010 current C",
    ]);
  });

  test("encode builds reads and writes for RTU and TCP", () => {
    const hex = (...argv: string[]) => {
      const result = run("encode", "--protocol", "modbus", ...argv);
      assert.equal(result.exitCode, 0, result.stderr);
      return result.stdout;
    };
    assert.equal(hex("read-holding", "--address", "0x6B", "--quantity", "3"), "01 03 00 6B 00 03 74 17");
    assert.equal(
      hex("read-holding", "--slave", "17", "--address", "107", "--quantity", "3", "--transport", "tcp"),
      "00 01 00 00 00 06 11 03 00 6B 00 03",
    );
    const coil = modbus.decodeRequest(
      modbus.parseRtuFrame(parseHex(hex("write-coil", "--address", "0xAC", "--value", "on"))).pdu,
    );
    assert.deepEqual(coil, { kind: "write-single-coil", functionCode: 5, address: 0xac, value: true });
    const registers = modbus.parseRtuFrame(
      parseHex(hex("write-registers", "--address", "1", "--values", "10,0x0102")),
    );
    assert.equal(toHex(registers.pdu), "10 00 01 00 02 04 00 0A 01 02");
    const span = modbus.decodeRequest(
      modbus.parseRtuFrame(parseHex(hex("read-model", "--model", "sdm120", "--names", "voltage,frequency")))
        .pdu,
    );
    assert.deepEqual(span, { kind: "read", functionCode: 4, address: 0, quantity: 0x48 });
    assert.equal(run("encode", "--protocol", "modbus", "read-holding").exitCode, 1);
    assert.match(run("--help").stdout, /write-registers/);
  });
});
