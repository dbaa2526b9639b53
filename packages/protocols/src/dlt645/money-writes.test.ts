import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import { parseHex, toHex } from "../hex.ts";
import { dltAddress, RUNS } from "../test-arbitraries.ts";
import * as dlt645 from "./index.ts";

const amount = fc
  .bigInt({ min: 0n, max: 99_999_999n })
  .map((fen) => `${fen / 100n}.${(fen % 100n).toString().padStart(2, "0")}`);

/** Decodes a write request and reads its money write back from the raw data field. */
function writtenBack(wire: Uint8Array) {
  const decoded = dlt645.decodeRequest(dlt645.parseFrame(wire));
  assert.ok(decoded.message.kind === "write-request");
  const raw = decoded.message.fields[0]?.raw ?? "";
  return { di: decoded.message.di, write: dlt645.decodeMoneyWrite(decoded.message.di, parseHex(raw)) };
}

describe("DL/T 645 money writes (vendor convention 0400F001 recharge, 0400F002 account clearing)", () => {
  test("round trip: any count and amount come back from the written frame, for both writes", () => {
    fc.assert(
      fc.property(
        dltAddress,
        fc.constantFrom(...Object.values(dlt645.MONEY_WRITE_DI)),
        fc.integer({ min: 0, max: 9999 }),
        amount,
        (address, di, purchaseCount, yuan) => {
          const data = dlt645.encodeMoneyWrite(di, { purchaseCount, amount: yuan });
          const wire = dlt645.buildWrite(address, di, data, { operator: "12345678" });
          assert.deepEqual(writtenBack(wire), { di, write: { purchaseCount, amount: yuan } });
        },
      ),
      RUNS,
    );
  });

  test("the clearing frame's bytes: count then amount, BCD, least significant byte first, +0x33", () => {
    const data = dlt645.encodeMoneyWrite(dlt645.MONEY_WRITE_DI.clearing, {
      purchaseCount: 12,
      amount: "86.40",
    });
    assert.equal(toHex(data, ""), "120040860000");
    const wire = dlt645.buildWrite("000000000002", dlt645.MONEY_WRITE_DI.clearing, data, {
      passwordLevel: 2,
      password: "000000",
      operator: "00000000",
    });
    // 68 A0..A5 68 14 L=18 | DI 0400F002 reversed (02 F0 00 04) | PA 02 | password | operator | data, all +0x33.
    assert.equal(toHex(wire, ""), "68020000000000681412352333373533333333333333453373B933335E16");
  });

  test("too large a count or amount is refused, never truncated", () => {
    assert.throws(() => dlt645.encodeMoneyWrite("0400F002", { purchaseCount: 10_000, amount: "1.00" }));
    assert.throws(() => dlt645.encodeMoneyWrite("0400F002", { purchaseCount: 1, amount: "1000000.00" }));
  });

  test("ladder tables: thresholds (kWh) and prices (yuan/kWh) of both sets round-trip as writes", () => {
    fc.assert(
      fc.property(
        dltAddress,
        fc.integer({ min: 0, max: 3 }),
        fc.integer({ min: 1, max: 14 }),
        fc.bigInt({ min: 0n, max: 99_999_999n }),
        (address, table, step, scaled) => {
          const di = `04060${table}${step.toString(16).toUpperCase().padStart(2, "0")}`;
          const item = dlt645.lookupDataItem(di, "2007");
          assert.ok(item, di);
          const wire = dlt645.buildWrite(address, di, [scaled]);
          const decoded = dlt645.decodeRequest(dlt645.parseFrame(wire));
          assert.ok(decoded.message.kind === "write-request");
          const [field] = decoded.message.fields;
          assert.ok(field?.kind === "number");
          assert.equal(field.scaled, scaled);
          assert.equal(field.unit, table % 2 === 0 ? "kWh" : "yuan/kWh");
        },
      ),
      RUNS,
    );
    assert.equal(dlt645.ladderThresholdDi(1), "04060001");
    assert.equal(dlt645.ladderPriceDi(15), "0406010F");
    assert.ok(dlt645.lookupDataItem("0406010F", "2007"));
    assert.equal(dlt645.lookupDataItem("0406000F", "2007"), undefined, "14 thresholds at most");
    assert.equal(dlt645.lookupDataItem("04060400", "2007"), undefined);
    assert.ok(dlt645.lookupDataItem(dlt645.DI.LADDER_CYCLE, "2007"));
  });
});
