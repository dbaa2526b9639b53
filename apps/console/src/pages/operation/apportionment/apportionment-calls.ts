import { api } from "../../../app/api.ts";

const base = "/api/blade-pms/apportionment";

/** A node with a common-area meter, as the picker lists it. */
export interface ApportionNode {
  id: string;
  nodeName: string;
  energyType: number;
  /** apportion_rule: 1 by area, 2 by usage, 3 evenly. */
  apportionRule: number;
  apportionLoss: number;
}

/** One room's part of the month: usages and area to 2 decimals, amount in yuan and fen. */
export interface RoomShare {
  roomId: string;
  roomName: string;
  meterCode: string;
  floorArea: string | null;
  usage: string;
  share: string;
  amount: string;
  amountFen: string;
}

export interface ApportionPreview {
  nodeName: string;
  energyType: number;
  month: string;
  rule: "area" | "usage" | "equal";
  commonUsage: string;
  loss: string;
  shared: string;
  rooms: RoomShare[];
  total: string;
}

/** RUN_STATE: 1 waiting for approval, 2 booked, 3 rejected, 4 reversed. */
export interface ApportionRun {
  id: string;
  nodeName: string | null;
  month: string;
  state: number;
  shared: string;
  total: string;
  rejectReason: string | null;
  reverseReason: string | null;
  creator: string;
  createTime: string;
}

export const loadApportionNodes = () => api.get<ApportionNode[]>(`${base}/nodes`);
export const loadApportionPreview = (nodeId: string, month: string) =>
  api.get<ApportionPreview>(`${base}/preview`, { nodeId, month });
export const loadApportionRuns = (nodeId: string) => api.get<ApportionRun[]>(`${base}/runs`, { nodeId });
export const bookApportionment = (nodeId: string, month: string) =>
  api.post<{ run: ApportionRun; created: boolean }>(`${base}/book`, { nodeId, month });
export const reverseApportionment = (runId: string, reason: string) =>
  api.post<ApportionRun>(`${base}/reverse`, { runId, reason });
