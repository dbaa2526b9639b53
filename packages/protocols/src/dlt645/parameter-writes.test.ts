import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import { dltAddress, RUNS } from "../test-arbitraries.ts";
import * as dlt645 from "./index.ts";

/** Exact decimal text of a scaled integer: (58830n, 4) → "5.8830". */
const decimal = (scaled: bigint, scale: number) =>
  `${scaled / 10n ** BigInt(scale)}.${(scaled % 10n ** BigInt(scale)).toString().padStart(scale, "0")}`;

/** The parameters a price or alarm write batch sets, with the register each value must fit. */
const WRITES = [
  ...["04050101", "04050102", "04050103", "04050104"].map((di) => ({ di, scale: 4 })),
  ...[dlt645.ladderPriceDi(1), dlt645.ladderPriceDi(15)].map((di) => ({ di, scale: 4 })),
  ...[dlt645.ladderThresholdDi(1), dlt645.ladderThresholdDi(14)].map((di) => ({ di, scale: 2 })),
  ...[dlt645.DI.ALARM_AMOUNT_1, dlt645.DI.ALARM_AMOUNT_2, dlt645.DI.OVERDRAFT_LIMIT].map((di) => ({
    di,
    scale: 2,
  })),
];

describe("DL/T 645-2007 parameter writes: tariff and ladder prices, ladder thresholds, alarm limits", () => {
  test("round trip: any value the register holds comes back from the 0x14 frame, with password and operator", () => {
    fc.assert(
      fc.property(
        dltAddress,
        fc.constantFrom(...WRITES),
        fc.bigInt({ min: 0n, max: 99_999_999n }),
        (address, { di, scale }, scaled) => {
          const value = decimal(scaled, scale);
          const wire = dlt645.buildWrite(address, di, [value], {
            passwordLevel: 2,
            password: "000000",
            operator: "12345678",
          });
          const frame = dlt645.parseFrame(wire);
          assert.equal(frame.control, 0x14);
          // DI 4 + password 4 + operator 4 + one 4-byte BCD register.
          assert.equal(frame.data.length, 16);
          const decoded = dlt645.decodeRequest(frame);
          assert.ok(decoded.message.kind === "write-request");
          assert.equal(decoded.message.di, di);
          assert.equal(decoded.message.operator, "12345678");
          const field = decoded.message.fields[0];
          assert.ok(field?.kind === "number");
          assert.equal(field.scaled, scaled);
          assert.equal(field.value, value);
        },
      ),
      RUNS,
    );
  });

  test("alarm amount 1 of 80.00 yuan is the bytes the standard lays out (DI and BCD low byte first, +0x33)", () => {
    const frame = dlt645.parseFrame(
      dlt645.buildWrite("000000000001", dlt645.DI.ALARM_AMOUNT_1, ["80.00"], {
        passwordLevel: 2,
        password: "000000",
        operator: "00000000",
      }),
    );
    // 04001001 → 01 10 00 04; 8000 fen → 00 80 00 00 (XXXXXX.XX, low byte first).
    assert.deepEqual(
      [...frame.data].map((b) => b.toString(16).padStart(2, "0")).join(" "),
      "01 10 00 04 02 00 00 00 00 00 00 00 00 80 00 00",
    );
  });

  test("a value beyond the register is refused when the frame is built, never truncated", () => {
    assert.throws(() => dlt645.buildWrite("000000000001", dlt645.DI.ALARM_AMOUNT_1, ["1000000.00"]));
    assert.throws(() => dlt645.buildWrite("000000000001", "04050101", ["10000.0000"]));
    assert.throws(() => dlt645.buildWrite("000000000001", "04050101", ["0.58831"]));
  });
});
