import { api } from "../../../app/api.ts";

/** A meter as the topology view shows it: its address whole and the room it is installed in. */
export interface TopologyMeter {
  meterId: string;
  productCode: string;
  /** 1 分户表, 2 公区表; absent for a master. */
  meterRole?: number;
  roomId?: string;
  room?: string;
}

/** One node of the tree as the server answers it: flat, naming its parent. */
export interface TopologyNode {
  id: string;
  parentId: string;
  nodeTitle: string;
  nodeKind: number;
  areaName: string | null;
  master: TopologyMeter | null;
  meters: TopologyMeter[];
}

export const loadTopologyNodes = (energyType: string) =>
  api.get<{ energyType: number; nodes: TopologyNode[] }>("/api/blade-pms/topology/nodes", { energyType });
