import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { compareBill } from "../wxpay/wxbill-compare.ts";
import { decodeBillText, parseBillDetail } from "./alipay-bill.ts";
import { billLineOf } from "./alipay-bill-channel.ts";

const DETAIL = [
  "#支付宝业务明细查询",
  "#账号：[20881021778468800156]",
  "#-----------------------------------------业务明细列表----------------------------------------",
  "支付宝交易号,商户订单号,业务类型,商品名称,创建时间,完成时间,门店编号,门店名称,操作员,终端号,对方账户,订单金额（元）,商家实收（元）,支付宝红包（元）,集分宝（元）,支付宝优惠（元）,商家优惠（元）,券核销金额（元）,券名称,商家红包消费金额（元）,卡消费金额（元）,退款批次号/请求号,服务费（元）,分润（元）,备注",
  "2026112922001400000000000001\t,MLA1\t,交易,预付费充值,2026-11-29 10:00:00,2026-11-29 10:00:04,,,,,159****5620,100.50,100.50,0.00,0.00,0.00,0.00,0.00,,0.00,0.00,,-0.60,0.00,",
  "2026112922001400000000000001\t,MLA1\t,退款,预付费充值,2026-11-29 10:00:00,2026-11-29 11:00:00,,,,,159****5620,0.00,-20.00,0.00,0.00,0.00,0.00,0.00,,0.00,0.00,MLAR1,0.12,0.00,",
  "2026112922001400000000000002\t,MLA2\t,未知,预付费充值,2026-11-29 10:00:00,2026-11-29 10:00:04,,,,,,1.00,1.00,,,,,,,,,,0.00,,",
  "#-----------------------------------------业务明细列表结束------------------------------------",
  "#交易合计：1笔，商家实收共80.50元",
].join("\r\n");

describe("Alipay's trade bill", () => {
  test("payments and refunds are read by their header names, tab padding dropped, amounts exact", () => {
    const { rows, unreadable } = parseBillDetail(DETAIL);
    assert.deepEqual(rows, [
      {
        tradeNo: "2026112922001400000000000001",
        outTradeNo: "MLA1",
        kind: "payment",
        receivedFen: 10050n,
        requestNo: "",
        finishTime: "2026-11-29 10:00:04",
      },
      {
        tradeNo: "2026112922001400000000000001",
        outTradeNo: "MLA1",
        kind: "refund",
        receivedFen: -2000n,
        requestNo: "MLAR1",
        finishTime: "2026-11-29 11:00:00",
      },
    ]);
    assert.equal(unreadable.length, 1, "a kind it does not know is reported, not guessed");
  });

  test("a file without the expected columns yields no rows, every line reported", () => {
    const { rows, unreadable } = parseBillDetail("a,b,c\n1,2,3");
    assert.deepEqual([rows.length, unreadable], [0, ["1,2,3"]]);
  });

  test("GBK (Alipay's files) and UTF-8 (the double's) both decode", () => {
    // 交易 in GBK is BD BB D2 D7.
    assert.equal(decodeBillText(new Uint8Array([0xbd, 0xbb, 0xd2, 0xd7])), "交易");
    assert.equal(decodeBillText(new TextEncoder().encode("交易")), "交易");
  });

  test("its rows meet the orders as the one reconciliation reads them: a payment matched by what was received, a refund counted only", () => {
    const lines = parseBillDetail(DETAIL).rows.map((row) => billLineOf("2021001", row));
    assert.deepEqual(
      lines.map((l) => [l.tradeState, l.mchid, l.outTradeNo, l.orderFen]),
      [
        ["SUCCESS", "2021001", "MLA1", 10050n],
        ["REFUND", "2021001", "MLA1", 0n],
      ],
    );
    const order = (amount: string, state: number) => ({
      id: "7",
      out_trade_no: "MLA1",
      amount,
      state,
      transaction_id: "",
      paid_time: null,
      in_day: state === 1,
    });
    assert.deepEqual(compareBill({ trades: lines }, "2021001", [order("10050", 1)], [], "alipay_only"), []);
    const [unbooked] = compareBill({ trades: lines }, "2021001", [order("10050", 0)], [], "alipay_only");
    assert.deepEqual(
      [unbooked?.kind, unbooked?.wxPayId, unbooked?.wechatFen, unbooked?.transactionId],
      ["alipay_only", "7", 10050n, "2026112922001400000000000001"],
    );
    const [differs] = compareBill({ trades: lines }, "2021001", [order("10000", 1)], [], "alipay_only");
    assert.deepEqual([differs?.kind, differs?.wechatFen, differs?.localFen], ["amount", 10050n, 10000n]);
    // Another application's bill is not this one's.
    assert.equal(compareBill({ trades: lines }, "2021002", [order("10050", 0)], [], "alipay_only").length, 0);
  });
});
