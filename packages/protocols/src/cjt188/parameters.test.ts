import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import { toHex } from "../hex.ts";
import { cjtAddress, RUNS } from "../test-arbitraries.ts";
import * as cjt188 from "./index.ts";

const ADDRESS = "78330011223344";
const cents = (max: bigint) =>
  fc.bigInt({ min: 0n, max }).map((n) => `${n / 100n}.${(n % 100n).toString().padStart(2, "0")}`);
const price = cents(999_999n);
const threshold = fc.integer({ min: 0, max: 999_999 }).map(String);
const amount = cents(99_999_999n);
const diOrder = fc.constantFrom<cjt188.DiOrder>("big-endian", "little-endian");
const ser = fc.integer({ min: 0, max: 255 });

const request = (wire: Uint8Array) => cjt188.decodeRequest(cjt188.parseFrame(wire)).message;
const reply = (wire: Uint8Array) => cjt188.decodeReply(cjt188.parseFrame(wire)).message;

describe("CJ/T 188 water meter parameters: price table (A010 / 8102), alarm amounts (vendor A0F1 / 81F1)", () => {
  test("round trip: any price table written with A010 comes back from the frame, in either DI order", () => {
    fc.assert(
      fc.property(
        cjtAddress,
        fc.tuple(price, price, price),
        fc.tuple(threshold, threshold),
        fc.integer({ min: 1, max: 31 }),
        diOrder,
        ser,
        (address, prices, thresholds, startDay, order, s) => {
          const write = { prices, thresholds, startDay };
          const wire = cjt188.buildWritePriceTable(address, write, { diOrder: order, ser: s });
          const message = request(wire);
          assert.ok(message.kind === "write-request");
          assert.deepEqual([message.di, message.ser, message.diOrder], ["A010", s, order]);
          assert.deepEqual(message.priceWrite, write);
        },
      ),
      RUNS,
    );
  });

  test("round trip: the meter's 8102 answer carries the same table back", () => {
    fc.assert(
      fc.property(
        cjtAddress,
        fc.tuple(price, price, price),
        fc.tuple(threshold, threshold),
        diOrder,
        ser,
        (address, prices, thresholds, order, s) => {
          const wire = cjt188.buildPriceTableReply(
            address,
            { prices, thresholds },
            { diOrder: order, ser: s },
          );
          const request = cjt188.parseFrame(
            cjt188.buildReadData(address, { di: "8102", diOrder: order, ser: s }),
          );
          assert.ok(cjt188.isReplyTo(cjt188.parseFrame(wire), request));
          const message = reply(wire);
          assert.ok(message.kind === "read-data-reply");
          assert.deepEqual(message.priceTable, { prices, thresholds });
        },
      ),
      RUNS,
    );
  });

  test("round trip: alarm amounts written with A0F1 and read back with 81F1", () => {
    fc.assert(
      fc.property(cjtAddress, amount, amount, diOrder, ser, (address, first, second, order, s) => {
        const options = { diOrder: order, ser: s };
        const written = request(cjt188.buildWriteAlarmAmounts(address, { first, second }, options));
        assert.ok(written.kind === "write-request");
        assert.deepEqual([written.di, written.alarmAmounts], ["A0F1", { first, second }]);
        const answered = reply(cjt188.buildAlarmAmountsReply(address, { first, second }, options));
        assert.ok(answered.kind === "read-data-reply");
        assert.deepEqual([answered.di, answered.alarmAmounts], ["81F1", { first, second }]);
      }),
      RUNS,
    );
  });

  test("pinned frames: price table write, its read and answer, alarm write and answer, acknowledgement", () => {
    const table: cjt188.WaterPriceTable = { prices: ["3.45", "4.83", "5.99"], thresholds: ["180", "260"] };
    // 3.45 yuan → 45 03 00, 180 m³ → 80 01 00 (BCD, least significant byte first), start day 01.
    assert.equal(
      toHex(cjt188.buildWritePriceTable(ADDRESS, { ...table, startDay: 1 }, { ser: 0x21 })),
      "68 10 44 33 22 11 00 33 78 04 13 A0 10 21 45 03 00 80 01 00 83 04 00 60 02 00 99 05 00 01 06 16",
    );
    assert.equal(
      toHex(cjt188.buildReadData(ADDRESS, { di: "8102", ser: 0x22 })),
      "68 10 44 33 22 11 00 33 78 01 03 81 02 22 76 16",
    );
    assert.equal(
      toHex(cjt188.buildPriceTableReply(ADDRESS, table, { ser: 0x22 })),
      "68 10 44 33 22 11 00 33 78 81 12 81 02 22 45 03 00 80 01 00 83 04 00 60 02 00 99 05 00 55 16",
    );
    assert.equal(
      toHex(cjt188.buildWriteAlarmAmounts(ADDRESS, { first: "50.00", second: "20.50" }, { ser: 0x23 })),
      "68 10 44 33 22 11 00 33 78 04 0B A0 F1 23 00 50 00 00 50 20 00 00 50 16",
    );
    assert.equal(
      toHex(cjt188.buildAlarmAmountsReply(ADDRESS, { first: "50.00", second: "20.50" }, { ser: 0x24 })),
      "68 10 44 33 22 11 00 33 78 81 0B 81 F1 24 00 50 00 00 50 20 00 00 AF 16",
    );
    const ack = cjt188.buildWriteReply(ADDRESS, "A010", { valve: "closed" }, { ser: 0x21 });
    assert.equal(toHex(ack), "68 10 44 33 22 11 00 33 78 84 05 A0 10 21 01 00 28 16");
    const message = reply(ack);
    assert.ok(message.kind === "write-reply");
    assert.equal(message.status?.valve, "closed", "the acknowledgement carries ST, valve bits decoded");
  });

  test("values no field holds are refused when the frame is built; odd payloads decode to nothing", () => {
    const table = { prices: ["3.45", "4.83", "5.99"], thresholds: ["180", "260"] } as const;
    const build = (change: object) =>
      cjt188.buildWritePriceTable(ADDRESS, {
        prices: [...table.prices],
        thresholds: [...table.thresholds],
        startDay: 1,
        ...change,
      } as cjt188.WaterPriceWrite);
    assert.throws(() => build({ prices: ["10000.00", "1", "1"] }), /bad-argument|fit/);
    assert.throws(() => build({ prices: ["3.456", "1", "1"] }), /decimal|places|bad-argument/);
    assert.throws(() => build({ thresholds: ["1000000", "1"] }), /bad-argument|fit/);
    assert.throws(() => build({ startDay: 32 }), /start day/);
    assert.throws(() => build({ startDay: 0 }), /start day/);
    assert.throws(
      () => cjt188.buildWriteAlarmAmounts(ADDRESS, { first: "1000000.00", second: "0" }),
      /bad-argument|fit/,
    );
    assert.equal(cjt188.decodePriceTable(new Uint8Array(14)), undefined);
    assert.equal(cjt188.decodeAlarmAmounts(new Uint8Array(8).fill(0xaa)), undefined);
    assert.equal(cjt188.decodePriceWrite(new Uint8Array(16)), undefined, "start day 00 is no day");
  });
});
