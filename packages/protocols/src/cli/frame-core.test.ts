import assert from "node:assert/strict";
import { describe, test } from "node:test";
import * as dlt645 from "../dlt645/index.ts";
import { toHex } from "../hex.ts";
import { runFrameCli } from "./frame-core.ts";

const run = (...argv: string[]) => runFrameCli(argv, new Date(2024, 4, 1, 8, 0, 0));
const json = (...argv: string[]) => {
  const result = run(...argv);
  assert.equal(result.exitCode, 0, result.stderr);
  return JSON.parse(result.stdout);
};

describe("frame CLI core", () => {
  test("--help and no arguments print usage", () => {
    for (const argv of [["--help"], [], ["decode", "-h"]]) {
      const result = run(...argv);
      assert.equal(result.exitCode, 0);
      assert.match(result.stdout, /npm run frame -- decode/);
      assert.match(result.stdout, /relay-trip/);
    }
  });

  test("decode a DL/T 645 reply with FE preamble, as separate argv words", () => {
    const out = json(
      "decode",
      ..."FE FE FE FE 68 43 10 00 11 34 00 68 91 06 33 34 34 35 CA 55 EE 16".split(" "),
    );
    assert.equal(out.protocol, "DL/T 645-2007");
    assert.equal(out.address, "003411001043");
    assert.equal(out.control, "0x91");
    assert.equal(out.direction, "meter->master");
    assert.deepEqual(out.identifier, { di: "02010100", name: "voltage phase A" });
    assert.deepEqual(out.values, [
      { name: "voltage phase A", value: "229.7", unit: "V", scaled: "2297", scale: 1 },
    ]);
    assert.equal(out.error, null);
  });

  test("decode hex without spaces, balance and error replies", () => {
    const balance = json(
      "decode",
      toHex(dlt645.buildReadReply("201000000012", dlt645.DI.BALANCE, ["43.21"]), ""),
    );
    assert.equal(balance.identifier.name, "balance");
    assert.deepEqual(balance.values, [
      { name: "balance", value: "43.21", unit: "yuan", scaled: "4321", scale: 2 },
    ]);
    const error = json("decode", "6812907856341268D101358D16");
    assert.deepEqual(error.error, { code: 2, flags: ["no-requested-data"] });
  });

  test("decode CJ/T 188 with auto detection and --protocol forcing", () => {
    const hex =
      "68 10 44 33 22 11 00 33 78 81 16 1F 90 00 00 77 66 55 2C 00 77 66 55 2C 31 01 22 11 05 15 20 21 84 13 16";
    const out = json("decode", hex);
    assert.equal(out.protocol, "CJ/T 188-2004");
    assert.equal(out.identifier.byteOrder, "little-endian");
    assert.deepEqual(out.values[0], {
      name: "current total",
      value: "556677.00",
      unit: "m³",
      scaled: "55667700",
      scale: 2,
    });
    const forced = run("decode", hex, "--protocol", "dlt645");
    assert.equal(forced.exitCode, 1);
    assert.match(forced.stderr, /"code": "bad-header"/);
  });

  test("decode 1997 and several frames in one paste", () => {
    const out = json(
      "decode",
      "68 54 07 13 00 80 13 68 01 02 43 C3 DA 16 68 54 07 13 00 80 13 68 81 06 43 C3 34 33 33 33 2B 16",
    );
    assert.equal(out.length, 2);
    assert.equal(out[0].protocol, "DL/T 645-1997");
    assert.equal(out[1].values[0].value, "0.01");
  });

  test("decode errors are typed JSON on stderr with exit code 1", () => {
    const result = run("decode", "68 AA AA AA AA AA AA 68 11 04 33 33 34 33 AF 16");
    assert.equal(result.exitCode, 1);
    assert.equal(JSON.parse(result.stderr).error.code, "checksum");
    assert.equal(JSON.parse(run("decode", "zz").stderr).error.code, "bad-hex");
    assert.equal(run("decode").exitCode, 1);
    assert.equal(run("decode", "68", "--protocol", "modbus").exitCode, 1);
  });

  test("encode the common requests", () => {
    const hex = (...argv: string[]) => {
      const result = run("encode", ...argv);
      assert.equal(result.exitCode, 0, result.stderr);
      return result.stdout;
    };
    assert.equal(
      hex("read-energy", "--address", "201000000012"),
      "68 12 00 00 00 10 20 68 11 04 33 33 34 33 F4 16",
    );
    assert.equal(
      hex("read-energy", "--address", "999999999999", "--version", "1997"),
      "68 99 99 99 99 99 99 68 01 02 43 C3 6F 16",
    );
    assert.equal(
      hex("read-balance", "--address", "201000000012"),
      "68 12 00 00 00 10 20 68 11 04 33 35 C3 33 85 16",
    );
    assert.match(hex("read-status", "--address", "201000000012"), /68 11 04 36 38 33 37/);
    assert.equal(hex("read-address", "--preamble", "4"), "FE FE FE FE 68 AA AA AA AA AA AA 68 13 00 DF 16");
    assert.match(hex("read-address", "--version", "1997"), /68 99 99 99 99 99 99 68 01 02 65 F3/);
    assert.equal(
      hex("relay-trip", "--address", "111111111111", "--level", "00", "--valid-until", "2018-05-12 15:41:24"),
      "68 11 11 11 11 11 11 68 1C 10 33 33 33 33 33 33 33 33 4D 33 57 74 48 45 38 4B 55 16",
    );
    assert.equal(
      hex(
        "relay-close",
        "--address",
        "151230011061",
        "--password",
        "020637",
        "--operator",
        "00000001",
        "--valid-until",
        "2099-12-30",
      ),
      "68 61 10 01 30 12 15 68 1C 10 35 6A 39 35 34 33 33 33 4E 33 33 33 33 63 45 CC 2D 16",
    );
    // Default deadline: now + 10 minutes (2024-05-01 08:10:00 local), 33 43 3B 34 38 57 after +0x33.
    assert.match(hex("relay-trip", "--address", "111111111111"), /4D 33 33 43 3B 34 38 57/);
    assert.equal(
      hex("broadcast-time", "--time", "2017-06-05 10:22:51"),
      "68 99 99 99 99 99 99 68 08 06 84 55 43 38 39 4A 4B 16",
    );
    assert.equal(
      hex("water-read", "--address", "00002020120218", "--preamble", "4"),
      "FE FE FE FE 68 10 18 02 12 20 20 00 00 01 03 90 1F 00 97 16",
    );
    assert.equal(
      hex("valve-open", "--address", "00000019121301", "--ser", "1", "--preamble", "3"),
      "FE FE FE 68 10 01 13 12 19 00 00 00 04 04 A0 17 01 55 CC 16",
    );
    assert.equal(
      hex(
        "valve-close",
        "--address",
        "00000000000003",
        "--type",
        "30",
        "--ser",
        "1",
        "--di-order",
        "little-endian",
      ),
      "68 30 03 00 00 00 00 00 00 04 04 17 A0 01 99 F4 16",
    );
    assert.equal(
      hex("water-read-address", "--preamble", "4"),
      "FE FE FE FE 68 AA AA AA AA AA AA AA AA 03 03 81 0A 00 49 16",
    );
    assert.equal(hex("read", "--address", "1", "--di", "B611"), "68 01 00 00 00 00 00 68 01 02 44 E9 01 16");
  });

  test("encode errors", () => {
    assert.equal(run("encode", "teleport").exitCode, 1);
    assert.equal(JSON.parse(run("encode", "read-energy").stderr).error.code, "bad-argument");
    assert.equal(run("encode", "relay-trip", "--address", "1", "--version", "1997").exitCode, 1);
    assert.equal(run("encode", "valve-open", "--address", "1", "--di-order", "sideways").exitCode, 1);
    assert.equal(run("encode", "read-energy", "--address").exitCode, 1);
    assert.equal(run("frobnicate").exitCode, 1);
  });
});
