import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import {
  type Building,
  buildingNamePatterns,
  buildingOf,
  chineseNumber,
  chineseNumeral,
  KEYWORD_MAX_LENGTH,
  normalizeKeyword,
  readKeyword,
  sameBuilding,
} from "./keyword-readings.ts";

const b = (number: string, letters = ""): Building => ({ letters, number });
const read = (text: string) => {
  const readings = readKeyword(text);
  assert.ok(readings, `"${text}" is a keyword`);
  return readings;
};
const places = (text: string) =>
  read(text).places.map((p) => [p.building.letters, p.building.number, p.room]);

/** The ways a desk says "building n, room r", as the pilot site typed them. */
const SPOKEN: ((n: string, room: string) => string)[] = [
  (n, room) => `${n}号楼 ${room}`,
  (n, room) => `${n}号楼${room}`,
  (n, room) => `${n}栋${room}`,
  (n, room) => `${n}-${room}`,
  (n, room) => `${n}#${room}`,
  (n, room) => `${n} ${room}`,
  (n, room) => `${n}栋 ${room}室`,
  (n, room) => `${n}#楼-${room}`,
  (n, room) => `${n}号${room}`,
  (n, room) => `${n}幢${room}`,
  (n, room) => `${n}/${room}`,
];
/** The names an operator gives building n in the area tree. */
const LABELS: ((n: number) => string)[] = [
  (n) => `${n}号楼`,
  (n) => `${n}栋`,
  (n) => `${n}#`,
  (n) => `${n}#楼`,
  (n) => `B${n}`,
  (n) => `b${n}栋`,
  (n) => `${chineseNumeral(n)}号楼`,
  (n) => `第${chineseNumeral(n)}栋`,
  (n) => `一期${n}号楼`,
  (n) => `Building ${n}`,
  (n) => `${String(n).padStart(2, "0")}幢`,
  (n) => `${n} 号楼`,
  (n) => `${n}座`,
];

const room = fc
  .tuple(fc.integer({ min: 1, max: 9999 }), fc.constantFrom("", "a", "b"))
  .map(([n, s]) => `${n}${s}`);
const number = fc.integer({ min: 1, max: 99 });

describe("a building and a room, as people say them", () => {
  test("the pilot site's forms all read as building 2, room 305", () => {
    for (const text of ["2号楼 305", "2号楼305", "2栋305", "2-305", "2#305", "2 305"])
      assert.deepEqual(places(text), [["", "2", "305"]], text);
  });

  test("more forms: letters, Chinese numerals, English, full width, dashes, a room word after", () => {
    assert.deepEqual(places("B2-305"), [["b", "2", "305"]]);
    assert.deepEqual(places("b2栋305"), [["b", "2", "305"]]);
    assert.deepEqual(places("A栋305"), [["a", "", "305"]]);
    assert.deepEqual(places("a座 1203"), [["a", "", "1203"]]);
    assert.deepEqual(places("A-305"), [["a", "", "305"]]);
    assert.deepEqual(places("二号楼305"), [["", "2", "305"]]);
    assert.deepEqual(places("十二栋 1203"), [["", "12", "1203"]]);
    assert.deepEqual(places("Building 2 room 305"), [["", "2", "305"]]);
    assert.deepEqual(places("bldg 2-305"), [["", "2", "305"]]);
    assert.deepEqual(places("２号楼　３０５"), [["", "2", "305"]]);
    assert.deepEqual(places("2 – 305"), [["", "2", "305"]]);
    assert.deepEqual(places("2号楼305室"), [["", "2", "305"]]);
    assert.deepEqual(places("02-305"), [["", "2", "305"]]);
    assert.deepEqual(places("2号楼 305a"), [["", "2", "305a"]]);
  });

  test("what is no place: a number alone, digits run together, a name, a phone in groups", () => {
    for (const text of [
      "305",
      "2305",
      "张伟",
      "139 1075 2305",
      "2号楼",
      "2-3-305",
      "305 2号楼",
      "2号楼 张伟",
    ])
      assert.deepEqual(places(text), [], text);
  });

  test("property: building n in any spoken form with any room reads back as the pair", () => {
    fc.assert(
      fc.property(number, room, fc.constantFrom(...SPOKEN), (n, r, say) => {
        const readings = read(say(String(n), r));
        assert.ok(
          readings.places.some((p) => p.room === r && sameBuilding(p.building, b(String(n)))),
          `${say(String(n), r)} → ${JSON.stringify(readings.places)}`,
        );
      }),
    );
  });

  test("property: any building label with any room, in any spoken form, finds that labelled building", () => {
    fc.assert(
      fc.property(
        number,
        room,
        fc.constantFrom(...SPOKEN),
        fc.constantFrom(...LABELS),
        (n, r, say, label) => {
          const area = buildingOf(label(n));
          assert.ok(area, `${label(n)} names a building`);
          const readings = read(say(String(n), r));
          assert.ok(
            readings.places.some((p) => p.room === r && sameBuilding(p.building, area)),
            `${say(String(n), r)} finds ${label(n)}`,
          );
        },
      ),
    );
  });

  test("property: another building's number never finds the labelled one", () => {
    fc.assert(
      fc.property(
        number,
        number,
        room,
        fc.constantFrom(...SPOKEN),
        fc.constantFrom(...LABELS),
        (n, m, r, say, label) => {
          fc.pre(n !== m);
          const area = buildingOf(label(n))!;
          assert.ok(!read(say(String(m), r)).places.some((p) => sameBuilding(p.building, area)));
        },
      ),
    );
  });
});

describe("an area's name as a building", () => {
  test("building names read loosely; units, floors and parks are no building", () => {
    const cases: [string, Building | undefined][] = [
      ["2号楼", b("2")],
      ["2栋", b("2")],
      ["2#", b("2")],
      ["2#楼", b("2")],
      ["B2", b("2", "b")],
      ["B2栋", b("2", "b")],
      ["A座", b("", "a")],
      ["二号楼", b("2")],
      ["第十二栋", b("12")],
      ["一期3号楼", b("3")],
      ["Building 2", b("2")],
      ["02号楼", b("2")],
      ["2", b("2")],
      ["阳光公寓", undefined],
      ["1单元", undefined],
      ["3楼", undefined],
      ["3层", undefined],
      ["2期", undefined],
      ["", undefined],
    ];
    for (const [name, expected] of cases) assert.deepEqual(buildingOf(name), expected, name);
  });

  test("the same building: numbers agree, letters where both have them", () => {
    assert.ok(sameBuilding(b("2"), b("2", "b")));
    assert.ok(sameBuilding(b("2", "b"), b("2")));
    assert.ok(sameBuilding(b("2", "b"), b("2", "b")));
    assert.ok(!sameBuilding(b("2", "b"), b("2", "a")));
    assert.ok(!sameBuilding(b("2"), b("12")));
    assert.ok(sameBuilding(b("", "a"), b("", "a")));
    assert.ok(!sameBuilding(b("", "a"), b("2", "a")));
    assert.ok(!sameBuilding(b(""), b("")), "no letters and no number is no building");
  });

  test("property: every label of building n matches one of the patterns fetched for n", () => {
    fc.assert(
      fc.property(number, fc.constantFrom(...LABELS), (n, label) => {
        const name = normalizeKeyword(label(n)).replace(/ /g, "");
        const patterns = buildingNamePatterns(b(String(n)));
        const like = (p: string) => name.includes(p.slice(1, -1).toLowerCase());
        assert.ok(patterns.some(like), `${label(n)} by ${patterns}`);
      }),
    );
  });

  test("Chinese numerals of 1 to 99 read back; malformed ones do not read", () => {
    fc.assert(fc.property(number, (n) => assert.equal(chineseNumber(chineseNumeral(n)), n)));
    assert.equal(chineseNumeral(10), "十");
    assert.equal(chineseNumeral(23), "二十三");
    for (const bad of ["", "二二", "十十", "百", "三十十"]) assert.equal(chineseNumber(bad), undefined, bad);
    assert.throws(() => chineseNumeral(100), RangeError);
  });
});

describe("the other readings of one box", () => {
  test("a number is a room name or code; a phone's last digits and a meter's only from four digits", () => {
    assert.deepEqual(read("305"), {
      text: "305",
      places: [],
      buildings: [],
      roomTexts: ["305"],
    });
    const four = read("2305");
    assert.deepEqual(four.phone, { digits: "2305", whole: false });
    assert.equal(four.meterDigits, "2305");
    assert.equal(four.ownerName, undefined);
    assert.deepEqual(read("2-305").roomTexts, ["2-305"]);
    assert.deepEqual(read("305室").roomTexts, ["305室", "305"]);
  });

  test("a whole phone, also read in groups; eleven digits not starting with 1 are no phone", () => {
    assert.deepEqual(read("13910752305").phone, { digits: "13910752305", whole: true });
    assert.deepEqual(read("139 1075 2305").phone, { digits: "13910752305", whole: true });
    assert.deepEqual(read("139-1075-2305").phone, { digits: "13910752305", whole: true });
    assert.equal(read("23910752305").phone, undefined);
    assert.equal(read("23910752305").meterDigits, "23910752305");
    // Digits in groups are a whole phone or nothing: "2-305" is a room, not a phone ending 2305.
    assert.equal(read("2-305").phone, undefined);
    assert.equal(read("2 305").phone, undefined);
    assert.equal(read("139 1075").phone, undefined);
  });

  test("a name has no digits; a building alone needs its building word", () => {
    assert.equal(read(" 张伟 ").ownerName, "张伟");
    assert.equal(read("Zhang Wei").ownerName, "zhang wei");
    assert.deepEqual(read("2号楼").buildings, [b("2")]);
    assert.deepEqual(read("B栋").buildings, [b("", "b")]);
    assert.deepEqual(read("2").buildings, []);
    assert.deepEqual(read("b2").buildings, []);
  });

  test("several words: the last is a room, the others words of its areas", () => {
    assert.deepEqual(read("2号楼 1单元 305").roomInArea, { areaWords: ["2号楼", "1单元"], room: "305" });
    assert.deepEqual(read("2号楼 30").roomInArea, { areaWords: ["2号楼"], room: "30" });
    assert.equal(read("305").roomInArea, undefined);
    assert.equal(read("张 伟").roomInArea, undefined);
  });

  test("too long or too many words is no keyword; empty has no readings", () => {
    assert.equal(readKeyword("1".repeat(KEYWORD_MAX_LENGTH + 1)), undefined);
    assert.ok(readKeyword("1".repeat(KEYWORD_MAX_LENGTH)));
    assert.equal(readKeyword("a b c d e f g"), undefined);
    assert.deepEqual(readKeyword("   "), { text: "", places: [], buildings: [], roomTexts: [] });
  });

  test("property: any text reads without throwing, the same every time, as its full-width twin", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (text) => {
        const once = readKeyword(text);
        assert.deepEqual(readKeyword(text), once);
        if (text.length > KEYWORD_MAX_LENGTH) assert.equal(once, undefined);
        if (once) {
          assert.equal(once.text, once.text.trim());
          if (once.ownerName !== undefined) assert.ok(!/\d/.test(once.ownerName));
          if (once.phone?.whole) assert.match(once.phone.digits, /^1\d{10}$/);
        }
      }),
    );
    const ascii = fc.string({ unit: fc.constantFrom(..."0123456789abcxyz-# "), maxLength: 30 });
    fc.assert(
      fc.property(ascii, (text) => {
        // Full-width forms of ASCII are U+FF01..U+FF5E, the space U+3000.
        const wide = [...text]
          .map((c) => (c === " " ? "\u3000" : String.fromCharCode(c.charCodeAt(0) + 0xfee0)))
          .join("");
        assert.deepEqual(readKeyword(wide), readKeyword(text));
      }),
    );
  });
});
