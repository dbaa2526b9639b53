import type { ChangeWatcher, Db, Queryable } from "../../db/client.ts";
import { type MeterPlace, placesOf } from "./current-data-batch.db.ts";

/**
 * The tables a meter's place is read from. Their triggers (after-resources/064) announce only the
 * changes that can move a place: a meter added, removed or renumbered, a room link changed, an
 * account opened, closed or switched between remote and local control. The writes every reading
 * makes (online and supply state, balances) announce nothing.
 */
const PLACE_TABLES = new Set(["pms_meter", "pms_water", "pms_room_meter", "pms_account"]);

/** Meters kept at most; past it the cache starts afresh (a fleet larger than this reads through). */
const MAX_METERS = 2_000_000;
/** A backstop only: changes are announced; this bounds what a lost announcement could cost. */
const TTL_MS = 10 * 60_000;

/**
 * Where each meter belongs (tenant, kind, room, number, priced or not), kept per process so a
 * batch of readings asks the database only for meters it has not seen since the last change; every
 * process forgets together when the database announces a change to a place's tables (the change
 * channel of the shared caches, cache/shared-cache.ts). A meter found nowhere is remembered as
 * absent too: a DTU that keeps reporting an unregistered meter costs one lookup, not one a poll.
 * While the channel is down nothing is kept.
 */
export class MeterPlaceCache implements ChangeWatcher {
  private readonly places = new Map<string, MeterPlace | null>();
  private live = false;
  /** Moves on every forgetting: a load that began before it is not kept after it. */
  private generation = 0;
  private bornAt = Date.now();
  /** Lookups answered here and meters read from the database: tests and the benches read them. */
  readonly counts = { hits: 0, loaded: 0, forgotten: 0 };

  changed(table: string): void {
    if (PLACE_TABLES.has(table)) this.forget();
  }

  listening(live: boolean): void {
    this.live = live;
    this.forget();
  }

  get isLive(): boolean {
    return this.live;
  }

  get size(): number {
    return this.places.size;
  }

  /** The places of `meterIds` (absent: not a meter of the registry), from memory where known. */
  async of(db: Queryable, meterIds: readonly string[]): Promise<Map<string, MeterPlace>> {
    if (!this.live) return placesOf(db, meterIds);
    if (Date.now() - this.bornAt > TTL_MS) this.forget();
    const found = new Map<string, MeterPlace>();
    const missing: string[] = [];
    for (const id of meterIds) {
      const place = this.places.get(id);
      if (place === undefined) missing.push(id);
      else if (place) found.set(id, place);
    }
    this.counts.hits += meterIds.length - missing.length;
    if (missing.length === 0) return found;
    const generation = this.generation;
    const loaded = await placesOf(db, missing);
    this.counts.loaded += missing.length;
    // Kept only if nothing changed while the lookup ran: a place read before a commit is never kept after it.
    const keep = generation === this.generation && this.live;
    if (keep && this.places.size + missing.length > MAX_METERS) this.places.clear();
    for (const id of missing) {
      const place = loaded.get(id);
      if (place) found.set(id, place);
      if (keep) this.places.set(id, place ?? null);
    }
    return found;
  }

  private forget(): void {
    this.places.clear();
    this.generation++;
    this.bornAt = Date.now();
    this.counts.forgotten++;
  }
}

/** A place cache listening on `db`'s change channel, and the function that stops it. */
export async function startMeterPlaceCache(
  db: Db,
): Promise<{ cache: MeterPlaceCache; stop: () => Promise<void> }> {
  const cache = new MeterPlaceCache();
  const stop = await db.watchChanges(cache);
  return {
    cache,
    stop: async () => {
      cache.listening(false);
      await stop();
    },
  };
}
