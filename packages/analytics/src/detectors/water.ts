import { type RegisterRead, valueAt } from "../align.ts";
import { type Suspicion, saturating } from "./evidence.ts";

const HOUR_MS = 3_600_000;

/**
 * The smallest hourly volume (m³ per hour) over the hours from `from` to `to` (the quiet hours of a
 * night, e.g. 00:00–05:00 local), from a meter's reads aligned to each hour. An hour whose ends
 * cannot be aligned (a missed poll) is left out rather than spoiling the night; undefined when
 * fewer than half of the hours have a figure. Each meter's series: 0.01 m³ registers sorted by time.
 */
export function minimumHourlyFlow(
  meters: readonly (readonly RegisterRead[])[],
  from: number,
  to: number,
  signs: readonly number[] = meters.map(() => 1),
  maxGapMs = 2 * HOUR_MS,
): number | undefined {
  let least: number | undefined;
  let hours = 0;
  let known = 0;
  eachHour: for (let start = from; start + HOUR_MS <= to; start += HOUR_MS) {
    hours++;
    let hour = 0n;
    for (const [index, reads] of meters.entries()) {
      const a = valueAt(reads, start, maxGapMs);
      const b = valueAt(reads, start + HOUR_MS, maxGapMs);
      if (a.kind !== "value" || b.kind !== "value") continue eachHour;
      hour += (b.value - a.value) * BigInt(signs[index]!);
    }
    known++;
    const m3 = Number(hour) / 10_000;
    least = least === undefined ? m3 : Math.min(least, m3);
  }
  return known * 2 >= hours ? least : undefined;
}

/**
 * The unmetered night flow of a node: per quiet hour, its master's volume minus its sub-meters'
 * together, and the smallest of those hours. A leak between the master and the rooms (a pipe in a
 * wall, a tap in a plant room) shows as a floor that never reaches zero.
 */
export function unmeteredNightFlow(
  master: readonly RegisterRead[],
  subs: readonly (readonly RegisterRead[])[],
  from: number,
  to: number,
): number | undefined {
  return minimumHourlyFlow([master, ...subs], from, to, [1, ...subs.map(() => -1)]);
}

export interface NightFlowOptions {
  /** m³ per hour a quiet night's smallest hour may show (a dripping cistern, a meter's creep). */
  threshold?: number;
  /** Consecutive nights above it before a visit is asked for. */
  nights?: number;
}

/**
 * Water flowing in every hour of the quiet nights, for `nights` nights in a row up to the last one:
 * nobody draws water every hour between midnight and five, night after night; a leak does.
 * `perNight`: each night's smallest hourly flow (minimumHourlyFlow), oldest first, with its start.
 */
export function nightFlow(
  subject: string,
  perNight: readonly { at: number; flow: number | undefined }[],
  kind: "night-flow" | "node-leak" = "night-flow",
  options: NightFlowOptions = {},
): Suspicion | undefined {
  const { threshold = kind === "node-leak" ? 0.05 : 0.02, nights = 3 } = options;
  let run = 0;
  for (let index = perNight.length - 1; index >= 0; index--) {
    const flow = perNight[index]!.flow;
    if (flow === undefined || flow <= threshold) break;
    run++;
  }
  if (run < nights) return undefined;
  const flows = perNight.slice(-run).map((night) => night.flow!);
  const least = Math.min(...flows);
  return {
    kind,
    subject,
    score: saturating(run / nights, 1) * saturating(least / threshold, 2),
    from: perNight[perNight.length - run]!.at,
    to: perNight.at(-1)!.at,
    figures: [
      { name: "nights in a row", value: run, unit: "nights" },
      { name: "least night flow", value: Math.round(least * 1000) / 1000, unit: "m³/h" },
      { name: "litres a day at that rate", value: Math.round(least * 24 * 1000), unit: "L" },
    ],
  };
}
