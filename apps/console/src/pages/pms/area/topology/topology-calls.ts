import { resourceBase, resources } from "@meterline/contracts";
import { api } from "../../../../app/api.ts";

export const TOPOLOGY_CATEGORIES = ["area", "room", "meter", "water", "collector"] as const;
export type TopologyCategory = (typeof TOPOLOGY_CATEGORIES)[number];

export interface TopologyNode {
  id: string;
  name: string;
  category: TopologyCategory;
  /** 1 online, 0 offline, for meters and collectors; absent for areas and rooms. */
  online?: number;
}

/** area/topologyDiagram: area → room → meter → collector; `truncated` when too large to draw. */
export interface Topology {
  nodes: TopologyNode[];
  links: { source: string; target: string }[];
  truncated: boolean;
}

/** The graph below one area, or of the whole tenant without one. */
export const loadTopology = (areaId?: string) =>
  api.get<Topology>(`${resourceBase(resources.area)}/topologyDiagram`, areaId ? { areaId } : {});
