import type { ChangeWatcher, Db, Queryable } from "../db/client.ts";

/** What the caches hold; each part is forgotten as a whole when a table it was read from changes. */
export type CachePart = "session" | "grants" | "dataScope" | "apiScope" | "dict" | "dictBiz";

/** The tables each part is read from (their triggers announce changes: after-resources/002). */
const PARTS_OF_TABLE: Record<string, CachePart[]> = {
  auth_token: ["session"],
  sys_user: ["session"],
  sys_role: ["session"],
  sys_tenant: ["session", "dictBiz"],
  sys_menu: ["grants"],
  sys_role_menu: ["grants"],
  sys_role_scope: ["dataScope", "apiScope"],
  sys_scope_data: ["dataScope"],
  sys_scope_api: ["apiScope"],
  sys_dict: ["dict"],
  sys_dict_biz: ["dictBiz"],
};

interface PartLimits {
  /** Entries kept; the least recently used goes first. */
  max: number;
  /** A backstop only: changes are announced, this bounds what a lost announcement could cost. */
  ttlMs: number;
}

const LIMITS: Record<CachePart, PartLimits> = {
  session: { max: 10_000, ttlMs: 60_000 },
  grants: { max: 1_000, ttlMs: 10 * 60_000 },
  dataScope: { max: 5_000, ttlMs: 10 * 60_000 },
  apiScope: { max: 1_000, ttlMs: 10 * 60_000 },
  dict: { max: 1_000, ttlMs: 10 * 60_000 },
  dictBiz: { max: 5_000, ttlMs: 10 * 60_000 },
};

interface Entry {
  value: Promise<unknown>;
  expiresAt: number;
}

/** One bounded LRU map with per-entry expiry. */
class Part {
  private readonly entries = new Map<string, Entry>();
  constructor(private readonly limits: PartLimits) {}

  get(key: string): Promise<unknown> | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    if (entry.expiresAt <= Date.now()) return undefined;
    this.entries.set(key, entry);
    return entry.value;
  }

  set(key: string, value: Promise<unknown>, validUntil?: number): Entry {
    const entry = { value, expiresAt: Math.min(Date.now() + this.limits.ttlMs, validUntil ?? Infinity) };
    this.entries.delete(key);
    this.entries.set(key, entry);
    if (this.entries.size > this.limits.max) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    return entry;
  }

  /** Shortens an entry's life once its value says when it stops being true (a token's expiry). */
  limit(key: string, entry: Entry, validUntil: number): void {
    if (this.entries.get(key) === entry) entry.expiresAt = Math.min(entry.expiresAt, validUntil);
  }

  drop(key: string, entry: Entry): void {
    if (this.entries.get(key) === entry) this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}

/**
 * The per-process cache of what every request reads, kept true by the database's change
 * announcements. A load in flight is cached as its promise: if its tables change meanwhile the
 * entry is dropped with the rest, so a read that began before a commit is never kept after it.
 * While the change channel is down nothing is cached at all.
 */
export class SharedCache implements ChangeWatcher {
  private readonly parts = new Map<CachePart, Part>(
    (Object.keys(LIMITS) as CachePart[]).map((name) => [name, new Part(LIMITS[name])]),
  );
  private live = false;
  /** Times a part was dropped, by part: tests and the bench read it. */
  readonly drops: Record<CachePart, number> = {
    session: 0,
    grants: 0,
    dataScope: 0,
    apiScope: 0,
    dict: 0,
    dictBiz: 0,
  };

  changed(table: string): void {
    for (const part of PARTS_OF_TABLE[table] ?? []) this.drop(part);
  }

  listening(live: boolean): void {
    this.live = live;
    for (const part of this.parts.keys()) this.drop(part);
  }

  get isLive(): boolean {
    return this.live;
  }

  size(part: CachePart): number {
    return this.parts.get(part)?.size ?? 0;
  }

  /**
   * The cached value of `key`, or `load()`'s, kept until its tables change, its part's time is up,
   * or `validUntil(value)` (epoch ms) passes.
   */
  get<T>(
    part: CachePart,
    key: string,
    load: () => Promise<T>,
    validUntil?: (value: T) => number,
  ): Promise<T> {
    if (!this.live) return load();
    const store = this.parts.get(part)!;
    const hit = store.get(key);
    if (hit) return hit as Promise<T>;
    const value = load();
    const entry = store.set(key, value);
    value.then(
      (loaded) => {
        if (validUntil) store.limit(key, entry, validUntil(loaded));
      },
      () => store.drop(key, entry),
    );
    return value;
  }

  private drop(part: CachePart): void {
    this.parts.get(part)?.clear();
    this.drops[part]++;
  }
}

const cacheOfDb = new WeakMap<Queryable, SharedCache>();

/**
 * Starts the shared cache of a database handle: the server's reads through this handle use it from
 * now on (reads inside a transaction go to the database). Returns the cache and its stop function.
 */
export async function startSharedCache(db: Db): Promise<{ cache: SharedCache; stop: () => Promise<void> }> {
  const cache = new SharedCache();
  const stopWatching = await db.watchChanges(cache);
  cacheOfDb.set(db, cache);
  return {
    cache,
    stop: async () => {
      if (cacheOfDb.get(db) === cache) cacheOfDb.delete(db);
      cache.listening(false);
      await stopWatching();
    },
  };
}

/**
 * `load()` through the shared cache when `db` is a database handle with one; a transaction's handle
 * (or a handle without a cache) always reads the database, so a transaction sees its own writes.
 */
export function cachedRead<T>(
  db: Queryable,
  part: CachePart,
  key: string,
  load: () => Promise<T>,
  validUntil?: (value: T) => number,
): Promise<T> {
  const cache = cacheOfDb.get(db);
  return cache ? cache.get(part, key, load, validUntil) : load();
}
