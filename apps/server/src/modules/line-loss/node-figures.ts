import {
  againstBand,
  type Band,
  type LossMeter,
  learnBand,
  type NodeLoss,
  nodeLoss,
  type RegisterRead,
  sortedReads,
} from "@meterline/analytics";

/** A node of the topology as the loss calculation needs it. */
export interface TopologyNode {
  id: string;
  parentId: string;
  masterMeterId: string | null;
  /** Meters listed under the node (rooms' and common-area meters). */
  listedMeterIds: readonly string[];
}

/** What flows out of a node: its listed meters and its child nodes' masters (unless a child has none). */
export interface NodeOutflow {
  subMeterIds: string[];
  /** Child nodes without a master meter: what they take cannot be counted. */
  unmeteredChildren: string[];
}

export function outflows(nodes: readonly TopologyNode[]): Map<string, NodeOutflow> {
  const out = new Map<string, NodeOutflow>(
    nodes.map((node) => [node.id, { subMeterIds: [...node.listedMeterIds], unmeteredChildren: [] }]),
  );
  for (const node of nodes) {
    const parent = out.get(node.parentId);
    if (!parent) continue;
    if (node.masterMeterId) parent.subMeterIds.push(node.masterMeterId);
    else parent.unmeteredChildren.push(node.id);
  }
  return out;
}

export type LossState = "ok" | "above-band" | "below-band" | "missing" | "fault" | "negative" | "no-master";

/** One period's loss of one node, with the ids of the meters or child nodes that stand in its way. */
export type PeriodLoss = { kind: "no-master" } | { kind: "unmetered-child"; nodes: string[] } | NodeLoss;

/** The node's loss over [from, to), from reads sorted per meter (those around the instants suffice). */
export function periodLoss(
  node: TopologyNode,
  outflow: NodeOutflow,
  reads: ReadonlyMap<string, readonly RegisterRead[]>,
  from: number,
  to: number,
): PeriodLoss {
  if (!node.masterMeterId) return { kind: "no-master" };
  if (outflow.unmeteredChildren.length > 0)
    return { kind: "unmetered-child", nodes: outflow.unmeteredChildren };
  const meter = (id: string): LossMeter => ({ id, reads: reads.get(id) ?? [] });
  return nodeLoss({ master: meter(node.masterMeterId), subs: outflow.subMeterIds.map(meter), from, to });
}

/** The reads of each meter sorted by time, as nodeLoss expects. */
export function sortedByMeter(reads: ReadonlyMap<string, RegisterRead[]>): Map<string, RegisterRead[]> {
  return new Map([...reads].map(([id, list]) => [id, sortedReads(list)]));
}

/** The per-cent figure a day adds to a node's history: only days whose loss could be measured. */
export const historyValue = (loss: PeriodLoss): number =>
  loss.kind === "loss" && loss.percent !== null ? loss.percent : Number.NaN;

/** Days a node's band is learned from: the four weeks before the day judged. */
export const BAND_DAYS = 28;

/** Loss in per cent against the node's band, learned from its previous days (a floor of half a point). */
export function bandOf(history: readonly number[]): Band | undefined {
  return learnBand(history, { minDays: 7, width: 3, floor: 0.5 });
}

export function stateOf(loss: PeriodLoss, band: Band | undefined): LossState {
  switch (loss.kind) {
    case "no-master":
      return "no-master";
    case "unmetered-child":
    case "missing":
      return "missing";
    case "meter-fault":
      return "fault";
    case "negative":
      return "negative";
    case "loss": {
      if (!band || loss.percent === null) return "ok";
      const side = againstBand(loss.percent, band);
      return side === "inside" ? "ok" : side === "above" ? "above-band" : "below-band";
    }
  }
}

/** 0.0001 units as a decimal with 2 places, rounded half away from zero. */
export function hundredthsText(aligned: bigint): string {
  const negative = aligned < 0n;
  const magnitude = negative ? -aligned : aligned;
  const hundredths = (magnitude + 50n) / 100n;
  const text = `${hundredths / 100n}.${String(hundredths % 100n).padStart(2, "0")}`;
  return negative && hundredths > 0n ? `-${text}` : text;
}

/** A band's figures for the wire, to 2 decimals. */
export const bandView = (band: Band | undefined) =>
  band
    ? {
        median: round2(band.median),
        low: round2(band.low),
        high: round2(band.high),
        days: band.days,
      }
    : null;

const round2 = (value: number) => Math.round(value * 100) / 100;
