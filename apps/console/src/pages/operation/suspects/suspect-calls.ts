import { api } from "../../../app/api.ts";

const base = "/api/blade-pms/suspects";

export type SuspectState = "new" | "visiting" | "confirmed" | "dismissed";

/** One figure of a detector's evidence: a named number with its unit, shown as it is. */
export interface EvidenceFigure {
  name: string;
  value: number;
  unit: string;
  /** The day (yyyy-MM-dd) a figure of one day belongs to. */
  day?: string;
}

/** A meter or node the detectors suspect, with its labels, rank and the inspector's verdict. */
export interface Suspect {
  id: string;
  energyType: number;
  subjectType: "meter" | "node";
  subjectId: string;
  kind: string;
  score: number;
  rank: number;
  evidenceFrom: number;
  evidenceTo: number;
  figures: EvidenceFigure[];
  state: SuspectState;
  reason: string | null;
  updateUser: string | null;
  meterCode: string | null;
  roomName: string | null;
  buildingName: string | null;
  nodeName: string | null;
}

/** The subject's daily figure (usage, or a node's loss) for the evidence chart; null without one. */
export interface SuspectDetail extends Suspect {
  series: { day: string; value: string | null }[];
  /** A load without energy: the meter's highest power of each day (kW), beside its usage. */
  power?: { day: string; value: string | null }[];
}

export interface SuspectQuery {
  energyType: 1 | 2;
  state?: SuspectState;
  /** A metering node: what is counted under it and the nodes below it. */
  nodeId?: string;
}

export const loadSuspects = (query: SuspectQuery) =>
  api.get<{ records: Suspect[]; total: number }>(`${base}/page`, { ...query, current: 1, size: 200 });
export const loadSuspect = (id: string) => api.get<SuspectDetail>(`${base}/detail`, { id });
export const sweepSuspects = () => api.post<{ found: number }>(`${base}/sweep`, {});
export const markSuspect = (id: string, state: SuspectState, reason: string) =>
  api.post<Suspect>(`${base}/state`, { id, state, ...(reason ? { reason } : {}) });
