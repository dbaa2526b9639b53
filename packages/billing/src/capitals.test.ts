import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { fenToCapitals } from "./capitals.ts";
import { BillingInputError } from "./units.ts";

const DIGIT_VALUE = new Map([..."零壹贰叁肆伍陆柒捌玖"].map((c, i) => [c, BigInt(i)]));
const PLACE_VALUE = new Map([
  ["拾", 10n],
  ["佰", 100n],
  ["仟", 1000n],
]);

/** Whole yuan back from capitals: 万 closes a section, 亿 closes everything before it. */
function parseYuan(text: string): bigint {
  let total = 0n;
  let section = 0n;
  let digit = 0n;
  for (const c of text) {
    const d = DIGIT_VALUE.get(c);
    const place = PLACE_VALUE.get(c);
    if (d !== undefined) digit = d;
    else if (place !== undefined) {
      section += digit * place;
      digit = 0n;
    } else if (c === "万") {
      section = (section + digit) * 10_000n;
      digit = 0n;
    } else if (c === "亿") {
      total = (total + section + digit) * 100_000_000n;
      section = 0n;
      digit = 0n;
    } else throw new Error(`unexpected ${c} in ${text}`);
  }
  return total + section + digit;
}

/** The reverse of fenToCapitals, written independently of it, to check it round-trips. */
function parseCapitals(text: string): bigint {
  if (text.startsWith("负")) return -parseCapitals(text.slice(1));
  const match = /^(?:(.+)元)?(?:零)?(?:(.)角)?(?:零)?(?:(.)分)?(整)?$/u.exec(text);
  assert.ok(match, `not a capitals amount: ${text}`);
  const [, yuan, jiao, fen, whole] = match;
  assert.ok(!(whole && (jiao || fen)), `整 after 角 or 分: ${text}`);
  const digit = (c: string | undefined): bigint => {
    const d = c === undefined ? 0n : DIGIT_VALUE.get(c);
    assert.ok(d !== undefined, `not a digit: ${c} in ${text}`);
    return d;
  };
  return (yuan === undefined ? 0n : parseYuan(yuan)) * 100n + digit(jiao) * 10n + digit(fen);
}

test("the brief's and the PBOC rule's own examples", () => {
  const cases: [bigint, string][] = [
    [12300n, "壹佰贰拾叁元整"],
    [100550n, "壹仟零伍元伍角"],
    [0n, "零元整"],
    [1002005n, "壹万零贰拾元零伍分"],
    [-12300n, "负壹佰贰拾叁元整"],
    [140950n, "壹仟肆佰零玖元伍角"],
    [600714n, "陆仟零柒元壹角肆分"],
    [168032n, "壹仟陆佰捌拾元零叁角贰分"],
    [10700053n, "壹拾万柒仟元零伍角叁分"],
    [1640902n, "壹万陆仟肆佰零玖元零贰分"],
    [32504n, "叁佰贰拾伍元零肆分"],
  ];
  for (const [fen, text] of cases) assert.equal(fenToCapitals(fen), text, String(fen));
});

test("cents only, tens, and zeros across sections", () => {
  const cases: [bigint, string][] = [
    [50n, "伍角"],
    [5n, "伍分"],
    [55n, "伍角伍分"],
    [-1n, "负壹分"],
    [100n, "壹元整"],
    [105n, "壹元零伍分"],
    [1000n, "壹拾元整"],
    [1050n, "壹拾元零伍角"],
    [1005n, "壹拾元零伍分"],
    [1000000n, "壹万元整"],
    [10000000000n, "壹亿元整"],
    [10000000100n, "壹亿零壹元整"],
    [10100000000n, "壹亿零壹佰万元整"],
    [20000010000n, "贰亿零壹佰元整"],
    [100000000000000n, "壹万亿元整"],
    [100000001000000n, "壹万亿零壹万元整"],
    [100010000000000n, "壹万零壹亿元整"],
    [999999999999999999n, "玖仟玖佰玖拾玖万玖仟玖佰玖拾玖亿玖仟玖佰玖拾玖万玖仟玖佰玖拾玖元玖角玖分"],
  ];
  for (const [fen, text] of cases) assert.equal(fenToCapitals(fen), text, String(fen));
});

test("amounts of 10^16 yuan and more are refused with the field named", () => {
  assert.throws(
    () => fenToCapitals(10n ** 18n),
    (e: unknown) => e instanceof BillingInputError && e.field === "amount",
  );
});

const upToWanYi = fc.bigInt({ min: -(10n ** 14n), max: 10n ** 14n }); // ±万亿 yuan in fen

test("capitals parse back to the same fen", () => {
  fc.assert(
    fc.property(upToWanYi, (fen) => {
      assert.equal(parseCapitals(fenToCapitals(fen)), fen);
    }),
    { numRuns: 2000 },
  );
});

test("amounts with many zeros parse back too (sparse digits)", () => {
  const sparse = fc
    .array(fc.constantFrom(0n, 0n, 0n, 1n, 5n, 9n), { minLength: 1, maxLength: 17 })
    .map((ds) => ds.reduce<bigint>((n, d) => n * 10n + d, 0n));
  fc.assert(
    fc.property(sparse, (fen) => {
      const text = fenToCapitals(fen);
      assert.equal(parseCapitals(text), fen, text);
      assert.ok(!text.includes("零零"), text);
    }),
    { numRuns: 3000 },
  );
});

test("never two 零 in a row, and 整 at the end exactly when there are no jiao or fen", () => {
  fc.assert(
    fc.property(upToWanYi, (fen) => {
      const text = fenToCapitals(fen);
      assert.ok(!text.includes("零零"), text);
      assert.equal(text.endsWith("整"), fen % 100n === 0n, text);
      assert.ok(!/^负?零./u.test(text) || text === "零元整", `leading 零: ${text}`);
    }),
    { numRuns: 2000 },
  );
});
