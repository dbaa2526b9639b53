import assert from "node:assert/strict";
import { test } from "node:test";
import { codeChannel } from "../src/pages/money/counter/payment-code.ts";

test("the counter tells a scanned code's channel as the server does, and neither for anything else", () => {
  assert.equal(codeChannel("134567890123456789"), "wechat");
  assert.equal(codeChannel("284771234567890123\n"), "alipay");
  assert.equal(codeChannel("2547712345678901"), "alipay");
  for (const code of [
    "",
    "164567890123456789",
    "13456789012345678",
    "311234567890123456",
    "28477123456789012a",
  ])
    assert.equal(codeChannel(code), undefined, code);
});
