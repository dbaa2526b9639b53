import type { FieldCipher } from "../../crud/field-cipher.ts";
import type { Db, Queryable } from "../../db/client.ts";
import type { CurrentUser } from "../auth/current-user.ts";
import { COLLECTOR_SHEET } from "./collector-columns.ts";
import { type CollectorPlan, CollectorPlanner, candidateCodes } from "./collector-planner.ts";
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
  /** The first MAX_PREVIEW_PROBLEMS rejected rows: sheet row number, reason, and the sheet when not the room sheet. */
  problems: Problem[];
  /** Codes of the 采集器 sheet the tenant already has: used as they are, not changed. Only with that sheet. */
  existingCollectors?: string[];
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
  existingCollectors?: string[];
}

/** Distinguishes the import's advisory locks from other users of the two-key lock space. */
const IMPORT_LOCK_CLASS = 7_046_452;

/**
 * Plans the collector rows, then the room rows (which may bind meters to the collectors the file
 * makes), then the topology rows against the registry as the room rows leave it (so a node may name
 * a meter the same file registers).
 */
async function planFor(db: Queryable, caller: CurrentUser, sheets: ImportSheets, timeZone: string) {
  const snapshot = await loadSnapshot(db, caller.tenantId, IMPORTED_DEFS);
  const collectorRows = sheets.collectors ?? [];
  const collectors = collectorRows.length
    ? new CollectorPlanner(
        snapshot,
        await foreignCollectorCodes(db, caller.tenantId, candidateCodes(collectorRows)),
        timeZone,
      ).planAll(collectorRows)
    : EMPTY_COLLECTORS;
  const plan = new ImportPlanner(snapshot, timeZone).planAll(sheets.rooms);
  const topology =
    sheets.nodes.length || sheets.nodeMeters.length
      ? new TopologyPlanner(await loadTopology(db, caller.tenantId), snapshot, timeZone).planAll(
          sheets.nodes,
          sheets.nodeMeters,
        )
      : EMPTY_TOPOLOGY;
  return { plan, topology, collectors };
}

/**
 * Which of these codes another tenant's live collector holds: a DTU announces itself by its code
 * alone, so the collector form refuses a code taken in any tenant (registry.hooks.ts), and so does
 * the import. Only the file's own codes are asked for.
 */
async function foreignCollectorCodes(db: Queryable, tenantId: string, codes: string[]) {
  const rows = await db.query<{ collector_code: string }>(
    `select distinct collector_code from pms_collector
      where collector_code = any($1::text[]) and tenant_id <> $2 and is_deleted = 0`,
    [codes, tenantId],
  );
  return new Set(rows.map((r) => r.collector_code));
}

const EMPTY_COLLECTORS: CollectorPlan = {
  total: 0,
  accepted: 0,
  unchanged: 0,
  rejected: [],
  collectors: [],
  existing: [],
};

const EMPTY_TOPOLOGY: TopologyPlan = {
  total: 0,
  accepted: 0,
  unchanged: 0,
  rejected: [],
  nodes: [],
  nodeMeters: [],
};

/** The collectors a file named that already existed, listed only for a file with a collector sheet. */
const existingOf = (collectors: CollectorPlan) =>
  collectors.total > 0 ? { existingCollectors: collectors.existing.slice(0, MAX_PREVIEW_PROBLEMS) } : {};

const SHEET_NAMES = { nodes: NODE_SHEET, nodeMeters: NODE_METER_SHEET } as const;

/** Every rejected row of the plans: the collector sheet's, the room sheet's, then the topology sheets'. */
const problemsOf = (plan: ImportPlan, topology: TopologyPlan, collectors: CollectorPlan): Problem[] => [
  ...collectors.rejected.map(({ row, reason }) => ({ row, reason, sheet: COLLECTOR_SHEET })),
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
  const { plan, topology, collectors } = await planFor(db, caller, sheets, timeZone);
  return {
    total: plan.total + topology.total + collectors.total,
    valid: plan.accepted + topology.accepted + collectors.accepted,
    rejected: plan.rejected.length + topology.rejected.length + collectors.rejected.length,
    creates: createdCounts(plan, topology, collectors),
    problems: problemsOf(plan, topology, collectors).slice(0, MAX_PREVIEW_PROBLEMS),
    ...existingOf(collectors),
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
  cipher: FieldCipher,
): Promise<ImportResult> {
  return db.transaction(async (tx) => {
    await tx.query("select pg_advisory_xact_lock($1, hashtext($2))", [IMPORT_LOCK_CLASS, caller.tenantId]);
    const { plan, topology, collectors } = await planFor(tx, caller, sheets, timeZone);
    await writePlan(tx, { plan, topology, collectors }, caller, cipher);
    const rejected = plan.rejected.length + topology.rejected.length + collectors.rejected.length;
    const rejectedFile = rejected
      ? (await storeRejectedSheet(tx, caller, plan.rejected, topology.rejected, collectors.rejected)).link
      : "";
    return {
      total: plan.total + topology.total + collectors.total,
      imported: plan.accepted + topology.accepted + collectors.accepted,
      unchanged: plan.unchanged + topology.unchanged + collectors.unchanged,
      rejected,
      creates: createdCounts(plan, topology, collectors),
      rejectedFile,
      ...existingOf(collectors),
    };
  });
}
