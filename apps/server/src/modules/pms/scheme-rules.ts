/**
 * The rules of charging and alarm schemes (metering-domain §4.2–4.5), pure so they can be tested
 * exhaustively. Each check returns the scheme's JSON parts in canonical form or throws a
 * SchemeError naming the field.
 */
export class SchemeError extends Error {
  constructor(
    readonly field: string,
    reason: string,
  ) {
    super(`${field}: ${reason}`);
  }
}

/** An exact decimal as an integer count of 10^-scale units; never a float. */
export function scaled(value: string, scale: number): bigint {
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(value.trim());
  if (!match) throw new Error(`not a decimal: ${value}`);
  const [, sign, whole, fraction = ""] = match;
  if (fraction.length > scale) throw new Error(`more than ${scale} decimals: ${value}`);
  const units = BigInt(whole!) * 10n ** BigInt(scale) + BigInt(fraction.padEnd(scale, "0") || "0");
  return sign ? -units : units;
}

const DECIMAL = (scale: number) => new RegExp(`^\\d{1,10}(\\.\\d{1,${scale}})?$`);
const TIME = /^([01]\d|2[0-3]):([0-5]\d)$|^24:00$/;
export const BANDS = ["tip", "peak", "peace", "low"] as const;
export type Band = (typeof BANDS)[number];
/** DL/T 645 meters hold at most 14 slots per daily table; a scheme that fits can be written to them. */
export const MAX_TOU_SLOTS = 14;
const MINUTES_PER_DAY = 24 * 60;

function parseJson(field: string, text: unknown): unknown {
  if (typeof text !== "string" || text.trim() === "") throw new SchemeError(field, "不能为空");
  try {
    return JSON.parse(text);
  } catch {
    throw new SchemeError(field, "不是合法的 JSON");
  }
}

const minutes = (field: string, time: unknown): number => {
  if (typeof time !== "string" || !TIME.test(time))
    throw new SchemeError(field, `时间 ${String(time)} 应为 HH:mm`);
  const [h, m] = time.split(":").map(Number) as [number, number];
  return h * 60 + m;
};

/** The minutes of the day a [start, end) window covers; end before start wraps past midnight. */
export function windowMinutes(field: string, start: unknown, end: unknown): number[] {
  const from = minutes(field, start);
  const to = minutes(field, end);
  if (from === to) throw new SchemeError(field, `时段 ${String(start)}-${String(end)} 为空`);
  const span = (to - from + MINUTES_PER_DAY) % MINUTES_PER_DAY || MINUTES_PER_DAY;
  return Array.from({ length: span }, (_, i) => (from + i) % MINUTES_PER_DAY);
}

export interface LadderTier {
  /** Upper bound of the tier in kWh or m³ per cycle; null for the last, open tier. */
  limit: string | null;
  price: string;
}

/** Tiers with strictly rising limits, the last one open, prices exact to 4 decimals. */
export function checkLadder(text: unknown): LadderTier[] {
  const parsed = parseJson("ladder", text);
  if (!Array.isArray(parsed) || parsed.length < 2 || parsed.length > 8)
    throw new SchemeError("ladder", "阶梯应为 2 到 8 档");
  let previous = 0n;
  return parsed.map((tier: unknown, i) => {
    const { limit, price } = (tier ?? {}) as { limit?: unknown; price?: unknown };
    const last = i === parsed.length - 1;
    if (typeof price !== "string" || !DECIMAL(4).test(price))
      throw new SchemeError("ladder", `第 ${i + 1} 档单价应为最多4位小数的数字`);
    if (last) {
      if (limit !== null && limit !== undefined && limit !== "")
        throw new SchemeError("ladder", "最后一档不设上限");
      return { limit: null, price };
    }
    if (typeof limit !== "string" || !DECIMAL(2).test(limit))
      throw new SchemeError("ladder", `第 ${i + 1} 档上限应为最多2位小数的数字`);
    const bound = scaled(limit, 2);
    if (bound <= previous) throw new SchemeError("ladder", `第 ${i + 1} 档上限必须大于上一档`);
    previous = bound;
    return { limit, price };
  });
}

export interface TouPeriod {
  start: string;
  end: string;
  band: Band;
}

/** Slots that cover the whole day exactly once, at most 14, with no two neighbours in the same band. */
export function checkTouPeriods(text: unknown): TouPeriod[] {
  const parsed = parseJson("touPeriods", text);
  if (!Array.isArray(parsed) || parsed.length === 0 || parsed.length > MAX_TOU_SLOTS)
    throw new SchemeError("touPeriods", `时段应为 1 到 ${MAX_TOU_SLOTS} 段`);
  const owner = new Array<number>(MINUTES_PER_DAY).fill(-1);
  const periods = parsed.map((slot: unknown, i) => {
    const { start, end, band } = (slot ?? {}) as Record<string, unknown>;
    if (!BANDS.includes(band as Band))
      throw new SchemeError("touPeriods", `第 ${i + 1} 段的费率应为 ${BANDS.join("/")}`);
    for (const minute of windowMinutes("touPeriods", start, end)) {
      if (owner[minute] !== -1)
        throw new SchemeError("touPeriods", `第 ${i + 1} 段与第 ${owner[minute]! + 1} 段重叠`);
      owner[minute] = i;
    }
    return { start: start as string, end: end as string, band: band as Band };
  });
  const gap = owner.indexOf(-1);
  if (gap !== -1) {
    const at = `${String(Math.floor(gap / 60)).padStart(2, "0")}:${String(gap % 60).padStart(2, "0")}`;
    throw new SchemeError("touPeriods", `时段未覆盖全天(${at} 起无费率)`);
  }
  const ordered = [...periods].sort((a, b) => minutes("", a.start) - minutes("", b.start));
  for (let i = 0; i < ordered.length; i++) {
    const next = ordered[(i + 1) % ordered.length]!;
    if (ordered.length > 1 && ordered[i]!.band === next.band && ordered[i]!.end === next.start)
      throw new SchemeError("touPeriods", `相邻时段 ${ordered[i]!.start} 与 ${next.start} 费率相同,请合并`);
  }
  return ordered;
}

/** The bands a time-of-use scheme uses: each needs its price. */
export const bandsUsed = (periods: TouPeriod[]) => [...new Set(periods.map((p) => p.band))];

/** Alarm amounts must fall: first alarm above second (metering-domain §4.2). */
export function checkAlarmAmounts(first: string, second: string): void {
  if (scaled(first, 2) <= scaled(second, 2))
    throw new SchemeError("firstAlarm", "一级告警金额必须大于二级告警金额");
}

/** Times of day when supply is never cut. */
export function checkProtectTimes(text: unknown): { start: string; end: string }[] {
  const parsed = parseJson("protectTimes", text);
  if (!Array.isArray(parsed) || parsed.length > 10)
    throw new SchemeError("protectTimes", "保电时段最多 10 段");
  return parsed.map((slot: unknown) => {
    const { start, end } = (slot ?? {}) as Record<string, unknown>;
    windowMinutes("protectTimes", start, end);
    return { start: start as string, end: end as string };
  });
}

/** Dates (yyyy-MM-dd) or `weekend` when supply is never cut. */
export function checkProtectDates(text: unknown): string[] {
  const parsed = parseJson("protectDates", text);
  if (!Array.isArray(parsed) || parsed.length > 366)
    throw new SchemeError("protectDates", "保电日期最多 366 个");
  const dates = parsed.map((date: unknown) => {
    if (date === "weekend") return date;
    if (
      typeof date !== "string" ||
      !/^\d{4}-\d{2}-\d{2}$/.test(date) ||
      Number.isNaN(Date.parse(`${date}T00:00:00Z`))
    )
      throw new SchemeError("protectDates", `日期 ${String(date)} 应为 yyyy-MM-dd 或 weekend`);
    if (new Date(`${date}T00:00:00Z`).toISOString().slice(0, 10) !== date)
      throw new SchemeError("protectDates", `日期 ${date} 不存在`);
    return date;
  });
  return [...new Set(dates)].sort();
}
