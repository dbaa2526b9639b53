import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  type CommandAction,
  decideAfterAck,
  decideFromReadBack,
  effectVisible,
  type ReadBackFact,
  readBackItemFor,
} from "@meterline/gateway";

const word = (relayCommandOpen: boolean, relayOpen: boolean, powerHold = false): ReadBackFact => ({
  item: "status-word-3",
  relayCommandOpen,
  relayOpen,
  powerHold,
});

describe("reconciliation decisions", () => {
  test("water price table and alarm amounts: the read-back's values decide, whatever their spelling", () => {
    const price: CommandAction = {
      kind: "water-price",
      table: { prices: ["3.45", "4.83", "5.99"], thresholds: ["180", "260"], startDay: 1 },
    };
    assert.deepEqual(readBackItemFor(price), { item: "water-price" });
    const table = (p1: string): ReadBackFact => ({
      item: "water-price",
      table: { prices: [p1, "4.83", "5.99"], thresholds: ["180", "260"] },
    });
    assert.equal(effectVisible(price, table("3.450")), true, "the start date is not read back");
    assert.equal(decideFromReadBack(price, table("3.40")).state, "fail");
    assert.equal(decideAfterAck(price, table("3.40")).state, "fail");
    const alarm: CommandAction = { kind: "water-alarm", amounts: { first: "50", second: "20.5" } };
    assert.deepEqual(readBackItemFor(alarm), { item: "water-alarm" });
    const amounts = (second: string): ReadBackFact => ({
      item: "water-alarm",
      amounts: { first: "50.00", second },
    });
    assert.equal(decideFromReadBack(alarm, amounts("20.50")).state, "success");
    assert.equal(decideFromReadBack(alarm, amounts("20.00")).state, "fail");
    assert.equal(effectVisible(alarm, table("3.45")), null, "a fact of another kind does not fit");
  });

  test("what is read back for each write", () => {
    assert.deepEqual(readBackItemFor({ kind: "relay", action: "trip" }), { item: "status-word-3" });
    assert.deepEqual(readBackItemFor({ kind: "valve", action: "open" }), { item: "valve" });
    assert.deepEqual(readBackItemFor({ kind: "recharge", amount: "1.00", purchaseCount: 2 }), {
      item: "purchase-count",
    });
    assert.deepEqual(readBackItemFor({ kind: "write", di: "04001002", value: "1" }), {
      item: "register",
      di: "04001002",
    });
    assert.equal(readBackItemFor({ kind: "read", di: "00010000" }), null);
  });

  test("relay: the command bit decides (a trip delay or a close waiting for the button still counts)", () => {
    const trip = { kind: "relay", action: "trip" } as const;
    assert.equal(effectVisible(trip, word(true, true)), true);
    assert.equal(effectVisible(trip, word(true, false)), true, "trip-pending");
    assert.equal(effectVisible(trip, word(false, false)), false);
    const closeAllowed = { kind: "relay", action: "close-allowed" } as const;
    assert.equal(effectVisible(closeAllowed, word(false, true)), true, "close-pending");
    assert.equal(effectVisible({ kind: "relay", action: "power-hold" }, word(false, false, true)), true);
    assert.equal(
      effectVisible({ kind: "relay", action: "power-hold-release" }, word(false, false, true)),
      false,
    );
  });

  test("timeouts: read-back success, fail, or still to be confirmed", () => {
    const trip = { kind: "relay", action: "trip" } as const;
    assert.equal(decideFromReadBack(trip, word(true, true)).state, "success");
    assert.equal(decideFromReadBack(trip, word(false, false)).state, "fail");
    assert.equal(decideFromReadBack(trip, null).state, "timeout");
    assert.equal(
      decideFromReadBack(trip, { item: "valve", valve: "open" }).state,
      "timeout",
      "a fact that does not fit",
    );
  });

  test("acknowledged writes: a disagreeing verification fails, a missing one does not", () => {
    const close = { kind: "valve", action: "close" } as const;
    assert.equal(decideAfterAck(close, { item: "valve", valve: "closed" }).state, "success");
    assert.equal(decideAfterAck(close, { item: "valve", valve: "abnormal" }).state, "fail");
    assert.equal(decideAfterAck(close, null).state, "success");
  });

  test("recharges compare purchase counts; writes compare exact decimals", () => {
    const recharge = { kind: "recharge", amount: "20.00", purchaseCount: 5 } as const;
    assert.equal(decideFromReadBack(recharge, { item: "purchase-count", purchaseCount: 5 }).state, "success");
    assert.equal(decideFromReadBack(recharge, { item: "purchase-count", purchaseCount: 6 }).state, "success");
    assert.equal(decideFromReadBack(recharge, { item: "purchase-count", purchaseCount: 4 }).state, "fail");
    // An account clearing moves the same count: reaching it proves the meter gave the money up.
    const clearing = { kind: "clearing", amount: "20.00", purchaseCount: 5 } as const;
    assert.deepEqual(readBackItemFor(clearing), { item: "purchase-count" });
    assert.equal(decideFromReadBack(clearing, { item: "purchase-count", purchaseCount: 5 }).state, "success");
    assert.equal(decideFromReadBack(clearing, { item: "purchase-count", purchaseCount: 4 }).state, "fail");
    const write = { kind: "write", di: "04001001", value: "88.5" } as const;
    assert.equal(
      decideFromReadBack(write, { item: "register", di: "04001001", value: "88.50" }).state,
      "success",
    );
    assert.equal(
      decideFromReadBack(write, { item: "register", di: "04001001", value: "88.51" }).state,
      "fail",
    );
    assert.equal(
      decideFromReadBack(write, { item: "register", di: "04001002", value: "88.50" }).state,
      "timeout",
    );
    // A time-of-use table is settled by the whole table read back: the same entries or a failure.
    const table = { kind: "write", di: "04010001", value: "000004,080003" } as const;
    assert.equal(
      decideFromReadBack(table, { item: "register", di: "04010001", value: "000004,080003" }).state,
      "success",
    );
    assert.equal(
      decideFromReadBack(table, { item: "register", di: "04010001", value: "000004,090003" }).state,
      "fail",
    );
    assert.equal(decideAfterAck(table, { item: "register", di: "04010001", value: "000004" }).state, "fail");
  });
});
