import { resourceBase, resources } from "@meterline/contracts";
import { api } from "../../../../app/api.ts";

export type TopologyCategory = "area" | "collector" | "direct" | "meter" | "water";

/** One node of area/topologyDiagram's tree: area → building → collector → meter. */
export interface TopologyBranch {
  id: string;
  name: string;
  category: TopologyCategory;
  /** Meters: the room they are installed in. */
  room?: string;
  /** Meters and collectors: 1 online, 0 offline. */
  online?: number;
  /** Meters below this node (1 for a meter) and how many of them are offline. */
  meters: number;
  offline: number;
  children: TopologyBranch[];
}

export interface Topology {
  roots: TopologyBranch[];
  meters: number;
  offline: number;
  /** More meters than the server's limit: the tree holds the first ones. */
  truncated: boolean;
}

/** The server's bound on the meters of one answer (shown in the truncation warning). */
export const TOPOLOGY_METER_LIMIT = 20_000;

/** The tree below one area, or of the whole tenant without one. */
export const loadTopology = (areaId?: string) =>
  api.get<Topology>(`${resourceBase(resources.area)}/topologyDiagram`, areaId ? { areaId } : {});
