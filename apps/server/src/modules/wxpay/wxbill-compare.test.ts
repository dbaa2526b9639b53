import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import {
  type CounterRecharge,
  checkBillDate,
  chinaDay,
  compareBill,
  type LocalOrder,
  matchCounter,
} from "./wxbill-compare.ts";
import { type BillTrade, blankTrade, totalsOf } from "./wxpay-bill.ts";

const MCH = "1900000109";
const trade = (
  no: string,
  fen: bigint,
  state: BillTrade["tradeState"] = "SUCCESS",
  mchid = MCH,
): BillTrade => ({
  ...blankTrade(),
  mchid,
  outTradeNo: no,
  transactionId: `42${no}`,
  tradeState: state,
  orderFen: fen,
  settlementFen: fen,
});
const order = (no: string, fen: number, state = 1, inDay = true): LocalOrder => ({
  id: `id-${no}`,
  out_trade_no: no,
  amount: String(fen),
  state,
  transaction_id: `42${no}`,
  paid_time: state === 1 ? new Date("2026-11-26T02:00:00Z") : null,
  in_day: inDay,
});
const billOf = (trades: BillTrade[]) => ({ trades, totals: totalsOf(trades) });

describe("comparing a bill with the orders", () => {
  test("matching payments and refunds give no difference", () => {
    const found = compareBill(billOf([trade("A", 100n), trade("B", 250n), trade("B", 0n, "REFUND")]), MCH, [
      order("A", 100),
      order("B", 250),
    ]);
    assert.deepEqual(found, []);
  });

  test("each kind is found once, with both amounts where both sides have one", () => {
    const found = compareBill(
      billOf([trade("UNPAID", 300n), trade("NEVER", 777n), trade("DIFF", 4150n), trade("DIFF", 4150n)]),
      MCH,
      [order("UNPAID", 300, 0), order("DIFF", 4000), order("HIDDEN", 1200)],
    );
    const view = found.map((d) => [d.kind, d.outTradeNo, d.wechatFen, d.localFen, d.wxPayId]);
    assert.deepEqual(view, [
      ["wechat_only", "UNPAID", 300n, null, "id-UNPAID"],
      ["wechat_only", "NEVER", 777n, null, null],
      ["amount", "DIFF", 4150n, 4000n, "id-DIFF"],
      ["local_only", "HIDDEN", null, 1200n, "id-HIDDEN"],
    ]);
  });

  test("an order paid on another day is matched by number but never local_only here", () => {
    assert.deepEqual(compareBill(billOf([trade("LATE", 100n)]), MCH, [order("LATE", 100, 1, false)]), []);
    assert.deepEqual(compareBill(billOf([]), MCH, [order("OTHERDAY", 100, 1, false)]), []);
  });

  test("trades of another merchant and revoked ones are not payments of this one", () => {
    const found = compareBill(
      billOf([trade("X", 100n, "SUCCESS", "1900000222"), trade("Y", 0n, "REVOKED")]),
      MCH,
      [],
    );
    assert.deepEqual(found, []);
  });
});

const counter = (id: string, fen: number, at = "2026-11-26 10:00:00"): CounterRecharge => ({
  id,
  receipt_no: `R${id}`,
  amount: String(fen),
  booked_at: at,
});
const timedTrade = (no: string, fen: bigint, at: string) => ({ ...trade(no, fen), tradeTime: at });

describe("counter recharges recorded as WeChat", () => {
  test("one with no trade to match is a difference of its own, with the recharge and its amount", () => {
    const found = compareBill(billOf([]), MCH, [], [counter("9001", 20000, "2026-11-26 09:30:00")]);
    assert.deepEqual(found, [
      {
        kind: "counter_only",
        outTradeNo: "R9001",
        transactionId: "",
        wxPayId: null,
        wechatFen: null,
        localFen: 20000n,
        tradeTime: "2026-11-26 09:30:00",
        counterRechargeId: "9001",
      },
    ]);
  });

  test("a bill trade no order knows, of the same amount, accounts for it: no difference on either side", () => {
    const found = compareBill(
      billOf([timedTrade("POS1", 20000n, "2026-11-26 09:31:02")]),
      MCH,
      [],
      [counter("9001", 20000, "2026-11-26 09:30:00")],
    );
    assert.deepEqual(found, []);
  });

  test("an order's trade is never taken for a counter recharge, and another amount does not match", () => {
    const found = compareBill(
      billOf([trade("ORDER", 500n), timedTrade("POS2", 501n, "2026-11-26 11:00:00")]),
      MCH,
      [order("ORDER", 500, 0)],
      [counter("9002", 500), counter("9003", 501, "2026-11-26 11:00:00")],
    );
    assert.deepEqual(
      found.map((d) => [d.kind, d.outTradeNo, d.counterRechargeId]),
      [
        ["wechat_only", "ORDER", null],
        ["counter_only", "R9002", "9002"],
      ],
    );
  });

  test("of equal amounts, each recharge takes the trade nearest its time", () => {
    const trades = [
      { orderFen: 100n, tradeTime: "2026-11-26 08:00:00", no: "MORNING" },
      { orderFen: 100n, tradeTime: "2026-11-26 18:00:00", no: "EVENING" },
    ];
    const left = matchCounter(trades, [counter("E", 100, "2026-11-26 17:59:00")]);
    assert.deepEqual(
      left.trades.map((t) => t.no),
      ["MORNING"],
    );
    assert.deepEqual(left.recharges, []);
  });
});

/** Bills and counter recharges where no order here knows any trade: only the counter can match. */
const amounts = fc.array(fc.integer({ min: 1, max: 6 }), { maxLength: 10 });
const seconds = fc.integer({ min: 0, max: 86_399 });
const at = (s: number) => `2026-11-26 ${new Date(s * 1000).toISOString().slice(11, 19)}`;
const scene = fc.record({
  trades: fc.array(fc.tuple(fc.integer({ min: 1, max: 6 }), seconds), { maxLength: 10 }),
  recharges: fc.array(fc.tuple(fc.integer({ min: 1, max: 6 }), seconds), { maxLength: 10 }),
});
const sceneOf = ({ trades, recharges }: { trades: [number, number][]; recharges: [number, number][] }) => ({
  bill: billOf(trades.map(([fen, s], i) => timedTrade(`T${i}`, BigInt(fen), at(s)))),
  counter: recharges.map(([fen, s], i) => counter(`C${i}`, fen, at(s))),
});
const sum = (values: bigint[]) => values.reduce((a, b) => a + b, 0n);
const sorted = (values: number[]) => [...values].sort((a, b) => a - b);

describe("properties of the counter matching", () => {
  test("money is conserved: what the bill has over the counter is what the differences say", () => {
    fc.assert(
      fc.property(scene, (input) => {
        const { bill, counter: recharges } = sceneOf(input);
        const found = compareBill(bill, MCH, [], recharges);
        const wechat = sum(found.filter((d) => d.kind === "wechat_only").map((d) => d.wechatFen ?? 0n));
        const local = sum(found.filter((d) => d.kind === "counter_only").map((d) => d.localFen ?? 0n));
        const billed = sum(bill.trades.map((t) => t.orderFen));
        const booked = sum(recharges.map((r) => BigInt(r.amount)));
        assert.equal(wechat - local, billed - booked);
        // Every recharge and trade is used at most once.
        const ids = found.map((d) => d.counterRechargeId ?? d.outTradeNo);
        assert.equal(new Set(ids).size, ids.length);
      }),
    );
  });

  test("a day balances exactly when the bill's amounts and the counter's are the same", () => {
    fc.assert(
      fc.property(scene, (input) => {
        const { bill, counter: recharges } = sceneOf(input);
        const balanced = compareBill(bill, MCH, [], recharges).length === 0;
        const same =
          JSON.stringify(sorted(input.trades.map(([fen]) => fen))) ===
          JSON.stringify(sorted(input.recharges.map(([fen]) => fen)));
        assert.equal(balanced, same);
      }),
    );
  });

  test("the differences do not depend on the order the recharges come in", () => {
    fc.assert(
      fc.property(scene, fc.nat(), (input, rotate) => {
        const { bill, counter: recharges } = sceneOf(input);
        const turned = recharges.map((_, i) => recharges[(i + rotate) % recharges.length]!);
        const view = (list: CounterRecharge[]) =>
          compareBill(bill, MCH, [], list)
            .map((d) => `${d.kind}:${d.outTradeNo}`)
            .sort();
        assert.deepEqual(view(turned), view(recharges));
      }),
    );
  });

  test("counter recharges never change what the orders' trades give", () => {
    fc.assert(
      fc.property(amounts, amounts, (paid, atCounter) => {
        const trades = paid.map((fen, i) => trade(`O${i}`, BigInt(fen)));
        // Every other order was never paid here: wechat_only of a known order, which the counter must not take.
        const orders = paid.map((fen, i) => order(`O${i}`, fen, i % 2));
        const alone = compareBill(billOf(trades), MCH, orders);
        const recharges = atCounter.map((fen, i) => counter(`C${i}`, fen));
        const withCounter = compareBill(billOf(trades), MCH, orders, recharges);
        assert.deepEqual(
          withCounter.filter((d) => d.kind !== "counter_only"),
          alone,
        );
        assert.equal(withCounter.filter((d) => d.kind === "counter_only").length, recharges.length);
      }),
    );
  });
});

describe("the bill date", () => {
  test("real past days only, named billDate otherwise", () => {
    assert.equal(checkBillDate("2026-11-26", "2026-11-27"), "2026-11-26");
    assert.equal(checkBillDate(" 2024-02-29 ", "2026-11-27"), "2024-02-29");
    for (const bad of ["2025-02-29", "2026-11-28", "26-11-01", "2026/11/01", 20261101, undefined])
      assert.throws(() => checkBillDate(bad, "2026-11-27"), /^Error: billDate: |billDate: /);
  });

  test("the China day turns at 16:00 UTC", () => {
    assert.equal(chinaDay(new Date("2026-11-26T15:59:59Z")), "2026-11-26");
    assert.equal(chinaDay(new Date("2026-11-26T16:00:00Z")), "2026-11-27");
  });
});
