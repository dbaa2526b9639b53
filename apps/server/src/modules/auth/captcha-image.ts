import { randomInt } from "node:crypto";
import { encodePng } from "./png.ts";

// 5×7 glyphs of the characters a captcha uses; look-alikes (0/O, 1/I/L, 5/S, B/8) are left out.
const GLYPHS: Record<string, string> = {
  "2": "01110100010000100010001000100011111",
  "3": "11111000100010000010000011000101110",
  "4": "00010001100101010010111110001000010",
  "6": "00110010001000011110100011000101110",
  "7": "11111000010001000100010000100001000",
  "9": "01110100011000101111000010001001100",
  A: "01110100011000111111100011000110001",
  C: "01110100011000010000100001000101110",
  D: "11100100101000110001100011001011100",
  E: "11111100001000011110100001000011111",
  F: "11111100001000011110100001000010000",
  H: "10001100011000111111100011000110001",
  K: "10001100101010011000101001001010001",
  M: "10001110111010110101100011000110001",
  N: "10001100011100110101100111000110001",
  P: "11110100011000111110100001000010000",
  R: "11110100011000111110101001001010001",
  T: "11111001000010000100001000010000100",
  W: "10001100011000110101101011010101010",
  X: "10001100010101000100010101000110001",
  Y: "10001100010101000100001000010000100",
};
export const CAPTCHA_ALPHABET = Object.keys(GLYPHS).join("");

export const CAPTCHA_WIDTH = 130;
export const CAPTCHA_HEIGHT = 48;
const SCALE = 4;

export function randomCaptchaText(length = 5): string {
  return Array.from({ length }, () => CAPTCHA_ALPHABET[randomInt(CAPTCHA_ALPHABET.length)]).join("");
}

/** Draws the text with jitter, noise lines and dots, and returns a PNG. */
export function renderCaptcha(text: string): Buffer {
  const w = CAPTCHA_WIDTH;
  const h = CAPTCHA_HEIGHT;
  const rgb = new Uint8Array(w * h * 3).fill(245);
  const plot = (x: number, y: number, c: readonly number[]) => {
    if (x < 0 || y < 0 || x >= w || y >= h) return;
    rgb.set(c, (y * w + x) * 3);
  };
  const colour = () => [randomInt(20, 140), randomInt(20, 140), randomInt(20, 140)];
  for (let i = 0; i < 6; i++) {
    const c = [randomInt(150, 220), randomInt(150, 220), randomInt(150, 220)];
    let y = randomInt(h);
    const slope = (randomInt(-20, 21) / 20) * 0.5;
    for (let x = 0; x < w; x++) plot(x, Math.round(y + x * slope) % h, c);
    y = 0;
  }
  [...text].forEach((ch, i) => {
    const glyph = GLYPHS[ch] ?? GLYPHS["2"]!;
    const c = colour();
    const x0 = 8 + i * 24 + randomInt(-2, 3);
    const y0 = 8 + randomInt(-4, 5);
    for (let gy = 0; gy < 7; gy++) {
      for (let gx = 0; gx < 5; gx++) {
        if (glyph[gy * 5 + gx] !== "1") continue;
        const skew = Math.round((gy - 3) * 0.6);
        for (let dy = 0; dy < SCALE; dy++) {
          for (let dx = 0; dx < SCALE; dx++) plot(x0 + gx * SCALE + dx - skew, y0 + gy * SCALE + dy, c);
        }
      }
    }
  });
  for (let i = 0; i < 120; i++) plot(randomInt(w), randomInt(h), colour());
  return encodePng(w, h, rgb);
}
