import type { MessageKey, Vars } from "../../../i18n/index.tsx";

/**
 * The JSON parts of charging and alarm schemes as the editors hold them, and the checks the
 * console can make before saving (the server checks all of it again, and a few things only it
 * knows, e.g. neighbouring slots of the same band). Every text is read leniently: a stored value
 * the editor cannot read starts it empty rather than breaking the form.
 */

export const BANDS = ["tip", "peak", "peace", "low"] as const;
export type Band = (typeof BANDS)[number];

export interface Tier {
  /** Upper bound of the tier per cycle; null for the last, open tier. */
  limit: string | null;
  price: string;
}
export interface Slot {
  start: string;
  end: string;
  band: Band | "";
}
export interface Window {
  start: string;
  end: string;
}
export interface Problem {
  key: MessageKey;
  vars?: Vars;
}

export const MIN_TIERS = 2;
export const MAX_TIERS = 8;
export const MAX_SLOTS = 14;
export const MAX_WINDOWS = 10;
export const MAX_DATES = 366;
export const MINUTES_PER_DAY = 24 * 60;
export const WEEKEND = "weekend";

const TIME = /^([01]\d|2[0-3]):([0-5]\d)$|^24:00$/;
const decimal = (scale: number) => new RegExp(`^\\d{1,10}(\\.\\d{1,${scale}})?$`);
const text = (value: unknown) => (value === null || value === undefined ? "" : String(value));

/** The stored JSON array of a scheme field; [] for nothing or anything else. */
export function parseArray(raw: unknown): unknown[] {
  if (typeof raw !== "string" || raw.trim() === "") return [];
  try {
    const parsed: unknown = JSON.parse(raw);
    return Array.isArray(parsed) ? parsed : [];
  } catch {
    return [];
  }
}
const field = (item: unknown, name: string) =>
  item && typeof item === "object" ? (item as Record<string, unknown>)[name] : undefined;

/** A decimal as an exact count of 10^-scale units, so limits compare without floating point. */
function units(value: string, scale: number): bigint {
  const [whole = "0", fraction = ""] = value.split(".");
  return BigInt(whole) * 10n ** BigInt(scale) + BigInt(fraction.padEnd(scale, "0") || "0");
}

// ---- ladder ----

/** The tiers of a ladder; a new ladder starts with one bounded and one open tier. */
export function parseTiers(raw: unknown): Tier[] {
  const items = parseArray(raw);
  if (items.length === 0)
    return [
      { limit: "", price: "" },
      { limit: null, price: "" },
    ];
  return items.map((item, i) => ({
    limit: i === items.length - 1 ? null : text(field(item, "limit")),
    price: text(field(item, "price")),
  }));
}

/** The stored JSON of tiers: the last one always open. */
export const tiersText = (tiers: readonly Tier[]) =>
  JSON.stringify(
    tiers.map((t, i) => ({ limit: i === tiers.length - 1 ? null : (t.limit ?? ""), price: t.price })),
  );

/** 2–8 tiers, prices exact to 4 decimals, limits to 2 and strictly rising, the last tier open. */
export function ladderProblem(raw: unknown): Problem | null {
  const tiers = parseTiers(raw);
  if (tiers.length < MIN_TIERS || tiers.length > MAX_TIERS)
    return { key: "scheme.ladder.count", vars: { min: MIN_TIERS, max: MAX_TIERS } };
  let previous = -1n;
  for (const [i, tier] of tiers.entries()) {
    const n = i + 1;
    if (i < tiers.length - 1) {
      const limit = (tier.limit ?? "").trim();
      if (!decimal(2).test(limit)) return { key: "scheme.ladder.limit", vars: { n } };
      const bound = units(limit, 2);
      if (bound <= previous || bound === 0n) return { key: "scheme.ladder.rising", vars: { n } };
      previous = bound;
    }
    if (!decimal(4).test(tier.price.trim())) return { key: "scheme.ladder.price", vars: { n } };
  }
  return null;
}

// ---- time of use ----

/** Minutes since midnight of an HH:mm time ("24:00" is the end of the day); null if not a time. */
export function minutesOf(time: string): number | null {
  if (!TIME.test(time)) return null;
  const [h, m] = time.split(":").map(Number) as [number, number];
  return h * 60 + m;
}

/** HH:mm of a minute of the day. */
export const timeOf = (minute: number) =>
  `${String(Math.floor(minute / 60)).padStart(2, "0")}:${String(minute % 60).padStart(2, "0")}`;

/** The minutes a [start, end) window covers; an end before the start wraps past midnight. */
export function windowMinutes(start: string, end: string): number[] | null {
  const from = minutesOf(start);
  const to = minutesOf(end);
  // As the server reads it: 00:00–24:00 is the whole day, 08:00–08:00 is empty.
  if (from === null || to === null || from === to) return null;
  const span = (to - from + MINUTES_PER_DAY) % MINUTES_PER_DAY || MINUTES_PER_DAY;
  return Array.from({ length: span }, (_, i) => (from + i) % MINUTES_PER_DAY);
}

const isBand = (value: unknown): value is Band => (BANDS as readonly unknown[]).includes(value);

export function parseSlots(raw: unknown): Slot[] {
  return parseArray(raw).map((item) => {
    const band = field(item, "band");
    return {
      start: text(field(item, "start")),
      end: text(field(item, "end")),
      band: isBand(band) ? band : "",
    };
  });
}

export const slotsText = (slots: readonly Slot[]) =>
  slots.length === 0 ? "" : JSON.stringify(slots.map(({ start, end, band }) => ({ start, end, band })));

/** The bands the slots use: each needs its price. */
export const bandsUsed = (raw: unknown): Band[] =>
  BANDS.filter((band) => parseSlots(raw).some((slot) => slot.band === band));

/** A stretch of the day: covered by one slot (its band), by none (gap), or by several (overlap). */
export interface DaySegment {
  from: number;
  to: number;
  band: Band | "" | null;
  overlap: boolean;
}

/** The day as the slots cover it, minute by minute, in stretches. */
export function dayCoverage(slots: readonly Slot[]): DaySegment[] {
  const owner = new Array<number>(MINUTES_PER_DAY).fill(-1);
  slots.forEach((slot, i) => {
    for (const minute of windowMinutes(slot.start, slot.end) ?? [])
      owner[minute] = owner[minute] === -1 ? i : -2;
  });
  const segments: DaySegment[] = [];
  for (let minute = 0; minute < MINUTES_PER_DAY; minute++) {
    const who = owner[minute]!;
    const last = segments.at(-1);
    const band = who >= 0 ? slots[who]!.band : null;
    const overlap = who === -2;
    if (last && last.to === minute && last.band === band && last.overlap === overlap) last.to = minute + 1;
    else segments.push({ from: minute, to: minute + 1, band, overlap });
  }
  return segments;
}

/** 1–14 complete slots that cover the whole day exactly once. */
export function slotsProblem(raw: unknown): Problem | null {
  const slots = parseSlots(raw);
  if (slots.length === 0 || slots.length > MAX_SLOTS)
    return { key: "scheme.tou.count", vars: { max: MAX_SLOTS } };
  const owner = new Array<number>(MINUTES_PER_DAY).fill(-1);
  for (const [i, slot] of slots.entries()) {
    const n = i + 1;
    if (!slot.band) return { key: "scheme.tou.bandMissing", vars: { n } };
    const minutes = windowMinutes(slot.start, slot.end);
    if (!minutes) return { key: "scheme.tou.time", vars: { n } };
    for (const minute of minutes) {
      if (owner[minute] !== -1) return { key: "scheme.tou.overlap", vars: { n, m: owner[minute]! + 1 } };
      owner[minute] = i;
    }
  }
  const gap = owner.indexOf(-1);
  return gap === -1 ? null : { key: "scheme.tou.gap", vars: { at: timeOf(gap) } };
}

// ---- protection windows and dates ----

export function parseWindows(raw: unknown): Window[] {
  return parseArray(raw).map((item) => ({
    start: text(field(item, "start")),
    end: text(field(item, "end")),
  }));
}

export const windowsText = (windows: readonly Window[]) =>
  windows.length === 0 ? "" : JSON.stringify(windows);

/** At most 10 windows, each a non-empty stretch of the day. */
export function windowsProblem(raw: unknown): Problem | null {
  const windows = parseWindows(raw);
  if (windows.length > MAX_WINDOWS) return { key: "scheme.protect.count", vars: { max: MAX_WINDOWS } };
  const bad = windows.findIndex((w) => !windowMinutes(w.start, w.end));
  return bad === -1 ? null : { key: "scheme.protect.time", vars: { n: bad + 1 } };
}

/** Protected dates and whether every weekend is protected. */
export function parseDates(raw: unknown): { weekend: boolean; dates: string[] } {
  const items = parseArray(raw).map(text);
  return { weekend: items.includes(WEEKEND), dates: items.filter((d) => d !== WEEKEND).sort() };
}

export function datesText(value: { weekend: boolean; dates: readonly string[] }): string {
  const items = [...new Set(value.dates)].sort();
  if (value.weekend) items.push(WEEKEND);
  return items.length === 0 ? "" : JSON.stringify(items);
}

export function datesProblem(raw: unknown): Problem | null {
  const { weekend, dates } = parseDates(raw);
  if (dates.length + (weekend ? 1 : 0) > MAX_DATES)
    return { key: "scheme.dates.count", vars: { max: MAX_DATES } };
  const bad = dates.find((d) => !/^\d{4}-\d{2}-\d{2}$/.test(d));
  return bad ? { key: "scheme.dates.format", vars: { date: bad } } : null;
}

// ---- notification channels ----

export const channelList = (csv: unknown) =>
  text(csv)
    .split(",")
    .map((c) => c.trim())
    .filter(Boolean);
export const channelText = (channels: readonly string[]) => [...new Set(channels)].join(",");
