import type { DateTimeInput } from "@meterline/protocols";

/**
 * Meters keep local time (the tenant's zone, Asia/Shanghai by default): relay validity deadlines
 * are written in it and daily frozen data belongs to its days (design.md §5 "Time").
 */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let found = formatters.get(timeZone);
  if (!found) {
    found = new Intl.DateTimeFormat("en-CA", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    formatters.set(timeZone, found);
  }
  return found;
}

export function localParts(at: Date, timeZone: string): Required<Omit<DateTimeInput, "weekday">> {
  const parts: Record<string, number> = {};
  for (const part of formatter(timeZone).formatToParts(at)) {
    if (part.type !== "literal") parts[part.type] = Number(part.value);
  }
  return {
    year: parts.year!,
    month: parts.month!,
    day: parts.day!,
    hour: parts.hour!,
    minute: parts.minute!,
    second: parts.second!,
  };
}

let partsCache: { at: number; timeZone: string; parts: ReturnType<typeof localParts> } | undefined;

/** localParts of an instant, remembering the last answer (batches ask for the same deadline). */
export function localPartsCached(at: number, timeZone: string): ReturnType<typeof localParts> {
  if (partsCache?.at !== at || partsCache.timeZone !== timeZone)
    partsCache = { at, timeZone, parts: localParts(new Date(at), timeZone) };
  return partsCache.parts;
}

const dayCache = new Map<string, { minute: number; day: string }>();

/** "2026-11-22" in the given zone. Asked on every poll, so the answer is kept for the minute. */
export function localDay(at: Date, timeZone: string): string {
  const minute = Math.floor(at.getTime() / 60_000);
  const cached = dayCache.get(timeZone);
  if (cached?.minute === minute) return cached.day;
  const { year, month, day } = localParts(at, timeZone);
  const text = `${year}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
  dayCache.set(timeZone, { minute, day: text });
  return text;
}

/**
 * "yyyy-MM-dd HH:mm:ss" in the zone as an instant (epoch ms); undefined when it is not such a
 * text. Meters keep local wall time, so their clocks are compared in the tenant's zone.
 */
export function localTextToEpoch(text: string, timeZone: string): number | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/.exec(text);
  if (!match) return undefined;
  const [year, month, day, hour, minute, second] = match.slice(1).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const asUtc = Date.UTC(year, month - 1, day, hour, minute, second);
  const seen = localParts(new Date(asUtc), timeZone);
  const offset = Date.UTC(seen.year, seen.month - 1, seen.day, seen.hour, seen.minute, seen.second) - asUtc;
  return asUtc - offset;
}
