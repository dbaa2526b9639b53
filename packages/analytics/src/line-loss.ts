import { DEFAULT_MAX_GAP_MS, type RegisterRead, valueAt } from "./align.ts";

/**
 * Line loss of a metering node over a period: what its master meter counted minus what its
 * sub-meters (rooms and common-area meters) counted over the same instants. All in 0.0001 kWh or
 * m³. A node where a meter has no trustworthy value at either end says which meters, rather than
 * guessing; a node whose sub-meters count more than its master is a mapping or meter fault, never
 * a gain.
 */

export interface LossMeter {
  id: string;
  /** Sorted by time (sortedReads). */
  reads: readonly RegisterRead[];
}

export interface NodeLossInput {
  master: LossMeter;
  subs: readonly LossMeter[];
  /** Epoch milliseconds: the period's start and end (a local day's or month's bounds). */
  from: number;
  to: number;
  maxGapMs?: number;
}

export interface LossFigures {
  /** What the master counted. */
  input: bigint;
  /** What the sub-meters counted together. */
  delivered: bigint;
  /** input − delivered. */
  loss: bigint;
  /** loss / input in per cent to 2 decimals; null when the master counted nothing. */
  percent: number | null;
}

export type NodeLoss =
  | ({ kind: "loss" } & LossFigures)
  /** Sub-meters counted more than the master: a meter under the wrong node, or a faulty meter. */
  | ({ kind: "negative" } & LossFigures)
  /** These meters have no value at the period's start or end (no read near enough). */
  | { kind: "missing"; meters: string[] }
  /** These meters' registers ran backwards within the period's ends (replaced or faulty). */
  | { kind: "meter-fault"; meters: string[] };

type Usage = { kind: "usage"; value: bigint } | { kind: "missing" } | { kind: "fault" };

function usageOf(meter: LossMeter, from: number, to: number, maxGapMs: number): Usage {
  const start = valueAt(meter.reads, from, maxGapMs);
  const end = valueAt(meter.reads, to, maxGapMs);
  if (start.kind === "backwards" || end.kind === "backwards") return { kind: "fault" };
  if (start.kind === "missing" || end.kind === "missing") return { kind: "missing" };
  if (end.value < start.value) return { kind: "fault" };
  return { kind: "usage", value: end.value - start.value };
}

/** loss / input as a percentage rounded half away from zero to 2 decimals. */
export function lossPercent(loss: bigint, input: bigint): number | null {
  if (input <= 0n) return null;
  const negative = loss < 0n;
  const magnitude = negative ? -loss : loss;
  const hundredths = (magnitude * 10_000n * 2n + input) / (input * 2n);
  return Number(negative ? -hundredths : hundredths) / 100;
}

export function nodeLoss(input: NodeLossInput): NodeLoss {
  if (!(input.to > input.from)) throw new RangeError("the period must end after it starts");
  const maxGapMs = input.maxGapMs ?? DEFAULT_MAX_GAP_MS;
  const meters = [input.master, ...input.subs];
  const usages = meters.map((meter) => ({
    id: meter.id,
    usage: usageOf(meter, input.from, input.to, maxGapMs),
  }));
  const faulty = usages.filter((entry) => entry.usage.kind === "fault").map((entry) => entry.id);
  if (faulty.length > 0) return { kind: "meter-fault", meters: faulty };
  const missing = usages.filter((entry) => entry.usage.kind === "missing").map((entry) => entry.id);
  if (missing.length > 0) return { kind: "missing", meters: missing };
  const values = usages.map((entry) => (entry.usage as { value: bigint }).value);
  const [master = 0n, ...subs] = values;
  const delivered = subs.reduce((sum, value) => sum + value, 0n);
  const loss = master - delivered;
  const figures = { input: master, delivered, loss, percent: lossPercent(loss, master) };
  return loss < 0n ? { kind: "negative", ...figures } : { kind: "loss", ...figures };
}
