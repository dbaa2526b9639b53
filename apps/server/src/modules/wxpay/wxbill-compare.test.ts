import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { checkBillDate, chinaDay, compareBill, type LocalOrder } from "./wxbill-compare.ts";
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
