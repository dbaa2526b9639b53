import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { describe, test } from "node:test";
import { decodeAll } from "./detect.ts";
import { parseHex } from "./hex.ts";
import { valueMap } from "./test-helpers.ts";

/**
 * Every sample frame of ../shared/reference/vectors (copied to ./fixtures so the suite runs
 * anywhere; the copy is checked against the shared file when it is present).
 */
interface Vector {
  hex: string;
  protocol: string;
  direction: string;
  source: string;
}
const load = (name: string): Vector[] =>
  JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), "utf8"));
const dlt645Vectors = load("reference-dlt645.json");
const cjt188Vectors = load("reference-cjt188.json");

/** What each vector must decode to: message kind, identifier and values (in vector order). */
const DLT645_EXPECTED: [kind: string, di: string | null, values: Record<string, string | null>][] = [
  ["read-request", "00010000", {}],
  ["read-reply", "00010000", { "forward active energy total": "0.00 kWh" }],
  ["read-request", "00000000", {}],
  ["read-request", "00010000", {}],
  ["read-reply", "00010000", { "forward active energy total": "112280.26 kWh" }],
  ["read-request", "0001FF00", {}],
  [
    "read-reply",
    "0001FF00",
    {
      total: "1.29 kWh",
      "tariff 1": "0.62 kWh",
      "tariff 2": "0.60 kWh",
      "tariff 3": "0.03 kWh",
      "tariff 4": "0.02 kWh",
    },
  ],
  ["read-request", "02010100", {}],
  ["read-reply", "02010100", { "voltage phase A": "229.7 V" }],
  ["read-reply", "04000101", { "date and weekday": "2016-01-11" }],
  ["read-request", "05060001", {}],
  ["read-reply", "05060001", { "last daily freeze time": "2015-10-09 00:00" }],
  ["read-request", "00900200", {}],
  ["read-address-request", null, {}],
  ["read-address-reply", null, {}],
  ["relay-control-request", null, {}],
  ["relay-control-ack", null, {}],
  ["broadcast-time", null, {}],
  ["read-request", "B611", {}],
  ["read-reply", "B613", { "voltage phase C": "220 V" }],
  ["read-request", "9010", {}],
  ["read-reply", "9010", { "forward active energy total": "0.01 kWh" }],
  ["error-reply", null, {}],
];

const CJT188_EXPECTED: [kind: string, di: string, order: string][] = [
  ["read-data-request", "901F", "little-endian"],
  ["valve-control-request", "A017", "big-endian"],
  ["read-address-request", "810A", "big-endian"],
  ["read-data-request", "901F", "big-endian"],
  ["read-data-reply", "901F", "big-endian"],
  ["read-address-request", "810A", "big-endian"],
  ["read-address-reply", "810A", "big-endian"],
];

describe("reference vectors (shared/reference/vectors)", () => {
  test("the fixture copies match the shared files when present", () => {
    for (const name of ["dlt645", "cjt188"]) {
      const shared = new URL(`../../../../shared/reference/vectors/${name}.json`, import.meta.url);
      if (!existsSync(shared)) continue;
      assert.deepEqual(load(`reference-${name}.json`), JSON.parse(readFileSync(shared, "utf8")));
    }
  });

  test("every vector has an expectation", () => {
    assert.equal(dlt645Vectors.length, DLT645_EXPECTED.length);
    assert.equal(cjt188Vectors.length, CJT188_EXPECTED.length);
  });

  dlt645Vectors.forEach((vector, i) => {
    test(`DL/T 645 #${i} ${vector.hex.slice(0, 32)}… (${vector.source.split(":")[0]})`, () => {
      const [decoded] = decodeAll(parseHex(vector.hex));
      assert.ok(decoded && decoded.protocol === "dlt645");
      const [kind, di, values] = DLT645_EXPECTED[i]!;
      assert.equal(decoded.control.direction, vector.direction);
      assert.equal(`DL/T 645-${decoded.version}`, vector.protocol.replace(/ \(.*/, ""));
      assert.equal(decoded.message.kind, kind);
      assert.equal("di" in decoded.message ? decoded.message.di : null, di);
      if ("fields" in decoded.message) assert.deepEqual(valueMap(decoded.message.fields), values);
    });
  });

  cjt188Vectors.forEach((vector, i) => {
    test(`CJ/T 188 #${i} ${vector.hex.slice(0, 32)}…`, () => {
      const [decoded] = decodeAll(parseHex(vector.hex));
      assert.ok(decoded && decoded.protocol === "cjt188");
      const [kind, di, order] = CJT188_EXPECTED[i]!;
      assert.equal(decoded.control.direction, vector.direction);
      assert.equal(decoded.message.kind, kind);
      assert.ok("di" in decoded.message);
      assert.equal(decoded.message.di, di);
      assert.equal(decoded.message.diOrder, order);
    });
  });

  test("decoded details of the vectors with structured fields", () => {
    const [addressReply] = decodeAll(parseHex(dlt645Vectors[14]!.hex));
    assert.ok(addressReply?.protocol === "dlt645" && addressReply.message.kind === "read-address-reply");
    assert.equal(addressReply.message.address, "201000000012");

    const [relay] = decodeAll(parseHex(dlt645Vectors[15]!.hex));
    assert.ok(relay?.protocol === "dlt645" && relay.message.kind === "relay-control-request");
    assert.deepEqual(relay.message.relay, {
      passwordLevel: 0,
      password: "000000",
      operator: "00000000",
      command: "trip",
      commandCode: 0x1a,
      reserved: 0,
      validUntil: "2018-05-12 15:41:24",
      validUntilStatus: "ok",
    });

    const [broadcast] = decodeAll(parseHex(dlt645Vectors[17]!.hex));
    assert.ok(broadcast?.protocol === "dlt645" && broadcast.message.kind === "broadcast-time");
    assert.equal(broadcast.message.time, "2017-06-05 10:22:51");
    assert.equal(broadcast.address, "999999999999");

    const [quirk] = decodeAll(parseHex(dlt645Vectors[18]!.hex));
    assert.equal(quirk?.warnings.length, 1, "C=0x11 with a 2-byte DI is flagged");

    const [error1997] = decodeAll(parseHex(dlt645Vectors[22]!.hex));
    assert.ok(error1997?.protocol === "dlt645" && error1997.message.kind === "error-reply");
    assert.deepEqual(error1997.message.error, { code: 0x02, flags: ["di-error"] });

    const [water] = decodeAll(parseHex(cjt188Vectors[4]!.hex));
    assert.ok(
      water?.protocol === "cjt188" && water.message.kind === "read-data-reply" && water.message.meterData,
    );
    const data = water.message.meterData;
    assert.equal(data.currentTotal.value, "1000.10"); // 10 00 10 00, LSB first

    assert.equal(data.currentTotal.unit, "m³");
    assert.equal(data.currentTotal.scaled, 100010n);
    assert.equal(data.time.status, "absent");
    assert.equal(data.status.raw, "00FF");
    assert.equal(data.status.valve, "open");
    assert.equal(water.meterTypeName, "cold water meter");
  });
});
