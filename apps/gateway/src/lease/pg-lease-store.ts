import { readFile } from "node:fs/promises";
import type pg from "pg";
import type { LeaseStore } from "../ports.ts";

/** The lease table is not there (the server's migrations have not run on this database). */
export class LeaseSetupError extends Error {}

/** DDL of the lease table: one of the server's migrations, which own the whole schema. */
export const LEASE_SQL_URL = new URL(
  "../../../server/src/db/migrations/005_gateway_lease.sql",
  import.meta.url,
);

export async function leaseSchemaSql(): Promise<string> {
  return readFile(LEASE_SQL_URL, "utf8");
}

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

/**
 * Leases in PostgreSQL (design.md §2): several gateway processes share the collectors, each
 * owning those it holds a lease on. Expiry is judged by the database clock, so the gateways'
 * clocks need not agree. One upsert decides a race: the row's conditional update lets exactly
 * one contender win an expired or free lease.
 */
export class PgLeaseStore implements LeaseStore {
  private constructor(private readonly pool: pg.Pool) {}

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
    return new PgLeaseStore(pool);
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

  async close(): Promise<void> {
    await this.pool.end();
  }
}
