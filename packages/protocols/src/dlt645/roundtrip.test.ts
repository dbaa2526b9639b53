import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { FieldInput } from "../values.ts";
import * as dlt645 from "./index.ts";

/** build → parse → decode gives back what was built, for every table row a prepaid system uses. */
const SAMPLES: [di: string, values: FieldInput[], expected: (string | null)[]][] = [
  ["00000000", ["-12.34"], ["-12.34"]],
  ["00010000", ["999999.99"], ["999999.99"]],
  ["00010100", ["1.01"], ["1.01"]],
  ["00010400", ["4.04"], ["4.04"]],
  ["0001FF00", ["10.00", "1.00", "2.00", "3.00", "4.00"], ["10.00", "1.00", "2.00", "3.00", "4.00"]],
  ["00020000", ["0.01"], ["0.01"]],
  ["02010100", ["220.1"], ["220.1"]],
  ["0201FF00", ["220.1", null, null], ["220.1", null, null]],
  ["02020100", ["-5.123"], ["-5.123"]],
  ["02030000", ["-1.2345"], ["-1.2345"]],
  ["02060000", ["0.987"], ["0.987"]],
  ["02800002", ["50.01"], ["50.01"]],
  ["04000101", [{ year: 2024, month: 2, day: 29 }], ["2024-02-29"]],
  ["04000102", [{ year: 2000, month: 1, day: 1, hour: 23, minute: 59, second: 58 }], ["23:59:58"]],
  ["04000401", ["201000000012"], ["201000000012"]],
  ["04000501", ["0014"], ["0014"]],
  ["04000503", ["1050"], ["1050"]],
  ["03300D00", ["12"], ["12"]],
  ["00900200", ["123.45"], ["123.45"]],
  ["00900201", ["0.50"], ["0.50"]],
  ["03330201", ["17"], ["17"]],
  ["03330601", ["1500.00"], ["1500.00"]],
  ["04001001", ["50.00"], ["50.00"]],
  ["04001002", ["20.00"], ["20.00"]],
  ["04001003", ["100.00"], ["100.00"]],
  ["04050101", ["0.5283"], ["0.5283"]],
  ["04050104", ["1.2000"], ["1.2000"]],
  ["05060001", [{ year: 2015, month: 10, day: 9 }], ["2015-10-09 00:00"]],
  ["05060101", ["1.29", "0.62"], ["1.29", "0.62"]],
  ["1D000001", ["3"], ["3"]],
  ["1D000101", [{ year: 2024, month: 5, day: 1, hour: 8, minute: 30, second: 0 }], ["2024-05-01 08:30:00"]],
  ["9010", ["0.15"], ["0.15"]],
  ["B611", ["220"], ["220"]],
  ["B630", ["1.2345"], ["1.2345"]],
  ["C011", [{ year: 2000, month: 1, day: 1, hour: 22, minute: 22, second: 4 }], ["22:22:04"]],
];

describe("DL/T 645 round trips", () => {
  for (const [di, values, expected] of SAMPLES) {
    test(`read reply ${di}`, () => {
      const frame = dlt645.parseFrame(dlt645.buildReadReply("201000000012", di, values, { preamble: 2 }));
      const decoded = dlt645.decodeReply(frame);
      assert.ok(decoded.message.kind === "read-reply");
      assert.equal(decoded.message.di, di);
      assert.deepEqual(
        decoded.message.fields.map((field) => field.value),
        expected,
      );
      assert.deepEqual(decoded.warnings, []);
      assert.ok(decoded.message.name, `DI ${di} has a name`);
    });
    test(`read request ${di}`, () => {
      const request = dlt645.parseFrame(dlt645.buildRead("20100000AAAA", di));
      const decoded = dlt645.decodeRequest(request);
      assert.ok(decoded.message.kind === "read-request");
      assert.equal(decoded.message.di, di);
      assert.equal(decoded.version, di.length === 4 ? "1997" : "2007");
      const reply = dlt645.parseFrame(dlt645.buildReadReply("201000001234", di, values));
      assert.ok(dlt645.isReplyTo(reply, request), "the reply matches the wildcard request");
    });
  }

  test("money keeps exact decimals through scaled integers", () => {
    const frame = dlt645.parseFrame(dlt645.buildReadReply("000000000001", dlt645.DI.BALANCE, [12345n]));
    const decoded = dlt645.decodeReply(frame);
    assert.ok(decoded.message.kind === "read-reply");
    const [balance] = decoded.message.fields;
    assert.ok(balance?.kind === "number");
    assert.equal(balance.value, "123.45");
    assert.equal(balance.scaled, 12345n);
    assert.equal(balance.scale, 2);
    assert.equal(balance.unit, "yuan");
  });

  test("a simulated meter answers requests, including error replies", () => {
    const meterAddress = "201000000012";
    const registers = new Map<string, FieldInput[]>([[dlt645.DI.BALANCE, ["88.80"]]]);
    const answer = (wire: Uint8Array): Uint8Array => {
      const request = dlt645.decodeRequest(dlt645.parseFrame(wire));
      if (request.message.kind === "read-address-request") return dlt645.buildReadAddressReply(meterAddress);
      if (request.message.kind !== "read-request")
        return dlt645.buildErrorReply(meterAddress, request.control.function, ["other"]);
      const values = registers.get(request.message.di);
      if (!values)
        return dlt645.buildErrorReply(meterAddress, request.control.function, ["no-requested-data"]);
      return dlt645.buildReadReply(meterAddress, request.message.di, values);
    };
    const address = dlt645.decodeReply(dlt645.parseFrame(answer(dlt645.buildReadAddress())));
    assert.deepEqual(address.message, { kind: "read-address-reply", address: meterAddress });
    const balance = dlt645.decodeReply(
      dlt645.parseFrame(answer(dlt645.buildRead(meterAddress, dlt645.DI.BALANCE))),
    );
    assert.ok(balance.message.kind === "read-reply");
    assert.equal(balance.message.fields[0]?.value, "88.80");
    const missing = dlt645.decodeReply(dlt645.parseFrame(answer(dlt645.buildRead(meterAddress, "12345678"))));
    assert.deepEqual(missing.message, {
      kind: "error-reply",
      error: { code: 0x02, flags: ["no-requested-data"] },
    });
    assert.equal(missing.control.raw, 0xd1);
  });
});
