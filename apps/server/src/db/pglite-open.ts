import { readFile } from "node:fs/promises";
import { PGlite, types as pgliteTypes } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";

// 64-bit ids and numeric money must never pass through a JS number: both drivers hand them over as text.
export const asText = (value: string) => value;

/**
 * PGlite's shared buffers: PostgreSQL's 128 MB default is a third of the embedded server's memory
 * (measured: 301 MB resident after opening, 194 MB with 32 MB), while a site the embedded database
 * suits keeps its working set in far less. `PGLITE_SHARED_BUFFERS` (PostgreSQL's units: 64MB, 1GB)
 * sets it for a larger site.
 */
export function sharedBuffers(env: NodeJS.ProcessEnv = process.env): string {
  const value = env.PGLITE_SHARED_BUFFERS?.trim() || "32MB";
  if (!/^\d{1,6}(kB|MB|GB)$/.test(value))
    throw new Error(`PGLITE_SHARED_BUFFERS: a size such as 32MB or 1GB, not "${value}"`);
  return value;
}

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
    postgresqlconf: [
      `shared_buffers = ${sharedBuffers()}`,
      // Statements are prepared once (pglite-prepared.ts) but planned for their values every time,
      // as on a PostgreSQL server, where the driver's statements are never prepared: a generic plan
      // of a "contains" search or a paged list can be many times slower for the values at hand.
      "plan_cache_mode = force_custom_plan",
    ],
  });
}
