import type { LeaseShare, LeaseStore } from "../ports.ts";

/**
 * Leases inside one process: the embedded default (one gateway) and the tests. Same rules as the
 * PostgreSQL store: the owner may renew, anyone may take an expired lease, a holder hears the
 * requests to drop a collector, and live gateways are counted for balancing.
 */
export class MemoryLeaseStore implements LeaseStore {
  private readonly leases = new Map<string, { owner: string; expiresAt: number }>();
  private readonly members = new Map<string, number>();
  private readonly listeners = new Map<string, Set<(collectorId: string) => void>>();

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

  async requestRelease(collectorId: string, by: string): Promise<void> {
    const holder = this.ownerOf(collectorId);
    if (!holder || holder === by) return;
    for (const listener of this.listeners.get(holder) ?? []) queueMicrotask(() => listener(collectorId));
  }

  async onReleaseRequested(
    owner: string,
    listener: (collectorId: string) => void,
  ): Promise<() => Promise<void>> {
    const set = this.listeners.get(owner) ?? new Set();
    set.add(listener);
    this.listeners.set(owner, set);
    return async () => {
      set.delete(listener);
    };
  }

  async share(owner: string, ttlMs: number): Promise<LeaseShare> {
    const now = this.now();
    this.members.set(owner, now + ttlMs);
    let members = 0;
    for (const [id, expiresAt] of this.members)
      if (expiresAt > now) members++;
      else this.members.delete(id);
    let collectors = 0;
    let mine = 0;
    for (const lease of this.leases.values()) {
      if (lease.expiresAt <= now) continue;
      collectors++;
      if (lease.owner === owner) mine++;
    }
    return { members, collectors, mine };
  }

  async leave(owner: string): Promise<void> {
    this.members.delete(owner);
  }

  async close(): Promise<void> {}

  /** Current owner (tests). */
  ownerOf(collectorId: string): string | undefined {
    const lease = this.leases.get(collectorId);
    return lease && lease.expiresAt > this.now() ? lease.owner : undefined;
  }
}
