import { cachedReadMany } from "../../cache/shared-cache.ts";
import type { Queryable } from "../../db/client.ts";
import { type MeterPlace, placesOf } from "./current-data-batch.db.ts";

/**
 * The places of `meterIds` (absent: not a meter of the registry) through the shared cache of `db`
 * (cache/shared-cache.ts, part `meterPlace`), so a batch of readings asks the database only for
 * meters this process has not seen since the last change; every process forgets them together
 * when the database announces a change to meters, room links or accounts' opening and control. A
 * meter found nowhere is remembered as absent too: a DTU that keeps reporting an unregistered
 * meter costs one lookup, not one a poll. A transaction's handle, or a handle without a shared
 * cache, reads them all from the database.
 */
export function cachedPlaces(db: Queryable, meterIds: readonly string[]): Promise<Map<string, MeterPlace>> {
  return cachedReadMany(db, "meterPlace", meterIds, (missing) => placesOf(db, missing));
}
