import { readFile } from "node:fs/promises";
import type pg from "pg";
import type { LeaseShare, LeaseStore } from "../ports.ts";

/** The lease table is not there (the server's migrations have not run on this database). */
export class LeaseSetupError extends Error {}

/** DDL of the lease table: one of the server's migrations, which own the whole schema. */
export const LEASE_SQL_URL = new URL(
  "../../../server/src/db/migrations/005_gateway_lease.sql",
  import.meta.url,
);
/** DDL of the live gateways' table (balancing), another of the server's migrations. */
export const MEMBER_SQL_URL = new URL(
  "../../../server/src/db/migrations/036_gateway_member.sql",
  import.meta.url,
);

export async function leaseSchemaSql(): Promise<string> {
  return `${await readFile(LEASE_SQL_URL, "utf8")}\n${await readFile(MEMBER_SQL_URL, "utf8")}`;
}

/** Where a gateway is told to drop a collector that proved itself at another gateway. */
const TAKEOVER_CHANNEL = "gateway_takeover";

const ACQUIRE = `
insert into gateway_lease (collector_id, owner, expires_at)
values ($1, $2, now() + $3::int * interval '1 millisecond')
on conflict (collector_id) do update
  set owner = excluded.owner, expires_at = excluded.expires_at
  where gateway_lease.owner = excluded.owner or gateway_lease.expires_at <= now()
returning collector_id`;

const RENEW = `
update gateway_lease set expires_at = now() + $3::int * interval '1 millisecond'
where owner = $1 and collector_id = any($2::text[])
returning collector_id`;

const RELEASE = "delete from gateway_lease where owner = $1 and collector_id = any($2::text[])";

// The holder is named in the payload, so every other gateway ignores it without a lookup.
const REQUEST_RELEASE = `
select pg_notify('${TAKEOVER_CHANNEL}', json_build_object('collector', collector_id, 'owner', owner)::text)
  from gateway_lease
 where collector_id = $1 and owner <> $2 and expires_at > now()`;

const SHARE = `
with joined as (
  insert into gateway_member (owner, expires_at) values ($1, now() + $2::int * interval '1 millisecond')
  on conflict (owner) do update set expires_at = excluded.expires_at
  returning owner)
select (select count(*) from gateway_member where expires_at > now() and owner <> $1)::int + 1 as members,
       count(*)::int as collectors,
       (count(*) filter (where owner = $1))::int as mine
  from gateway_lease
 where expires_at > now() and exists (select 1 from joined)`;

/**
 * Leases in PostgreSQL (design.md §2): several gateway processes share the collectors, each
 * owning those it holds a lease on. Expiry is judged by the database clock, so the gateways'
 * clocks need not agree. One upsert decides a race: the row's conditional update lets exactly
 * one contender win an expired or free lease.
 */
export class PgLeaseStore implements LeaseStore {
  private listener: pg.Client | undefined;
  private readonly takeoverListeners = new Map<string, Set<(collectorId: string) => void>>();
  private closed = false;

  private constructor(
    private readonly pool: pg.Pool,
    private readonly connectionString: string,
  ) {}

  /** Loads the driver only here, so processes without PostgreSQL leases never load it. */
  static async connect(connectionString: string, options: { max?: number } = {}): Promise<PgLeaseStore> {
    const { default: driver } = await import("pg");
    const pool = new driver.Pool({ connectionString, max: options.max ?? 4 });
    // An idle client losing its server must not crash the gateway; the next query reports it.
    pool.on("error", () => {});
    try {
      await pool.query("select 1 from gateway_lease limit 0");
    } catch (error) {
      await pool.end();
      const missing = (error as { code?: string }).code === "42P01";
      throw missing
        ? new LeaseSetupError(
            "table gateway_lease is missing: run the server once against this database to migrate it",
          )
        : error;
    }
    return new PgLeaseStore(pool, connectionString);
  }

  async acquire(collectorId: string, owner: string, ttlMs: number): Promise<boolean> {
    const result = await this.pool.query(ACQUIRE, [collectorId, owner, Math.round(ttlMs)]);
    return result.rowCount === 1;
  }

  async renew(collectorIds: readonly string[], owner: string, ttlMs: number): Promise<Set<string>> {
    if (collectorIds.length === 0) return new Set();
    const result = await this.pool.query<{ collector_id: string }>(RENEW, [
      owner,
      collectorIds,
      Math.round(ttlMs),
    ]);
    return new Set(result.rows.map((row) => row.collector_id));
  }

  async release(collectorIds: readonly string[], owner: string): Promise<void> {
    if (collectorIds.length === 0) return;
    await this.pool.query(RELEASE, [owner, collectorIds]);
  }

  async requestRelease(collectorId: string, by: string): Promise<void> {
    await this.pool.query(REQUEST_RELEASE, [collectorId, by]);
  }

  async onReleaseRequested(
    owner: string,
    listener: (collectorId: string) => void,
  ): Promise<() => Promise<void>> {
    const set = this.takeoverListeners.get(owner) ?? new Set();
    set.add(listener);
    this.takeoverListeners.set(owner, set);
    if (!this.listener) await this.listen();
    return async () => {
      set.delete(listener);
    };
  }

  /**
   * One connection LISTENing for takeover requests. Lost, it is opened again after a pause; what
   * was said meanwhile is missed, and the newcomer then gives up and the DTU redials (the lease
   * lapses by itself if this process is gone).
   */
  private async listen(): Promise<void> {
    const { default: driver } = await import("pg");
    const client = new driver.Client({ connectionString: this.connectionString });
    this.listener = client;
    const reopen = () => {
      if (this.listener !== client) return;
      this.listener = undefined;
      client.end().catch(() => undefined);
      if (this.closed) return;
      setTimeout(() => {
        if (!this.closed && !this.listener) this.listen().catch(() => setTimeout(reopen, 1_000));
      }, 1_000).unref();
    };
    client.on("error", reopen);
    client.on("end", reopen);
    client.on("notification", (message) => {
      if (message.channel !== TAKEOVER_CHANNEL || !message.payload) return;
      let request: { collector?: unknown; owner?: unknown };
      try {
        request = JSON.parse(message.payload) as typeof request;
      } catch {
        return;
      }
      if (typeof request.collector !== "string" || typeof request.owner !== "string") return;
      for (const heard of this.takeoverListeners.get(request.owner) ?? []) heard(request.collector);
    });
    try {
      await client.connect();
      await client.query(`listen ${TAKEOVER_CHANNEL}`);
    } catch (error) {
      reopen();
      throw error;
    }
  }

  async share(owner: string, ttlMs: number): Promise<LeaseShare> {
    const result = await this.pool.query<LeaseShare>(SHARE, [owner, Math.round(ttlMs)]);
    return result.rows[0] ?? { members: 1, collectors: 0, mine: 0 };
  }

  async leave(owner: string): Promise<void> {
    await this.pool.query("delete from gateway_member where owner = $1", [owner]);
  }

  async close(): Promise<void> {
    this.closed = true;
    const listener = this.listener;
    this.listener = undefined;
    await listener?.end().catch(() => undefined);
    await this.pool.end();
  }
}
