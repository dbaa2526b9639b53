import type { LeaseStore, Logger } from "../ports.ts";

/**
 * Renews this gateway's leases every third of their lifetime. Collectors whose lease was lost
 * (taken over after an expiry) are dropped; if renewal keeps failing (database unreachable) for a
 * whole lifetime, every collector is dropped, because another gateway may already own them.
 */
export class LeaseKeeper {
  private timer: NodeJS.Timeout | undefined;
  private lastRenewed = Date.now();
  private renewing = false;

  constructor(
    private readonly store: LeaseStore,
    private readonly owner: string,
    private readonly ttlMs: number,
    private readonly held: () => string[],
    private readonly onLost: (collectorIds: string[]) => void,
    private readonly logger: Logger,
    /** Extra work on each tick (picking up MQTT meters whose lease became free). */
    private readonly onTick: () => Promise<void> = async () => {},
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.tick(), Math.max(50, Math.floor(this.ttlMs / 3)));
  }

  stop(): void {
    clearInterval(this.timer);
  }

  async tick(): Promise<void> {
    if (this.renewing) return;
    this.renewing = true;
    try {
      await this.renew();
      await this.onTick();
    } catch (error) {
      this.logger.log("warn", "lease tick failed", { error: String(error) });
    } finally {
      this.renewing = false;
    }
  }

  private async renew(): Promise<void> {
    const ids = this.held();
    try {
      const kept = ids.length > 0 ? await this.store.renew(ids, this.owner, this.ttlMs) : new Set<string>();
      this.lastRenewed = Date.now();
      const lost = ids.filter((id) => !kept.has(id));
      if (lost.length > 0) {
        this.logger.log("warn", "leases lost", { collectors: lost.length });
        this.onLost(lost);
      }
    } catch (error) {
      this.logger.log("warn", "lease renewal failed", { error: String(error) });
      if (Date.now() - this.lastRenewed > this.ttlMs) this.onLost(ids);
    }
  }
}
