import type { LeaseStore, Logger } from "../ports.ts";
import type { CollectorRegistry } from "../registry.ts";

export interface BalancerSettings {
  leaseTtlMs: number;
  rebalanceIntervalMs: number;
  rebalanceBatch: number;
}

/** Why a gateway refuses, for a while, a DTU it has just handed over. */
export const HANDED_OVER = "handed over to balance the load";

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
    clearInterval(this.timer);
    await this.store.leave?.(this.owner).catch(() => undefined);
  }

  /** The registry asks before taking a DTU: refused while it was just handed away and others are alive. */
  holdOff(collectorId: string): string | undefined {
    const until = this.handedOver.get(collectorId);
    if (until === undefined) return undefined;
    if (until > Date.now() && this.othersAlive) return HANDED_OVER;
    this.handedOver.delete(collectorId);
    return undefined;
  }

  private lastRound = 0;

  async tick(): Promise<void> {
    if (this.running || !this.store.share) return;
    this.running = true;
    try {
      const share = await this.store.share(this.owner, this.settings.leaseTtlMs);
      this.othersAlive = share.members > 1;
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
