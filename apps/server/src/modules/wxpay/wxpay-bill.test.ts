import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import {
  BillFormatError,
  type BillTrade,
  blankTrade,
  formatDecimal,
  formatTradeBill,
  parseDecimal,
  parseTradeBill,
  SUMMARY_HEADER,
  TRADE_HEADER,
} from "./wxpay-bill.ts";

const paid = (outTradeNo: string, fen: bigint): BillTrade => ({
  ...blankTrade(),
  tradeTime: "2026-11-26 10:00:00",
  appid: "wx8888888888888888",
  mchid: "1900000109",
  transactionId: `4200${outTradeNo}`,
  outTradeNo,
  openid: "o-payer",
  tradeType: "NATIVE",
  settlementFen: fen,
  orderFen: fen,
  body: "预付费充值",
});

/** Field text as WeChat Pay writes it: anything but the comma, the backtick and line breaks. */
const cell = fc.string({ maxLength: 24 }).map((s) => s.replace(/[,`\r\n]/g, ""));
const fen = fc.bigInt({ min: 0n, max: 10n ** 12n });
const trade: fc.Arbitrary<BillTrade> = fc
  .record({
    tradeTime: cell,
    appid: cell,
    mchid: cell,
    subMchid: cell,
    deviceInfo: cell,
    transactionId: cell,
    outTradeNo: cell.filter((s) => s.length > 0),
    openid: cell,
    tradeType: cell,
    tradeState: fc.constantFrom("SUCCESS" as const, "REFUND" as const, "REVOKED" as const),
    bankType: cell,
    currency: cell,
    settlementFen: fen,
    couponFen: fen,
    refundId: cell,
    outRefundNo: cell,
    refundFen: fen,
    couponRefundFen: fen,
    refundType: cell,
    refundStatus: cell,
    body: cell,
    attach: cell,
    feeMicro: fc.bigInt({ min: 0n, max: 10n ** 14n }),
    rate: cell,
    orderFen: fen,
    requestedRefundFen: fen,
    rateNote: cell,
  })
  .map((t) => ({ ...t }));

const lineOf = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof BillFormatError, String(error));
    return error.line;
  }
  assert.fail("the bill was accepted");
};

describe("trade bill amounts", () => {
  test("any fen amount written as yuan reads back exactly", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 14n), max: 10n ** 14n }), (value) => {
        assert.equal(parseDecimal(formatDecimal(value, 2), 2), value);
        assert.equal(parseDecimal(formatDecimal(value, 5), 5, false), value);
      }),
    );
  });

  test("any string is either refused or an exact two-decimal amount", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 20 }), (text) => {
        const value = parseDecimal(text, 2);
        if (value === undefined) return;
        assert.match(text, /^-?\d+\.\d{2}$/);
        assert.equal(
          formatDecimal(value, 2),
          text.replace(/^(-?)0+(?=\d)/, "$1").replace(/^-(0\.00)$/, "$1"),
        );
      }),
    );
  });

  test("yuan become fen without floats: 0.1 + 0.2 style sums stay exact", () => {
    assert.equal(parseDecimal("0.10", 2), 10n);
    assert.equal(parseDecimal("123456789012.34", 2), 12345678901234n);
    assert.equal(parseDecimal("1.5", 2), undefined);
    assert.equal(parseDecimal("1.005", 2), undefined);
    assert.equal(parseDecimal("1e3", 2), undefined);
    assert.equal(parseDecimal(" 1.00", 2), undefined);
    assert.equal(parseDecimal("0.006", 5, false), 600n);
  });
});

describe("trade bill file", () => {
  test("format → parse round-trips any trades, totals included", () => {
    fc.assert(
      fc.property(fc.array(trade, { maxLength: 12 }), (trades) => {
        const parsed = parseTradeBill(formatTradeBill(trades));
        assert.deepEqual(parsed.trades, trades);
        assert.equal(parsed.totals.count, trades.length);
      }),
      { numRuns: 200 },
    );
  });

  test("a real-shaped day: a payment, a refund, totals checked", () => {
    const text = [
      TRADE_HEADER.join(","),
      "`2026-11-26 09:30:01,`wx8888888888888888,`1900000109,`0,`,`4200001,`ML1,`o-1,`NATIVE,`SUCCESS,`OTHERS,`CNY,`12.34,`0.00,`0,`0,`0.00,`0.00,`,`,`预付费充值,`,`0.07000,`0.60%,`12.34,`0.00,`",
      "`2026-11-26 11:00:00,`wx8888888888888888,`1900000109,`0,`,`4200001,`ML1,`o-1,`NATIVE,`REFUND,`OTHERS,`CNY,`0.00,`0.00,`5030001,`MLR1,`2.00,`0.00,`ORIGINAL,`SUCCESS,`预付费充值,`,`-0.01000,`0.60%,`0.00,`2.00,`",
      SUMMARY_HEADER.join(","),
      "`2,`12.34,`2.00,`0.00,`0.06000,`12.34,`2.00",
      "",
    ].join("\r\n");
    const bill = parseTradeBill(`\uFEFF${text}`);
    assert.equal(bill.trades.length, 2);
    assert.equal(bill.trades[0]?.settlementFen, 1234n);
    assert.equal(bill.trades[1]?.tradeState, "REFUND");
    assert.equal(bill.trades[1]?.refundFen, 200n);
    assert.equal(bill.totals.feeMicro, 6000n);
    assert.equal(bill.totals.refundFen, 200n);
  });

  test("an empty day is a header and zero totals", () => {
    const bill = parseTradeBill(formatTradeBill([]));
    assert.deepEqual(bill.trades, []);
    assert.equal(bill.totals.settlementFen, 0n);
  });

  test("malformed lines are refused with their line number", () => {
    const good = formatTradeBill([paid("ML1", 1000n), paid("ML2", 250n)]).split("\r\n");
    const change = (line: number, to: (text: string) => string) =>
      good.map((text, i) => (i === line - 1 ? to(text) : text)).join("\n");
    assert.equal(
      lineOf(() => parseTradeBill(change(1, () => "交易时间,商户号"))),
      1,
    );
    assert.equal(
      lineOf(() => parseTradeBill(change(3, (t) => t.replace("`ML2", "ML2")))),
      3,
    );
    assert.equal(
      lineOf(() => parseTradeBill(change(2, (t) => t.replace("`10.00", "`10.0")))),
      2,
    );
    assert.equal(
      lineOf(() => parseTradeBill(change(2, (t) => t.replace("`SUCCESS", "`PAID")))),
      2,
    );
    assert.equal(
      lineOf(() => parseTradeBill(change(3, (t) => `${t},\`extra`))),
      3,
    );
    // A total that does not match the rows (an altered amount) names the totals line.
    assert.equal(
      lineOf(() => parseTradeBill(change(2, (t) => t.replaceAll("`10.00", "`11.00")))),
      5,
    );
    assert.equal(
      lineOf(() => parseTradeBill(good.slice(0, 3).join("\n"))),
      4,
    );
    assert.equal(
      lineOf(() => parseTradeBill(`${good.join("\n")}\`junk`)),
      6,
    );
  });

  test("any line broken anywhere is refused, never half-read", () => {
    const good = formatTradeBill([paid("ML1", 1000n), paid("ML2", 250n)]).split("\r\n");
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: good.length - 2 }),
        fc.nat(),
        fc.constantFrom("`", ",", "x", ""),
        (line, at, insert) => {
          const text = good[line] as string;
          const pos = at % (text.length + 1);
          const broken = `${text.slice(0, pos)}${insert}${text.slice(pos + (insert ? 0 : 1))}`;
          if (broken === text) return;
          const lines = good.map((t, i) => (i === line ? broken : t));
          try {
            const bill = parseTradeBill(lines.join("\r\n"));
            // Text edits inside free fields (names, ids) are still a valid bill; the money is unchanged.
            assert.equal(bill.totals.settlementFen, 1250n);
          } catch (error) {
            assert.ok(error instanceof BillFormatError);
            assert.ok(error.line >= 1 && error.line <= good.length);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
