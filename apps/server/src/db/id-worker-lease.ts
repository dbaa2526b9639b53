import { randomUUID } from "node:crypto";
import type { Db, Queryable } from "./client.ts";
import { adoptWorker, extendWorker, mintedUntil, suspendWorker } from "./ids.ts";

export interface IdWorkerLeaseOptions {
  /** How long a lease holds without renewal (ms, by the database clock). */
  ttlMs?: number;
  /** How often it is renewed (ms); a quarter of the ttl by default. */
  renewEveryMs?: number;
  /** Told when a renewal fails or the worker changes; the lease keeps trying meanwhile. */
  onProblem?: (message: string, error?: unknown) => void;
  /**
   * What kind of process holds it ("api", "gateway"), written before the holder's id so that the
   * live processes of a kind can be counted (apiProcessesBesidesThis).
   */
  role?: string;
}

export const DEFAULT_ID_WORKER_TTL_MS = 60_000;
// The lease is given up locally this long before the database would let it go: a renewal's answer
// that takes longer than the ttl minus this never leaves two holders.
const SAFETY_MS = 1_000;

export class IdWorkersExhaustedError extends Error {}

/** The holder of this process's API lease, so that it is not counted among the others. */
let ownApiHolder: string | undefined;

/**
 * How many other API server processes hold a live lease on the same database: processes that
 * share nothing but the database (local file storage, for one) are wrong once there are several.
 */
export async function apiProcessesBesidesThis(db: Queryable): Promise<number> {
  if (!(await idWorkerTableExists(db))) return 0;
  const [row] = await db.query<{ n: number }>(
    "select count(*)::int as n from id_worker where expires_at > now() and holder like 'api:%' and holder is distinct from $1",
    [ownApiHolder ?? null],
  );
  return row?.n ?? 0;
}

/** Whether the migrations have made the lease table yet (a fresh database has none). */
export async function idWorkerTableExists(db: Queryable): Promise<boolean> {
  const [row] = await db.query<{ found: boolean }>("select to_regclass('id_worker') is not null as found");
  return row?.found === true;
}

/**
 * This process's worker number for ids (db/ids.ts), leased from the `id_worker` table and renewed
 * until `release`. Ids are minted only while the lease is known to hold: its local deadline counts
 * from the moment the request was sent, so it always ends before the database's. A lease lost (the
 * process stalled past its ttl and another took the number) makes the process take another number.
 */
export class IdWorkerLease {
  private readonly holder: string;
  private timer: NodeJS.Timeout | undefined;
  private current: number | undefined;
  private renewing: Promise<void> | undefined;

  private constructor(
    private readonly db: Queryable,
    private readonly ttlMs: number,
    private readonly renewEveryMs: number,
    private readonly onProblem: (message: string, error?: unknown) => void,
    /** The embedded database: one process opens it, so nobody can take the number over. */
    private readonly soleProcess: boolean,
    role: string | undefined,
  ) {
    this.holder = role ? `${role}:${randomUUID()}` : randomUUID();
    if (role === "api") ownApiHolder = this.holder;
  }

  /** Leases a free (or lapsed) worker number and starts renewing it. */
  static async take(db: Queryable | Db, options: IdWorkerLeaseOptions = {}): Promise<IdWorkerLease> {
    const ttlMs = options.ttlMs ?? DEFAULT_ID_WORKER_TTL_MS;
    if (ttlMs <= SAFETY_MS * 2) throw new Error(`id worker lease ttl must exceed ${SAFETY_MS * 2} ms`);
    const lease = new IdWorkerLease(
      db,
      ttlMs,
      options.renewEveryMs ?? Math.floor(ttlMs / 4),
      options.onProblem ?? (() => {}),
      "kind" in db && db.kind === "pglite",
      options.role,
    );
    await lease.acquire();
    lease.timer = setInterval(() => void lease.renew(), lease.renewEveryMs);
    lease.timer.unref();
    return lease;
  }

  /** The leased number (undefined while none is held). */
  get worker(): number | undefined {
    return this.current;
  }

  private deadline(sentAt: number): number {
    // A long write on the embedded database can hold its one connection past the ttl; with no other
    // process there, ids must not stop for it.
    if (this.soleProcess) return Number.POSITIVE_INFINITY;
    return sentAt + this.ttlMs - SAFETY_MS;
  }

  private async acquire(): Promise<void> {
    const sentAt = performance.now();
    // The longest-lapsed free number; SKIP LOCKED lets processes that start together each lock a
    // different row, and the row is re-checked once locked, so a number just taken is passed over.
    const rows = await this.db.query<{ worker: number; previous: string }>(
      `update id_worker w
          set holder = $1,
              expires_at = now() + $2 * interval '1 millisecond',
              minted_until = greatest(w.minted_until, $3::bigint)
         from (select worker, minted_until as previous from id_worker
                where expires_at <= now()
                order by expires_at, worker
                limit 1
                for update skip locked) free
        where w.worker = free.worker
        returning w.worker, free.previous::text as previous`,
      [this.holder, this.ttlMs, mintedUntil(this.ttlMs).toString()],
    );
    const row = rows[0];
    if (!row) {
      throw new IdWorkersExhaustedError(
        "all 1024 id worker numbers are leased by live processes (table id_worker); no ids can be minted",
      );
    }
    this.current = row.worker;
    adoptWorker(row.worker, this.deadline(sentAt), BigInt(row.previous));
  }

  /** Renews the lease; a lost one is replaced by another number. */
  renew(): Promise<void> {
    this.renewing ??= this.renewOnce().finally(() => {
      this.renewing = undefined;
    });
    return this.renewing;
  }

  private async renewOnce(): Promise<void> {
    try {
      if (this.current === undefined) {
        await this.acquire();
        return;
      }
      const sentAt = performance.now();
      // Held by us still, lapsed or not: nobody has taken it over, so it is ours to keep.
      const rows = await this.db.query<{ worker: number }>(
        `update id_worker
            set expires_at = now() + $3 * interval '1 millisecond', minted_until = $4::bigint
          where worker = $1 and holder = $2
          returning worker`,
        [this.current, this.holder, this.ttlMs, mintedUntil(this.ttlMs).toString()],
      );
      if (rows.length) {
        extendWorker(this.deadline(sentAt));
        return;
      }
      this.onProblem(`id worker ${this.current} was taken over by another process; leasing another`);
      suspendWorker();
      this.current = undefined;
      await this.acquire();
    } catch (error) {
      // The lease may still hold locally until its deadline (ids.ts stops minting after it).
      this.onProblem("renewing the id worker lease failed", error);
    }
  }

  /** Stops renewing and gives the number back, so another process may take it at once. */
  async release(): Promise<void> {
    clearInterval(this.timer);
    await this.renewing;
    const worker = this.current;
    this.current = undefined;
    suspendWorker();
    if (worker === undefined) return;
    await this.db.query(
      "update id_worker set holder = null, expires_at = '-infinity' where worker = $1 and holder = $2",
      [worker, this.holder],
    );
  }
}
