import { api } from "../../../app/api.ts";

const base = "/api/blade-pms/line-loss";

export type LossState = "ok" | "above-band" | "below-band" | "missing" | "fault" | "negative" | "no-master";

export interface LossBand {
  median: number;
  low: number;
  high: number;
  days: number;
}

/** One node's loss over the period, as the server answers it (kWh or m³ as 2-decimal text). */
export interface NodeLoss {
  id: string;
  parentId: string;
  nodeName: string;
  nodeKind: number;
  areaName: string | null;
  masterMeterId: string | null;
  masterMeterCode: string | null;
  input: string | null;
  delivered: string | null;
  loss: string | null;
  percent: number | null;
  state: LossState;
  missingMeters: string[];
  faultyMeters: string[];
  unmeteredNodes: string[];
  band: LossBand | null;
  children: NodeLoss[];
}

export interface LossDay {
  day: string;
  percent: number | null;
  loss: string | null;
  state: LossState;
  band: LossBand | null;
}

/** A local day (yyyy-MM-dd) or month (yyyy-MM). */
export type LossPeriod = { day: string } | { month: string };

export const loadLossNodes = (energyType: string, period: LossPeriod) =>
  api.get<{ nodes: NodeLoss[] }>(`${base}/nodes`, { energyType, ...period });

export const loadLossHistory = (nodeId: string, day: string, days = 60) =>
  api.get<{ nodeName: string; days: LossDay[] }>(`${base}/history`, { nodeId, day, days: String(days) });
