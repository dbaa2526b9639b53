/** What an import will write, decided row by row by the ImportPlanner (import-planner.ts). */
import { resources } from "@meterline/contracts";
import type { CollectorPlan } from "./collector-planner.ts";
import type { RowText } from "./import-columns.ts";
import type { Values } from "./row-values.ts";
import type { TopologyPlan } from "./topology-planner.ts";

const { area, room, owner, ownerRoom, roomMeter, meter, water, meterOrigValue, collector } = resources;
/** The definitions whose rows an import creates (and whose dictionaries it checks). */
export const IMPORTED_DEFS = [
  area,
  room,
  owner,
  ownerRoom,
  roomMeter,
  meter,
  water,
  meterOrigValue,
  collector,
];

export interface NewRow {
  id: string;
  values: Values;
}
export interface Rejection {
  row: number;
  text: RowText;
  reason: string;
}
/** One entry of an owner's log per owner the import created or linked to rooms. */
export interface OwnerLogEntry {
  ownerId: string;
  ownerName: string;
  created: boolean;
  rooms: { roomId: string; room: string }[];
}

export interface ImportPlan {
  total: number;
  accepted: number;
  /** Accepted rows whose every part already existed. */
  unchanged: number;
  rejected: Rejection[];
  areas: NewRow[];
  rooms: NewRow[];
  owners: NewRow[];
  ownerRooms: NewRow[];
  meters: NewRow[];
  waters: NewRow[];
  roomMeters: NewRow[];
  /** New meters' registers at install (电表初始读数, 水表初始读数). */
  origValues: NewRow[];
  ownerLog: Map<string, OwnerLogEntry>;
}

/**
 * What a plan creates, as the preview and the import answer it. Node counts appear only for a file
 * with topology rows, collector counts only for a file with collector rows, so the answer to a room
 * sheet alone is what it always was.
 */
export const createdCounts = (plan: ImportPlan, topology: TopologyPlan, collectors: CollectorPlan) => ({
  ...(collectors.total > 0 ? { collectors: collectors.collectors.length } : {}),
  areas: plan.areas.length,
  rooms: plan.rooms.length,
  owners: plan.owners.length,
  meters: plan.meters.length,
  waters: plan.waters.length,
  links: plan.ownerRooms.length + plan.roomMeters.length,
  ...(topology.total > 0 ? { nodes: topology.nodes.length, nodeMeters: topology.nodeMeters.length } : {}),
});
