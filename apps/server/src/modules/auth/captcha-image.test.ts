import assert from "node:assert/strict";
import { test } from "node:test";
import { inflateSync } from "node:zlib";
import {
  CAPTCHA_ALPHABET,
  CAPTCHA_HEIGHT,
  CAPTCHA_WIDTH,
  randomCaptchaText,
  renderCaptcha,
} from "./captcha-image.ts";

test("captcha text uses the unambiguous alphabet", () => {
  for (let i = 0; i < 50; i++) {
    const text = randomCaptchaText();
    assert.equal(text.length, 5);
    for (const ch of text) assert.ok(CAPTCHA_ALPHABET.includes(ch));
  }
  assert.ok(!/[0O1IL5SB8]/.test(CAPTCHA_ALPHABET));
});

test("the image is a valid 130×48 RGB PNG with ink on it", () => {
  const png = renderCaptcha("AC234");
  assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  assert.equal(png.readUInt32BE(16), CAPTCHA_WIDTH);
  assert.equal(png.readUInt32BE(20), CAPTCHA_HEIGHT);
  const idatLength = png.readUInt32BE(33);
  assert.equal(png.toString("ascii", 37, 41), "IDAT");
  const raw = inflateSync(png.subarray(41, 41 + idatLength));
  assert.equal(raw.length, (CAPTCHA_WIDTH * 3 + 1) * CAPTCHA_HEIGHT);
  const dark = [...raw].filter((b) => b < 150).length;
  assert.ok(dark > 500, `expected drawn glyphs, found ${dark} dark bytes`);
});
