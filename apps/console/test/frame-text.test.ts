import assert from "node:assert/strict";
import { test } from "node:test";
import { frameText } from "../src/pages/operation/frame-text.ts";

test("a stored frame reads byte by byte in upper case; other text is left as it is", () => {
  assert.equal(frameText("68010000000000681c1035"), "68 01 00 00 00 00 00 68 1C 10 35");
  assert.equal(frameText(" 68 01 0a "), "68 01 0A");
  assert.equal(frameText("681"), "681", "an odd run is not a frame");
  assert.equal(frameText('{"detail":"timeout"}'), '{"detail":"timeout"}');
  assert.equal(frameText(null), "");
});
