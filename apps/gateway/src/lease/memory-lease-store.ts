import type { LeaseStore } from "../ports.ts";

/**
 * Leases inside one process: the embedded default (one gateway) and the tests. Same rules as the
 * PostgreSQL store: the owner may renew, anyone may take an expired lease.
 */
export class MemoryLeaseStore implements LeaseStore {
  private readonly leases = new Map<string, { owner: string; expiresAt: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  async acquire(collectorId: string, owner: string, ttlMs: number): Promise<boolean> {
    const lease = this.leases.get(collectorId);
    const now = this.now();
    if (lease && lease.owner !== owner && lease.expiresAt > now) return false;
    this.leases.set(collectorId, { owner, expiresAt: now + ttlMs });
    return true;
  }

  async renew(collectorIds: readonly string[], owner: string, ttlMs: number): Promise<Set<string>> {
    const held = new Set<string>();
    const now = this.now();
    for (const id of collectorIds) {
      const lease = this.leases.get(id);
      if (lease?.owner !== owner) continue;
      lease.expiresAt = now + ttlMs;
      held.add(id);
    }
    return held;
  }

  async release(collectorIds: readonly string[], owner: string): Promise<void> {
    for (const id of collectorIds) if (this.leases.get(id)?.owner === owner) this.leases.delete(id);
  }

  async close(): Promise<void> {}

  /** Current owner (tests). */
  ownerOf(collectorId: string): string | undefined {
    const lease = this.leases.get(collectorId);
    return lease && lease.expiresAt > this.now() ? lease.owner : undefined;
  }
}
