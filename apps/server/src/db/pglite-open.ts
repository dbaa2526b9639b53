import { PGlite, types as pgliteTypes } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";

// 64-bit ids and numeric money must never pass through a JS number: both drivers hand them over as text.
export const asText = (value: string) => value;

/** The embedded database as Meterline uses it, wherever it runs (its own worker thread or in-line). */
export function createPglite(dataDir: string | undefined): Promise<PGlite> {
  return PGlite.create(dataDir ?? "memory://", {
    parsers: { [pgliteTypes.INT8]: asText, [pgliteTypes.NUMERIC]: asText },
    // Trigram indexes answer the global search's "contains" matches (migrations/after-resources).
    extensions: { pg_trgm },
  });
}
