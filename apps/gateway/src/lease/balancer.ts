import type { LeaseStore, Logger } from "../ports.ts";
import type { CollectorRegistry } from "../registry.ts";

export interface BalancerSettings {
  leaseTtlMs: number;
  rebalanceIntervalMs: number;
  rebalanceBatch: number;
}

/** Why a gateway refuses, for a while, a DTU it has just handed over. */
export const HANDED_OVER = "handed over to balance the load";

/** How long a count of the live gateways is trusted when a DTU that was handed away comes back. */
const MEMBERS_FRESH_MS = 250;

/**
 * Gives a gateway that joins or rejoins a fair share of the collectors. DTUs dial through a TCP
 * balancer and stay where they landed, so without this a restarted gateway gets nothing back until
 * DTUs happen to redial. Every live gateway counts itself in PostgreSQL (gateway_member) and, each
 * round, compares the leases it holds with its fair share, ceil(leases / live gateways). An
 * overloaded one closes the sessions of a few collectors that have no command claimed, on the
 * wire or awaiting its read-back (at most rebalanceBatch a round), and lets their leases go. Those
 * DTUs redial through the balancer; for two rounds this gateway refuses them again, so the redial
 * lands on another gateway, which takes the free lease. The pace is bounded (a batch a round) and
 * a collector in the middle of a command is never moved.
 */
export class LeaseBalancer {
  private timer: NodeJS.Timeout | undefined;
  private readonly handedOver = new Map<string, number>();
  private othersAlive = false;
  private membersCountedAt = 0;
  private counting: Promise<void> | undefined;
  private stopped = false;
  private running = false;

  constructor(
    private readonly store: LeaseStore,
    private readonly owner: string,
    private readonly settings: BalancerSettings,
    private readonly registry: CollectorRegistry,
    private readonly logger: Logger,
  ) {}

  start(): void {
    if (!this.store.share) return;
    // Membership is renewed with the leases, so a new gateway is counted at once.
    const every = Math.max(50, Math.floor(this.settings.leaseTtlMs / 3));
    this.timer = setInterval(() => void this.tick(), every);
    void this.tick();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.store.leave?.(this.owner).catch(() => undefined);
  }

  /** The registry asks before taking a DTU: refused while it was just handed away and others are alive. */
  async holdOff(collectorId: string): Promise<string | undefined> {
    const until = this.handedOver.get(collectorId);
    if (until === undefined) return undefined;
    if (until > Date.now() && (await this.othersStillAlive())) return HANDED_OVER;
    this.handedOver.delete(collectorId);
    return undefined;
  }

  /**
   * Whether other gateways are alive, counted afresh (at most every MEMBERS_FRESH_MS) rather than
   * at the last round: the gateway these collectors were handed to may have stopped since (a
   * SIGTERM leaves gateway_member at once), and then its DTUs must be taken here now, not refused
   * until the next round (up to a third of the lease lifetime, 10 s by default).
   */
  private othersStillAlive(): Promise<boolean> {
    // A stopped balancer counts nothing: counting would enter this gateway as a member again.
    if (!this.store.share || this.stopped || Date.now() - this.membersCountedAt < MEMBERS_FRESH_MS)
      return Promise.resolve(this.othersAlive);
    this.counting ??= this.store
      .share(this.owner, this.settings.leaseTtlMs)
      .then(
        (share) => {
          this.othersAlive = share.members > 1;
          this.membersCountedAt = Date.now();
        },
        // Unknown: as the last round found.
        () => undefined,
      )
      .finally(() => {
        this.counting = undefined;
      });
    return this.counting.then(() => this.othersAlive);
  }

  private lastRound = 0;

  async tick(): Promise<void> {
    if (this.running || !this.store.share) return;
    this.running = true;
    try {
      const share = await this.store.share(this.owner, this.settings.leaseTtlMs);
      this.othersAlive = share.members > 1;
      this.membersCountedAt = Date.now();
      const { rebalanceIntervalMs, rebalanceBatch } = this.settings;
      const now = Date.now();
      if (!this.othersAlive || rebalanceIntervalMs <= 0 || now - this.lastRound < rebalanceIntervalMs) return;
      this.lastRound = now;
      const fair = Math.ceil(share.collectors / share.members);
      const excess = Math.min(share.mine - fair, rebalanceBatch);
      if (excess <= 0) return;
      const moving = this.registry.idleTcpCollectors().slice(0, excess);
      for (const collector of moving) this.handedOver.set(collector.id, now + 2 * rebalanceIntervalMs);
      await Promise.all(moving.map((collector) => this.registry.handOver(collector.id, HANDED_OVER)));
      if (moving.length > 0)
        this.logger.log("info", "collectors handed over to balance the load", {
          moved: moving.length,
          held: share.mine,
          fair,
          gateways: share.members,
        });
    } catch (error) {
      this.logger.log("warn", "balancing round failed", { error: String(error) });
    } finally {
      this.running = false;
    }
  }
}
