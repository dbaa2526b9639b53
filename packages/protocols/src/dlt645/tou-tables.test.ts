import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import { dltAddress, RUNS } from "../test-arbitraries.ts";
import * as dlt645 from "./index.ts";

const hex = (bytes: Uint8Array) => [...bytes].map((b) => b.toString(16).padStart(2, "0")).join(" ");

/** Day tables a meter holds: 1..14 ascending period starts, each with a tariff 1..63. */
const dayTable = fc
  .uniqueArray(fc.integer({ min: 0, max: 1439 }), { minLength: 1, maxLength: 14 })
  .chain((starts) =>
    fc.tuple(
      fc.constant([...starts].sort((a, b) => a - b)),
      fc.array(fc.integer({ min: 1, max: 63 }), { minLength: starts.length, maxLength: starts.length }),
    ),
  )
  .map(([starts, tariffs]) => starts.map((start, i) => ({ start, tariff: tariffs[i]! })));

const zoneTable = fc.array(
  fc.record({
    month: fc.integer({ min: 1, max: 12 }),
    day: fc.integer({ min: 1, max: 31 }),
    table: fc.integer({ min: 1, max: 8 }),
  }),
  { minLength: 1, maxLength: 14 },
);

const credentials = { passwordLevel: 2, password: "000000", operator: "12345678" } as const;

describe("DL/T 645-2007 time-of-use tables: year zones and day periods", () => {
  test("round trip: any day table comes back from its 0x14 write and from the meter's read reply", () => {
    fc.assert(
      fc.property(dltAddress, dayTable, fc.integer({ min: 1, max: 8 }), (address, periods, n) => {
        const di = dlt645.dayTableDi(n);
        const value = dlt645.dayTableValue(periods);
        const write = dlt645.parseFrame(
          dlt645.buildWrite(address, di, dlt645.touTableInputs(di, value), credentials),
        );
        assert.equal(write.control, 0x14);
        assert.equal(write.data.length, 12 + 3 * periods.length);
        const request = dlt645.decodeRequest(write);
        assert.ok(request.message.kind === "write-request");
        assert.equal(request.message.di, di);
        assert.equal(dlt645.touTableValue(di, request.message.fields), value);
        assert.deepEqual(dlt645.parseDayTable(value), periods);

        const reply = dlt645.decodeReply(
          dlt645.parseFrame(dlt645.buildReadReply(address, di, dlt645.touTableInputs(di, value))),
        );
        assert.ok(reply.message.kind === "read-reply");
        assert.equal(dlt645.touTableValue(di, reply.message.fields), value);
      }),
      RUNS,
    );
  });

  test("round trip: any year zone table comes back from its write", () => {
    fc.assert(
      fc.property(dltAddress, zoneTable, (address, zones) => {
        const di = dlt645.zoneTableDi();
        const value = dlt645.zoneTableValue(zones);
        const request = dlt645.decodeRequest(
          dlt645.parseFrame(dlt645.buildWrite(address, di, dlt645.touTableInputs(di, value), credentials)),
        );
        assert.ok(request.message.kind === "write-request");
        assert.equal(dlt645.touTableValue(di, request.message.fields), value);
        assert.deepEqual(
          dlt645.parseZoneTable(value),
          zones.map((zone) => ({ ...zone })),
        );
      }),
      RUNS,
    );
  });

  test("the tariff in force is the last period started, and before the first one the day's last period", () => {
    fc.assert(
      fc.property(dayTable, fc.integer({ min: 0, max: 1439 }), (periods, minute) => {
        const started = periods.filter((p) => p.start <= minute);
        const expected = (started.length > 0 ? started : periods).at(-1)!.tariff;
        assert.equal(dlt645.tariffAt(periods, minute), expected);
      }),
      RUNS,
    );
  });

  test("day table 1 of 00:00 valley, 08:00 flat is the bytes the standard lays out (NN mm hh per entry)", () => {
    const di = dlt645.dayTableDi(1);
    assert.equal(di, "04010001");
    const frame = dlt645.parseFrame(
      dlt645.buildWrite("000000000001", di, dlt645.touTableInputs(di, "000004,080003"), {
        passwordLevel: 2,
        password: "000000",
        operator: "00000000",
      }),
    );
    // 04010001 → 01 00 01 04; hhmmNN low byte first: 00:00 tariff 4 → 04 00 00, 08:00 tariff 3 → 03 00 08.
    assert.equal(hex(frame.data), "01 00 01 04 02 00 00 00 00 00 00 00 04 00 00 03 00 08");
  });

  test("year zone table and counts are the standard's identifiers and layouts", () => {
    assert.equal(dlt645.zoneTableDi(), "04010000");
    assert.equal(dlt645.zoneTableDi(2), "04020000");
    assert.equal(dlt645.dayTableDi(8, 2), "04020008");
    const zones = dlt645.parseFrame(
      dlt645.buildWrite("000000000001", "04010000", dlt645.touTableInputs("04010000", "010101,070102"), {
        passwordLevel: 2,
        password: "000000",
        operator: "00000000",
      }),
    );
    // MMDDNN low byte first: 1 Jan table 1 → 01 01 01, 1 Jul table 2 → 02 01 07.
    assert.equal(hex(zones.data.subarray(12)), "01 01 01 02 01 07");
    const count = dlt645.parseFrame(
      dlt645.buildWrite("000000000001", dlt645.TOU_COUNT_DI.periods, ["8"], {
        passwordLevel: 2,
        password: "000000",
        operator: "00000000",
      }),
    );
    assert.equal(hex(count.data), "03 02 00 04 02 00 00 00 00 00 00 00 08");
    assert.equal(dlt645.lookup2007("04000205")?.fields[0]?.format.kind, "number");
  });

  test("tables no meter holds are refused before a frame is built", () => {
    assert.throws(() => dlt645.dayTableValue([]), RangeError);
    assert.throws(
      () => dlt645.dayTableValue(Array.from({ length: 15 }, (_, i) => ({ start: i * 60, tariff: 1 }))),
      RangeError,
    );
    assert.throws(() => dlt645.dayTableValue([{ start: 0, tariff: 0 }]), RangeError);
    assert.throws(() => dlt645.touTableInputs("04010001", "240004"), RangeError);
    assert.throws(() => dlt645.touTableInputs("04010001", "006004"), RangeError);
    assert.throws(() => dlt645.touTableInputs("04010000", "130101"), RangeError);
    assert.throws(() => dlt645.touTableInputs("04010000", "010109"), RangeError);
    assert.throws(() => dlt645.touTableInputs("04000203", "000001"), RangeError);
    assert.throws(() => dlt645.dayTableDi(9), RangeError);
    assert.equal(dlt645.touTableKind("04010009"), undefined);
    assert.equal(dlt645.touTableKind("04030001"), undefined);
  });
});
