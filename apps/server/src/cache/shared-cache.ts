import type { ChangeWatcher, Db, Queryable } from "../db/client.ts";

/** Parts read key by key (`get`): each entry keeps its load's promise and its own expiry. */
const KEYED_PARTS = ["session", "grants", "dataScope", "apiScope", "dict", "dictBiz"] as const;
/** Parts read in batches (`getMany`): settled values only, forgotten and expired as a whole. */
const BATCH_PARTS = ["meterPlace"] as const;

export type KeyedPart = (typeof KEYED_PARTS)[number];
export type BatchPart = (typeof BATCH_PARTS)[number];
/** What the caches hold; each part is forgotten as a whole when a table it was read from changes. */
export type CachePart = KeyedPart | BatchPart;

/**
 * The tables each part is read from. Their triggers announce changes: after-resources/002 for the
 * parts every request reads; after-resources/064 for where meters belong, announcing only what can
 * move a place (a meter added, removed, renumbered or moved to another tenant, a room link, an
 * account opened, closed or switched between remote and local control), never the writes every
 * reading makes (online and supply state, balances, registers).
 */
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
  pms_meter: ["meterPlace"],
  pms_water: ["meterPlace"],
  pms_room_meter: ["meterPlace"],
  pms_account: ["meterPlace"],
};

interface PartLimits {
  /** Entries kept: a keyed part lets its least recently used go, a batch part starts afresh. */
  max: number;
  /**
   * A backstop only: changes are announced, this bounds what a lost announcement could cost (a
   * keyed part's entries each, a batch part as a whole).
   */
  ttlMs: number;
}

const LIMITS: Record<CachePart, PartLimits> = {
  session: { max: 10_000, ttlMs: 60_000 },
  grants: { max: 1_000, ttlMs: 10 * 60_000 },
  dataScope: { max: 5_000, ttlMs: 10 * 60_000 },
  apiScope: { max: 1_000, ttlMs: 10 * 60_000 },
  dict: { max: 1_000, ttlMs: 10 * 60_000 },
  dictBiz: { max: 5_000, ttlMs: 10 * 60_000 },
  // A fleet larger than this reads through, a batch at a time.
  meterPlace: { max: 2_000_000, ttlMs: 10 * 60_000 },
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

/** What a batch part remembers of a key its load did not find. */
const ABSENT = Symbol("absent");

/**
 * A part filled by batches and sized for a fleet (100,000 meters: 100,000 entries), so an entry is
 * its settled value in one map and nothing else. Its age is the part's: it expires whole `ttlMs`
 * after it was last forgotten, and once `max` keys are held it starts afresh. Expiry and LRU order
 * per entry would cost an object per key, or a re-insertion per hit, to guard against what the
 * change announcements already cover; the time limit only bounds a lost announcement, and a part
 * expired whole costs each key one more batched read every `ttlMs`.
 */
class BatchStore {
  readonly values = new Map<string, unknown>();
  /** Moves on every forgetting: a load that began before it is not kept after it. */
  generation = 0;
  private bornAt = Date.now();
  constructor(private readonly limits: PartLimits) {}

  get expired(): boolean {
    return Date.now() - this.bornAt > this.limits.ttlMs;
  }

  /** Keeps what a load of `keys` answered; the keys it did not find are kept as absent. */
  keep(keys: readonly string[], loaded: ReadonlyMap<string, unknown>): void {
    if (this.values.size + keys.length > this.limits.max) this.values.clear();
    for (const key of keys) {
      const value = loaded.get(key);
      this.values.set(key, value === undefined ? ABSENT : value);
    }
  }

  clear(): void {
    this.values.clear();
    this.generation++;
    this.bornAt = Date.now();
  }

  get size(): number {
    return this.values.size;
  }
}

/**
 * The per-process cache of what every request reads, and of where meters belong, kept true by the
 * database's change announcements. A key read alone (`get`) is cached as its load's promise from
 * the start: if its tables change while the load is in flight the entry is dropped with the rest. A
 * batch (`getMany`) keeps what its load answered only if its part was not dropped while the load
 * ran. So a read that began before a commit is never kept after it. While the change channel is
 * down nothing is cached at all.
 */
export class SharedCache implements ChangeWatcher {
  private readonly parts = new Map<CachePart, Part>(
    KEYED_PARTS.map((name) => [name, new Part(LIMITS[name])]),
  );
  private readonly batches = new Map<CachePart, BatchStore>(
    BATCH_PARTS.map((name) => [name, new BatchStore(LIMITS[name])]),
  );
  private live = false;
  /** Times a part was dropped, by part (a batch part's expiry included): tests and the bench read it. */
  readonly drops: Record<CachePart, number> = {
    session: 0,
    grants: 0,
    dataScope: 0,
    apiScope: 0,
    dict: 0,
    dictBiz: 0,
    meterPlace: 0,
  };
  /**
   * Keys a batch part answered from memory and keys it loaded, counted while the channel is live
   * (else the cache is not asked): tests and the bench read them.
   */
  readonly counts: Record<BatchPart, { hits: number; loaded: number }> = {
    meterPlace: { hits: 0, loaded: 0 },
  };

  changed(table: string): void {
    for (const part of PARTS_OF_TABLE[table] ?? []) this.drop(part);
  }

  listening(live: boolean): void {
    this.live = live;
    for (const part of [...KEYED_PARTS, ...BATCH_PARTS]) this.drop(part);
  }

  get isLive(): boolean {
    return this.live;
  }

  size(part: CachePart): number {
    return (this.parts.get(part) ?? this.batches.get(part))?.size ?? 0;
  }

  /**
   * The cached value of `key`, or `load()`'s, kept until its tables change, its part's time is up,
   * or `validUntil(value)` (epoch ms) passes.
   */
  get<T>(
    part: KeyedPart,
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

  /**
   * The values of `keys` (a key found nowhere is left out of the answer): from memory where known,
   * the rest by one call of `loadMissing`. What it answers is kept, the keys it did not find as
   * absent too (asked again, they cost nothing), unless the part was dropped while it ran. Loads
   * running side by side are not joined: the readings sink asks one batch at a time.
   */
  async getMany<T>(
    part: BatchPart,
    keys: readonly string[],
    loadMissing: (missing: readonly string[]) => Promise<Map<string, T>>,
  ): Promise<Map<string, T>> {
    if (!this.live) return loadMissing(keys);
    const store = this.batches.get(part)!;
    if (store.expired) this.drop(part);
    const found = new Map<string, T>();
    const missing: string[] = [];
    for (const key of keys) {
      const value = store.values.get(key);
      if (value === undefined) missing.push(key);
      else if (value !== ABSENT) found.set(key, value as T);
    }
    const counts = this.counts[part];
    counts.hits += keys.length - missing.length;
    if (missing.length === 0) return found;
    const generation = store.generation;
    const loaded = await loadMissing(missing);
    counts.loaded += missing.length;
    if (generation === store.generation && this.live) store.keep(missing, loaded);
    for (const key of missing) {
      const value = loaded.get(key);
      if (value !== undefined) found.set(key, value);
    }
    return found;
  }

  private drop(part: CachePart): void {
    this.parts.get(part)?.clear();
    this.batches.get(part)?.clear();
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
  part: KeyedPart,
  key: string,
  load: () => Promise<T>,
  validUntil?: (value: T) => number,
): Promise<T> {
  const cache = cacheOfDb.get(db);
  return cache ? cache.get(part, key, load, validUntil) : load();
}

/** `cachedRead` for a batch of keys: `loadMissing` is handed every key when `db` has no cache. */
export function cachedReadMany<T>(
  db: Queryable,
  part: BatchPart,
  keys: readonly string[],
  loadMissing: (missing: readonly string[]) => Promise<Map<string, T>>,
): Promise<Map<string, T>> {
  const cache = cacheOfDb.get(db);
  return cache ? cache.getMany(part, keys, loadMissing) : loadMissing(keys);
}
