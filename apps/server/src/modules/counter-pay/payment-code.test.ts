import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { paymentCodeChannel } from "./payment-code.ts";

describe("a scanned payment code's channel, by its prefix", () => {
  test("WeChat Pay: 18 digits beginning 10 to 15", () => {
    for (const code of ["100000000000000000", "134567890123456789", "159999999999999999"])
      assert.equal(paymentCodeChannel(code), "wechat", code);
  });

  test("Alipay: 16 to 24 digits beginning 25 to 30", () => {
    for (const code of ["2500000000000000", "284771234567890123", "309999999999999999999999"])
      assert.equal(paymentCodeChannel(code), "alipay", code);
  });

  test("a scanner's blanks around the code are not part of it", () => {
    assert.equal(paymentCodeChannel(" 134567890123456789\r\n"), "wechat");
    assert.equal(paymentCodeChannel("\t284771234567890123 "), "alipay");
  });

  test("anything else is neither: other prefixes, other lengths, letters, blanks inside", () => {
    for (const code of [
      "",
      "12345",
      "094567890123456789", // 09: below WeChat's range
      "164567890123456789", // 16: above WeChat's, below Alipay's
      "13456789012345678", // 17 digits
      "1345678901234567890", // 19 digits
      "241234567890123456", // 24: below Alipay's range
      "311234567890123456", // 31: above it
      "251234567890123", // 15 digits
      "2512345678901234567890123", // 25 digits
      "13456789012345678a",
      "134567890 23456789",
      "１３４５６７８９０１２３４５６７８９", // full-width digits
    ])
      assert.equal(paymentCodeChannel(code), undefined, JSON.stringify(code));
  });
});
