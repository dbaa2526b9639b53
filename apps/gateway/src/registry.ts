import type { FrameLink } from "./bus/link.ts";
import { Collector, type CollectorDeps, type PendingReconciliation } from "./collector.ts";
import { CommandTracker } from "./commands/tracker.ts";
import type { MeterInfo } from "./model.ts";
import type { LeaseStore } from "./ports.ts";
import { bump } from "./stats.ts";

export interface RegistryDeps extends Omit<CollectorDeps, "defer"> {
  leases: LeaseStore;
  owner: string;
  /** A collector came online: its queued commands can be claimed now. */
  onOnline(): void;
  /** Why this gateway should not take a DTU's collector now (it just handed it over), or undefined. */
  holdOff?(collectorId: string): Promise<string | undefined> | string | undefined;
}

/** How often a newcomer asks again for a lease whose holder was told to drop it. */
const TAKEOVER_POLL_MS = 100;
const TAKEOVER_ASK_AGAIN_MS = 1_000;

/**
 * The collectors online on this gateway, by id, and the meters they reach. Attaching and detaching
 * one collector id is serialised, so a DTU that redials while its old session is still open ends
 * with exactly one session (the newest) and the lease held once.
 */
export class CollectorRegistry {
  private readonly collectors = new Map<string, Collector>();
  private readonly byMeter = new Map<string, Collector>();
  private readonly deferred = new Map<string, PendingReconciliation[]>();
  private deferredCount = 0;
  private readonly locks = new Map<string, Promise<unknown>>();

  constructor(private readonly deps: RegistryDeps) {}

  private exclusive<T>(id: string, fn: () => Promise<T>): Promise<T> {
    const previous = this.locks.get(id) ?? Promise.resolve();
    const run = previous.then(fn, fn);
    const tail = run.catch(() => undefined);
    this.locks.set(id, tail);
    void tail.then(() => {
      if (this.locks.get(id) === tail) this.locks.delete(id);
    });
    return run;
  }

  /**
   * Take the lease and start serving the link; false (and the link closed) when another gateway
   * keeps it. A TCP link reaches this only once its DTU has proven its collector's secret
   * (dtu/listener.ts), so it may take the collector over from a session elsewhere.
   */
  attach(link: FrameLink, meters: readonly MeterInfo[]): Promise<boolean> {
    const id = link.collectorId;
    return this.exclusive(id, async () => {
      const { counters } = this.deps;
      if (link.closed) return false;
      const heldOff =
        link.transport === "tcp" && !this.collectors.has(id) ? await this.deps.holdOff?.(id) : undefined;
      if (heldOff) {
        bump(counters.rejected, heldOff);
        link.close(heldOff);
        return false;
      }
      if (!(await this.takeLease(link))) {
        bump(counters.rejected, "lease held by another gateway");
        link.close("lease held by another gateway");
        return false;
      }
      const old = this.collectors.get(id);
      if (old) {
        bump(counters.closed, "replaced by a new session");
        await old.stop("replaced by a new session");
        this.forget(old);
      }
      if (link.closed) {
        await this.deps.leases.release([id], this.deps.owner);
        return false;
      }
      const carried = this.deferred.get(id) ?? [];
      this.deferred.delete(id);
      this.deferredCount -= carried.length;
      const adopted = await this.adoptOrphans(id);
      const collector = new Collector(link, meters, { ...this.deps, defer: (entry) => this.defer(entry) }, [
        ...carried,
        ...adopted,
      ]);
      this.collectors.set(id, collector);
      for (const meter of meters) this.byMeter.set(meter.id, collector);
      link.onClose((reason) => {
        this.detach(collector, reason).catch((error: unknown) =>
          this.deps.logger.log("error", "collector detach failed", { collector: id, error: String(error) }),
        );
      });
      collector.start();
      await this.deps.sink.presence?.({
        collectorId: id,
        online: true,
        meterIds: collector.meterIds(),
        at: new Date(),
        reason: "registered",
      });
      this.deps.onOnline();
      return true;
    });
  }

  /**
   * The lease, taken over if need be. A DTU that proved itself here is the collector's newest
   * session, so one held by another gateway is stale there (a link that died without a FIN, or a
   * DTU that redialled through the balancer): that gateway is told through the lease store
   * (PostgreSQL NOTIFY) to drop its session, and lets the lease go once its current exchange has
   * ended and its commands are handed back; this waits for that, up to takeoverWaitMs. A gateway
   * that is gone hears nothing: its lease lapses after leaseTtlMs and the DTU's next dial takes it.
   * MQTT collectors are never taken over (they are picked up when their lease is free).
   */
  private async takeLease(link: FrameLink): Promise<boolean> {
    const { leases, owner, settings, logger } = this.deps;
    const id = link.collectorId;
    if (await leases.acquire(id, owner, settings.leaseTtlMs)) return true;
    if (link.transport !== "tcp" || !leases.requestRelease || settings.takeoverWaitMs <= 0) return false;
    const deadline = Date.now() + settings.takeoverWaitMs;
    let askedAt = 0;
    while (!link.closed && Date.now() < deadline) {
      // Asked again each second: a holder whose listening connection was being reopened hears it.
      if (Date.now() - askedAt >= TAKEOVER_ASK_AGAIN_MS) {
        askedAt = Date.now();
        await leases.requestRelease(id, owner);
      }
      await new Promise((resolve) => setTimeout(resolve, TAKEOVER_POLL_MS));
      if (await leases.acquire(id, owner, settings.leaseTtlMs)) {
        logger.log("info", "collector taken over from another gateway", { collector: id });
        return true;
      }
    }
    return false;
  }

  /** Another gateway took this collector over, or it is handed over for balance: end its session here. */
  async handOver(collectorId: string, reason: string): Promise<boolean> {
    const collector = this.collectors.get(collectorId);
    if (collector?.link.transport !== "tcp") return false;
    await collector.stop(reason);
    return true;
  }

  /** TCP collectors with nothing of a command under way here: the ones that can move to another gateway. */
  idleTcpCollectors(): Collector[] {
    return this.all().filter(
      (collector) =>
        collector.link.transport === "tcp" && !collector.busy && !this.deferred.has(collector.id),
    );
  }

  /**
   * Writes a stopped gateway left open on this collector become read-backs of this session; reads
   * (nothing to reconcile) fail so the operator can ask again.
   */
  private async adoptOrphans(collectorId: string): Promise<PendingReconciliation[]> {
    const { source, owner, counters, logger, settings } = this.deps;
    if (!source.orphaned) return [];
    try {
      const orphans = await source.orphaned({
        owner,
        collectorIds: [collectorId],
        limit: settings.maxPendingReconciliations,
      });
      const pending: PendingReconciliation[] = [];
      for (const { command, state, acknowledged, sentAt } of orphans) {
        const tracker = new CommandTracker(command, source, counters);
        tracker.state = state;
        if (command.action.kind === "read") {
          await tracker.to("fail", { detail: "the gateway stopped before the reply; read again" });
          continue;
        }
        const settles =
          command.action.kind === "valve" && sentAt ? sentAt.getTime() + settings.valveSettleMs : undefined;
        pending.push({ collectorId, meterId: command.meterId, tracker, acknowledged, notBefore: settles });
      }
      if (pending.length)
        logger.log("info", "adopted unsettled commands", { collector: collectorId, count: pending.length });
      return pending;
    } catch (error) {
      logger.log("error", "adopting unsettled commands failed", {
        collector: collectorId,
        error: String(error),
      });
      return [];
    }
  }

  private detach(collector: Collector, reason: string): Promise<void> {
    return this.exclusive(collector.id, async () => {
      await collector.stop(reason);
      if (this.collectors.get(collector.id) !== collector) return;
      this.forget(collector);
      bump(this.deps.counters.closed, reason);
      await this.deps.leases.release([collector.id], this.deps.owner).catch(() => undefined);
      await this.deps.sink.presence?.({
        collectorId: collector.id,
        online: false,
        meterIds: collector.meterIds(),
        at: new Date(),
        reason,
      });
    });
  }

  private forget(collector: Collector): void {
    if (this.collectors.get(collector.id) === collector) this.collectors.delete(collector.id);
    for (const id of collector.meterIds()) if (this.byMeter.get(id) === collector) this.byMeter.delete(id);
  }

  private defer(entry: PendingReconciliation): void {
    const list = this.deferred.get(entry.collectorId) ?? [];
    list.push(entry);
    this.deferred.set(entry.collectorId, list);
    this.deferredCount++;
    // Bounded: the oldest stay "timeout" (to be confirmed) in the command source.
    while (this.deferredCount > this.deps.settings.maxPendingReconciliations) {
      const [oldestKey, oldest] = this.deferred.entries().next().value as [string, PendingReconciliation[]];
      oldest.shift();
      this.deferredCount--;
      if (oldest.length === 0) this.deferred.delete(oldestKey);
    }
  }

  /** The directory changed the meters of a collector. */
  refresh(collectorId: string, meters: readonly MeterInfo[]): void {
    const collector = this.collectors.get(collectorId);
    if (!collector) return;
    for (const id of collector.meterIds()) if (this.byMeter.get(id) === collector) this.byMeter.delete(id);
    collector.setMeters(meters);
    for (const meter of meters) this.byMeter.set(meter.id, collector);
  }

  get(collectorId: string): Collector | undefined {
    return this.collectors.get(collectorId);
  }

  collectorOfMeter(meterId: string): Collector | undefined {
    return this.byMeter.get(meterId);
  }

  all(): Collector[] {
    return [...this.collectors.values()];
  }

  ids(): string[] {
    return [...this.collectors.keys()];
  }

  get meterCount(): number {
    return this.byMeter.size;
  }

  get pendingReconciliations(): number {
    return this.deferredCount;
  }

  /** Every collector's exchange under way ends (within `maxMs`) and no new one starts. */
  async drainAll(maxMs: number): Promise<void> {
    await Promise.all(this.all().map((collector) => collector.drain(maxMs)));
  }

  async stopAll(reason: string): Promise<void> {
    await Promise.all(this.all().map((collector) => collector.stop(reason)));
    await Promise.all([...this.locks.values()]);
  }
}
