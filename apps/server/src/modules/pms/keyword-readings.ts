/**
 * What a keyword typed into one search box may mean, as people at a front desk type it: a building
 * and a room ("2号楼 305", "2栋305", "2-305", "2#305", "2 305"), a room's name or code, an owner's
 * name, a phone number (whole or its last digits), a meter number (whole or its last digits).
 *
 * Pure: no database, no clock. The search turns each reading into bound SQL conditions and ranks
 * what they find; a reading that finds nothing costs nothing.
 */

import { COUNTER_MAX_KEYWORD } from "@meterline/contracts";

/** Longest keyword read, and the most words: longer is no search anyone types (a 400 naming keyword). */
export const KEYWORD_MAX_LENGTH = COUNTER_MAX_KEYWORD;
export const KEYWORD_MAX_WORDS = 6;

/**
 * A building as people name it, reduced to what tells buildings apart: its letters (lower case,
 * often none) and its number (no leading zeros, often none). "2号楼", "2栋", "2#", "二号楼" and
 * "Building 2" are { letters: "", number: "2" }; "B2" and "B2栋" { letters: "b", number: "2" };
 * "A座" { letters: "a", number: "" }.
 */
export interface Building {
  letters: string;
  number: string;
}

/** A building and a room number within it ("2号楼 305" → building 2, room "305"). */
export interface Place {
  building: Building;
  room: string;
}

export interface KeywordReadings {
  /** The keyword as typed, width-folded, lower case, single spaces. */
  text: string;
  /**
   * Building and room, as spoken: rooms of that number in a matching building (and the areas below
   * it); rooms whose number starts so, after them ("2号楼30": 301 to 310).
   */
  places: Place[];
  /** The whole keyword names a building ("2号楼", "B栋"): its rooms. */
  buildings: Building[];
  /** The keyword as a room's own name or code, whole ("305", "2-305", "C-101"; "305室" also as "305"). */
  roomTexts: string[];
  /**
   * Several words: the last the start of a room's name, the others words of its areas' label
   * ("2号楼 1单元 305", "2号楼 30").
   */
  roomInArea?: { areaWords: string[]; room: string };
  /** Part of an owner's name (a keyword without digits). */
  ownerName?: string;
  /** A phone number: whole (11 digits) or its last digits (4 to 10). */
  phone?: { digits: string; whole: boolean };
  /** A meter number (digits only), whole or its last digits (4 or more). */
  meterDigits?: string;
}

/** The words that name a building after its number or letters; the longest first so "号楼" wins over "号". */
const BUILDING_SUFFIX = "(?:号楼|號樓|#楼|#樓|号|號|栋|棟|幢|座|#)";
/** The Chinese numerals of 1 to 99 ("二", "十二", "二十三"). */
const CN_DIGITS = "一二三四五六七八九";
const CN_NUMBER = `([${CN_DIGITS}十]{1,3})`;
/** A building's number with its letters: "2", "12", "b2", "a12". */
const LETTERS_NUMBER = "([a-z]{0,2})(\\d{1,4})";
const LETTERS = "([a-z]{1,2})";
/** A room number: digits, perhaps a letter before or after ("305", "305a"), perhaps "室" or "房" after. */
const ROOM = "([a-z]?\\d{1,5}[a-z]?)(?:室|房|号|號)?";
/** What parts a building from its room when no building word does: a dash, a slash or a space. */
const SEPARATOR = "(?:\\s*[-/]\\s*|\\s+)";
/** English building words: "Building 2", "Bldg 2", "Block 2", "Tower 2". */
const EN_BUILDING = "(?:building|bldg\\.?|block|blk\\.?|tower)\\s*";

const whole = (pattern: string) => new RegExp(`^${pattern}$`, "u");

/** Each spoken form of a building and a room, and how to read its groups. */
const PLACE_FORMS: { form: RegExp; read: (m: RegExpMatchArray) => Place | undefined }[] = [
  // 2号楼305, 2号楼 305, 2栋-305, 2#305, B2栋305
  {
    form: whole(`${LETTERS_NUMBER}\\s*${BUILDING_SUFFIX}\\s*(?:[-/]\\s*)?${ROOM}`),
    read: (m) => place(m[1]!, m[2]!, m[3]!),
  },
  // 2-305, 2/305, 2 305, B2-305
  { form: whole(`${LETTERS_NUMBER}${SEPARATOR}${ROOM}`), read: (m) => place(m[1]!, m[2]!, m[3]!) },
  // 二号楼305, 十二栋 305
  {
    form: whole(`${CN_NUMBER}\\s*${BUILDING_SUFFIX}\\s*(?:[-/]\\s*)?${ROOM}`),
    read: (m) => {
      const n = chineseNumber(m[1]!);
      return n === undefined ? undefined : place("", String(n), m[2]!);
    },
  },
  // A栋305, A座 305, A-305
  {
    form: whole(`${LETTERS}\\s*${BUILDING_SUFFIX}\\s*(?:[-/]\\s*)?${ROOM}`),
    read: (m) => place(m[1]!, "", m[2]!),
  },
  { form: whole(`${LETTERS}\\s*[-/]\\s*${ROOM}`), read: (m) => place(m[1]!, "", m[2]!) },
  // Building 2 room 305, Bldg 2-305
  {
    form: whole(`${EN_BUILDING}${LETTERS_NUMBER}(?:${SEPARATOR}|\\s*,\\s*)(?:room\\s*|rm\\.?\\s*)?${ROOM}`),
    read: (m) => place(m[1]!, m[2]!, m[3]!),
  },
];

function place(letters: string, number: string, room: string): Place {
  return { building: building(letters, number), room };
}

function building(letters: string, number: string): Building {
  return { letters, number: number === "" ? "" : number.replace(/^0+(?=\d)/u, "") };
}

/**
 * Width-folded (full-width digits, letters, "＃" and spaces become ASCII), lower case, dashes of
 * every kind as "-", runs of white space as one space, trimmed.
 */
export function normalizeKeyword(text: string): string {
  return text
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[‐‑‒–—―−]/gu, "-")
    .replace(/\s+/gu, " ")
    .trim();
}

/** 1 to 99 in Chinese numerals: "一" … "九", "十", "十二", "二十", "二十三"; anything else undefined. */
export function chineseNumber(text: string): number | undefined {
  const digit = (c: string | undefined) => (c === undefined ? -1 : CN_DIGITS.indexOf(c) + 1);
  const match = /^([一二三四五六七八九])?(十)?([一二三四五六七八九])?$/u.exec(text);
  if (!match || text === "") return undefined;
  const [, tens, ten, ones] = match;
  if (!ten) return tens && !ones ? digit(tens) : undefined;
  return (tens ? digit(tens) : 1) * 10 + (ones ? digit(ones) : 0);
}

/** The Chinese numerals of 1 to 99, as chineseNumber reads them back. */
export function chineseNumeral(n: number): string {
  if (!Number.isInteger(n) || n < 1 || n > 99) throw new RangeError(`no numeral for ${n}`);
  const tens = Math.floor(n / 10);
  const ones = n % 10;
  const digit = (d: number) => CN_DIGITS[d - 1]!;
  if (tens === 0) return digit(ones);
  return `${tens === 1 ? "" : digit(tens)}十${ones === 0 ? "" : digit(ones)}`;
}

/** The building forms an area's name takes, whole or after a prefix such as "一期" or "第". */
const AREA_FORMS: { form: RegExp; read: (m: RegExpMatchArray) => Building | undefined }[] = [
  { form: whole(`${LETTERS_NUMBER}${BUILDING_SUFFIX}?`), read: (m) => building(m[1]!, m[2]!) },
  { form: whole(`${LETTERS}${BUILDING_SUFFIX}`), read: (m) => building(m[1]!, "") },
  { form: whole(`${EN_BUILDING}${LETTERS_NUMBER}`), read: (m) => building(m[1]!, m[2]!) },
  // A prefix needs a building word after the number: "一期2号楼", but "2期" alone is no building.
  { form: whole(`.*[^a-z0-9]${LETTERS_NUMBER}${BUILDING_SUFFIX}`), read: (m) => building(m[1]!, m[2]!) },
  {
    form: whole(`.*?${CN_NUMBER}${BUILDING_SUFFIX}`),
    read: (m) => {
      const n = chineseNumber(m[1]!);
      return n === undefined ? undefined : building("", String(n));
    },
  },
];

/**
 * The building an area's name names, if it names one: "2号楼", "2栋", "2#", "B2", "二号楼",
 * "一期3号楼", "Building 2". Units, floors and parks ("1单元", "3楼", "阳光公寓") name none.
 */
export function buildingOf(areaName: string): Building | undefined {
  const name = normalizeKeyword(areaName).replace(/ /gu, (space, at, all: string) =>
    // Spaces inside a Chinese name carry nothing ("2 号楼"); between English words they do.
    /[a-z.]/u.test(all[at - 1] ?? "") && /[a-z\d]/u.test(all[at + 1] ?? "") ? space : "",
  );
  for (const { form, read } of AREA_FORMS) {
    const match = form.exec(name);
    const found = match ? read(match) : undefined;
    if (found) return found;
  }
  return undefined;
}

/**
 * Whether a building typed and an area's building are the same, loosely: the numbers agree (or
 * both have none), and the letters agree where both have some. "2" is "2号楼", "2栋", "B2";
 * "B2" is "2号楼" and "B2栋" but not "A2"; "A" is "A座".
 */
export function sameBuilding(typed: Building, area: Building): boolean {
  if (typed.number !== area.number) return false;
  if (typed.number === "") return typed.letters !== "" && typed.letters === area.letters;
  return typed.letters === "" || area.letters === "" || typed.letters === area.letters;
}

/**
 * Patterns (for a SQL `ilike any`) that every area name naming `b` matches, so the areas a place
 * may mean are fetched by an index and then judged by sameBuilding: the number in digits and in
 * Chinese numerals, or the letters.
 */
export function buildingNamePatterns(b: Building): string[] {
  if (b.number === "") return [`%${b.letters}%`];
  const n = Number(b.number);
  return n >= 1 && n <= 99 ? [`%${b.number}%`, `%${chineseNumeral(n)}%`] : [`%${b.number}%`];
}

const ROOM_WORD = /^[a-z0-9][a-z0-9-]*$/u;
const stripRoomWord = (text: string) => text.replace(/(?<=\d[a-z]?)(?:室|房)$/u, "");

/**
 * Every reading of a keyword, or undefined when it is too long or has too many words to be one
 * (the caller's 400 naming `keyword`). An empty keyword has no readings: the caller lists.
 */
export function readKeyword(raw: string): KeywordReadings | undefined {
  if (raw.length > KEYWORD_MAX_LENGTH) return undefined;
  const text = normalizeKeyword(raw);
  const words = text === "" ? [] : text.split(" ");
  if (words.length > KEYWORD_MAX_WORDS) return undefined;
  const readings: KeywordReadings = { text, places: [], buildings: [], roomTexts: [] };
  if (text === "") return readings;

  for (const { form, read } of PLACE_FORMS) {
    const match = form.exec(text);
    const found = match ? read(match) : undefined;
    if (found && !readings.places.some((p) => samePlace(p, found))) readings.places.push(found);
  }
  const named = buildingOf(text);
  // A building alone only with a building word: "2" is a room, a phone's end or a meter's.
  if (named && !/^[a-z]{0,2}\d+$/u.test(text)) readings.buildings.push(named);

  readings.roomTexts = [...new Set([text, stripRoomWord(text)])];
  const last = words.at(-1)!;
  if (words.length > 1 && ROOM_WORD.test(stripRoomWord(last)))
    readings.roomInArea = { areaWords: words.slice(0, -1), room: stripRoomWord(last) };

  if (!/\d/u.test(text)) readings.ownerName = text;
  // A whole phone is read aloud in groups ("139 1075 2305", "139-1075-2305"); its last digits are
  // typed alone: "2-305" is a room, not a phone ending in 2305.
  const digits = /^[\d -]+$/u.test(text) ? text.replace(/[ -]/gu, "") : "";
  if (/^1\d{10}$/u.test(digits)) readings.phone = { digits, whole: true };
  else if (/^\d{4,10}$/u.test(text)) readings.phone = { digits: text, whole: false };
  if (/^\d{4,14}$/u.test(text)) readings.meterDigits = text;
  return readings;
}

const samePlace = (a: Place, b: Place) =>
  a.room === b.room && a.building.letters === b.building.letters && a.building.number === b.building.number;
