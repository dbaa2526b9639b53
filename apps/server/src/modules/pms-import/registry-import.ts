import type { Db, Queryable } from "../../db/client.ts";
import type { CurrentUser } from "../auth/current-user.ts";
import { MAX_PREVIEW_PROBLEMS } from "./import-columns.ts";
import { createdCounts, IMPORTED_DEFS, type ImportPlan } from "./import-plan.ts";
import { ImportPlanner } from "./import-planner.ts";
import type { ImportSheets } from "./import-sheet.ts";
import { writePlan } from "./import-writer.ts";
import { loadSnapshot } from "./registry-snapshot.ts";
import { storeRejectedSheet } from "./rejected-sheet.ts";
import { NODE_METER_SHEET, NODE_SHEET } from "./topology-columns.ts";
import { type TopologyPlan, TopologyPlanner } from "./topology-planner.ts";
import { loadTopology } from "./topology-snapshot.ts";

/** A rejected row as the preview lists it; `sheet` names a topology sheet (计量节点, 节点下级表). */
export interface Problem {
  row: number;
  reason: string;
  sheet?: string;
}

export interface PreviewResult {
  total: number;
  valid: number;
  rejected: number;
  creates: ReturnType<typeof createdCounts>;
  /** The first MAX_PREVIEW_PROBLEMS rejected rows: sheet row number, reason, and the topology sheet when not the room sheet. */
  problems: Problem[];
}

export interface ImportResult {
  total: number;
  imported: number;
  /** Imported rows whose every part already existed (an earlier import of the same rows). */
  unchanged: number;
  rejected: number;
  creates: ReturnType<typeof createdCounts>;
  /** Link to a sheet of the rejected rows with their reasons; empty when none. */
  rejectedFile: string;
}

/** Distinguishes the import's advisory locks from other users of the two-key lock space. */
const IMPORT_LOCK_CLASS = 7_046_452;

/**
 * Plans the room rows, then the topology rows against the registry as the room rows leave it (so
 * a node may name a meter the same file registers).
 */
async function planFor(db: Queryable, caller: CurrentUser, sheets: ImportSheets, timeZone: string) {
  const snapshot = await loadSnapshot(db, caller.tenantId, IMPORTED_DEFS);
  const plan = new ImportPlanner(snapshot, timeZone).planAll(sheets.rooms);
  const topology =
    sheets.nodes.length || sheets.nodeMeters.length
      ? new TopologyPlanner(await loadTopology(db, caller.tenantId), snapshot, timeZone).planAll(
          sheets.nodes,
          sheets.nodeMeters,
        )
      : EMPTY_TOPOLOGY;
  return { plan, topology };
}

const EMPTY_TOPOLOGY: TopologyPlan = {
  total: 0,
  accepted: 0,
  unchanged: 0,
  rejected: [],
  nodes: [],
  nodeMeters: [],
};

const SHEET_NAMES = { nodes: NODE_SHEET, nodeMeters: NODE_METER_SHEET } as const;

/** Every rejected row of both plans, the room sheet's first. */
const problemsOf = (plan: ImportPlan, topology: TopologyPlan): Problem[] => [
  ...plan.rejected.map(({ row, reason }) => ({ row, reason })),
  ...topology.rejected.map(({ row, reason, sheet }) => ({ row, reason, sheet: SHEET_NAMES[sheet] })),
];

/** What importing these rows into the caller's tenant would do; writes nothing. */
export async function previewImport(
  db: Queryable,
  caller: CurrentUser,
  sheets: ImportSheets,
  timeZone: string,
): Promise<PreviewResult> {
  const { plan, topology } = await planFor(db, caller, sheets, timeZone);
  return {
    total: plan.total + topology.total,
    valid: plan.accepted + topology.accepted,
    rejected: plan.rejected.length + topology.rejected.length,
    creates: createdCounts(plan, topology),
    problems: problemsOf(plan, topology).slice(0, MAX_PREVIEW_PROBLEMS),
  };
}

/**
 * Imports the rows into the caller's tenant in one transaction: the good rows all land, or on an
 * unexpected database error none do; rejected rows never write anything and come back as a sheet.
 * Imports of one tenant take turns (an advisory lock), so two of them never plan against the same
 * snapshot and then collide on a unique key.
 */
export async function runImport(
  db: Db,
  caller: CurrentUser,
  sheets: ImportSheets,
  timeZone: string,
): Promise<ImportResult> {
  return db.transaction(async (tx) => {
    await tx.query("select pg_advisory_xact_lock($1, hashtext($2))", [IMPORT_LOCK_CLASS, caller.tenantId]);
    const { plan, topology } = await planFor(tx, caller, sheets, timeZone);
    await writePlan(tx, plan, topology, caller);
    const rejected = plan.rejected.length + topology.rejected.length;
    const rejectedFile = rejected
      ? (await storeRejectedSheet(tx, caller, plan.rejected, topology.rejected)).link
      : "";
    return {
      total: plan.total + topology.total,
      imported: plan.accepted + topology.accepted,
      unchanged: plan.unchanged + topology.unchanged,
      rejected,
      creates: createdCounts(plan, topology),
      rejectedFile,
    };
  });
}
