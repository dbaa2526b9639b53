import type { Db, Queryable } from "../../db/client.ts";
import type { CurrentUser } from "../auth/current-user.ts";
import { MAX_PREVIEW_PROBLEMS } from "./import-columns.ts";
import { createdCounts, IMPORTED_DEFS, type ImportPlan } from "./import-plan.ts";
import { ImportPlanner } from "./import-planner.ts";
import type { SheetRow } from "./import-sheet.ts";
import { writePlan } from "./import-writer.ts";
import { loadSnapshot } from "./registry-snapshot.ts";
import { storeRejectedSheet } from "./rejected-sheet.ts";

export interface PreviewResult {
  total: number;
  valid: number;
  rejected: number;
  creates: ReturnType<typeof createdCounts>;
  /** The first MAX_PREVIEW_PROBLEMS rejected rows: sheet row number and reason. */
  problems: { row: number; reason: string }[];
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

async function planFor(db: Queryable, caller: CurrentUser, rows: readonly SheetRow[], timeZone: string) {
  const snapshot = await loadSnapshot(db, caller.tenantId, IMPORTED_DEFS);
  return new ImportPlanner(snapshot, timeZone).planAll(rows);
}

/** What importing these rows into the caller's tenant would do; writes nothing. */
export async function previewImport(
  db: Queryable,
  caller: CurrentUser,
  rows: readonly SheetRow[],
  timeZone: string,
): Promise<PreviewResult> {
  const plan = await planFor(db, caller, rows, timeZone);
  return {
    total: plan.total,
    valid: plan.accepted,
    rejected: plan.rejected.length,
    creates: createdCounts(plan),
    problems: plan.rejected.slice(0, MAX_PREVIEW_PROBLEMS).map(({ row, reason }) => ({ row, reason })),
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
  rows: readonly SheetRow[],
  timeZone: string,
): Promise<ImportResult> {
  return db.transaction(async (tx) => {
    await tx.query("select pg_advisory_xact_lock($1, hashtext($2))", [IMPORT_LOCK_CLASS, caller.tenantId]);
    const plan: ImportPlan = await planFor(tx, caller, rows, timeZone);
    await writePlan(tx, plan, caller);
    const rejectedFile = plan.rejected.length
      ? (await storeRejectedSheet(tx, caller, plan.rejected)).link
      : "";
    return {
      total: plan.total,
      imported: plan.accepted,
      unchanged: plan.unchanged,
      rejected: plan.rejected.length,
      creates: createdCounts(plan),
      rejectedFile,
    };
  });
}
