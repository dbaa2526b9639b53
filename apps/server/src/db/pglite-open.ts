import { readFile } from "node:fs/promises";
import { PGlite, types as pgliteTypes } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";

// 64-bit ids and numeric money must never pass through a JS number: both drivers hand them over as text.
export const asText = (value: string) => value;

/**
 * The embedded database as Meterline uses it, wherever it runs (its own worker thread or in-line).
 * `startFrom` names a file made by PGlite's dumpDataDir: the new database begins as a copy of it
 * instead of an empty cluster (the tests start from one migrated and seeded copy, see
 * apps/server/test/db-template.ts).
 */
export async function createPglite(dataDir: string | undefined, startFrom?: string): Promise<PGlite> {
  const loadDataDir = startFrom ? new Blob([await readFile(startFrom)]) : undefined;
  return PGlite.create(dataDir ?? "memory://", {
    ...(loadDataDir ? { loadDataDir } : {}),
    parsers: { [pgliteTypes.INT8]: asText, [pgliteTypes.NUMERIC]: asText },
    // Trigram indexes answer the global search's "contains" matches (migrations/after-resources).
    extensions: { pg_trgm },
  });
}
