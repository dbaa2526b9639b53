import { median } from "../band.ts";
import { type Suspicion, saturating } from "./evidence.ts";

export interface SustainedDropInput {
  meterId: string;
  /** Epoch milliseconds of the first day's start (the days follow each other). */
  firstDay: number;
  /** The meter's daily usage (kWh or m³), oldest first, ending with the day judged. */
  daily: readonly number[];
  /** The same days' usage of the other meters under the same node. */
  peers: readonly (readonly number[])[];
  /** The node's daily loss over the same days (kWh or m³); omitted where the node has no master. */
  nodeLoss?: readonly number[];
}

export interface SustainedDropOptions {
  recentDays?: number;
  baselineDays?: number;
  /** A drop is suspicious once the meter's recent median is below this share of its baseline, peers considered. */
  ratio?: number;
  /** Below this baseline (per day) the meter is a vacant room's or a standby's: not judged. */
  minDaily?: number;
  /**
   * Below this score the drop is not worth a visit: mostly a drop the node's loss does not account
   * for (a room left empty), or too small a one.
   */
  minScore?: number;
}

interface Window {
  recent: number;
  baseline: number;
}

function windows(series: readonly number[], recentDays: number, baselineDays: number): Window | undefined {
  if (series.length < recentDays + baselineDays) return undefined;
  const recent = series.slice(-recentDays);
  const baseline = series.slice(-(recentDays + baselineDays), -recentDays);
  return { recent: median(recent), baseline: median(baseline) };
}

/**
 * A meter whose usage fell and stayed low against its own past, while its peers under the same
 * node did not fall alike (a holiday or a season moves them all) and the node's loss rose by about
 * what the meter stopped counting: energy still used, no longer metered. A room left empty drops
 * too, but its node's loss does not rise: that is what keeps it off the list.
 */
export function sustainedDrop(
  input: SustainedDropInput,
  options: SustainedDropOptions = {},
): Suspicion | undefined {
  const { recentDays = 7, baselineDays = 28, ratio = 0.75, minDaily = 1, minScore = 0.2 } = options;
  const own = windows(input.daily, recentDays, baselineDays);
  if (!own || own.baseline < minDaily) return undefined;
  const peerRatios = input.peers
    .map((series) => windows(series, recentDays, baselineDays))
    .filter((window): window is Window => window !== undefined && window.baseline >= minDaily)
    .map((window) => window.recent / window.baseline);
  const peerRatio = peerRatios.length > 0 ? median(peerRatios) : 1;
  const relative = own.recent / own.baseline / Math.max(peerRatio, 0.05);
  if (relative >= ratio) return undefined;
  const missing = own.baseline * Math.min(peerRatio, 1) - own.recent;
  const loss = input.nodeLoss ? windows(input.nodeLoss, recentDays, baselineDays) : undefined;
  const lossRise = loss ? loss.recent - loss.baseline : undefined;
  // How well the loss's rise accounts for what the meter stopped counting (1: exactly).
  const match =
    lossRise === undefined
      ? 0.5
      : lossRise <= 0
        ? 0.1
        : Math.min(lossRise, missing) / Math.max(lossRise, missing);
  const score = saturating(1 - relative, 0.4) * match;
  if (score < minScore) return undefined;
  const first = input.daily.length - recentDays;
  return {
    kind: "sustained-drop",
    subject: input.meterId,
    score,
    from: input.firstDay + first * DAY_MS,
    to: input.firstDay + (input.daily.length - 1) * DAY_MS,
    figures: [
      { name: "usage per day before", value: round(own.baseline), unit: "per day" },
      { name: "usage per day now", value: round(own.recent), unit: "per day" },
      { name: "peers now against before", value: round(peerRatio), unit: "ratio" },
      ...(lossRise === undefined
        ? []
        : [{ name: "node loss rise per day", value: round(lossRise), unit: "per day" }]),
    ],
  };
}

const DAY_MS = 86_400_000;
const round = (value: number) => Math.round(value * 100) / 100;
