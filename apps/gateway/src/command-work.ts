import type { BusContext } from "./commands/exchange.ts";
import { type CommandSettings, executeCommand, type FollowUp, reconcile } from "./commands/executor.ts";
import { CommandTracker } from "./commands/tracker.ts";
import type { MeterCommand, MeterInfo } from "./model.ts";
import type { CommandSource, Logger } from "./ports.ts";
import type { Counters } from "./stats.ts";

/** A write whose outcome is still open when its link dropped; settled by the collector's next session. */
export interface PendingReconciliation {
  collectorId: string;
  meterId: string;
  tracker: CommandTracker;
  acknowledged: boolean;
  /** Not read back before this instant (epoch ms): a motor valve still moving would read as failed. */
  notBefore?: number;
}

export interface CommandWorkDeps {
  collectorId: string;
  ctx: BusContext;
  settings: CommandSettings & { commandQueuePerCollector: number };
  source: CommandSource;
  counters: Counters;
  logger: Logger;
  meter(meterId: string): MeterInfo | undefined;
  defer(entry: PendingReconciliation): void;
}

export type Job = () => Promise<void>;

interface Verification {
  tracker: CommandTracker;
  meterId: string;
  at: number;
  acknowledged: boolean;
}

/**
 * The command side of one collector: claimed commands, valve checks waiting for the valve to
 * settle, and read-backs carried over from a dropped session. Hands the collector one job at a
 * time, read-backs first, then commands, then due verifications.
 */
export class CommandWork {
  private readonly commands: { tracker: CommandTracker; meter: MeterInfo }[] = [];
  private readonly verifications: Verification[] = [];
  private readonly reconciliations: PendingReconciliation[] = [];
  private running = 0;

  constructor(
    private readonly deps: CommandWorkDeps,
    carriedOver: readonly PendingReconciliation[],
  ) {
    const now = Date.now();
    for (const entry of carriedOver) {
      if (entry.notBefore !== undefined && entry.notBefore > now)
        this.verifications.push({
          tracker: entry.tracker,
          meterId: entry.meterId,
          at: entry.notBefore,
          acknowledged: entry.acknowledged,
        });
      else this.reconciliations.push(entry);
    }
  }

  get room(): number {
    return Math.max(0, this.deps.settings.commandQueuePerCollector - this.commands.length);
  }

  get inFlight(): number {
    return this.commands.length + this.verifications.length;
  }

  /** Any command claimed, running, awaiting verification or a read-back: not to be handed over now. */
  get busy(): boolean {
    return this.running > 0 || this.inFlight > 0 || this.reconciliations.length > 0;
  }

  enqueue(command: MeterCommand): boolean {
    const meter = this.deps.meter(command.meterId);
    if (!meter) return false;
    this.commands.push({ tracker: new CommandTracker(command, this.deps.source, this.deps.counters), meter });
    return true;
  }

  next(now: number): Job | undefined {
    const job = this.pick(now);
    if (!job) return undefined;
    return async () => {
      this.running++;
      try {
        await job();
      } finally {
        this.running--;
      }
    };
  }

  private pick(now: number): Job | undefined {
    const reconciliation = this.reconciliations.shift();
    if (reconciliation)
      return () => this.settle(reconciliation.tracker, reconciliation.meterId, reconciliation.acknowledged);
    const command = this.commands.shift();
    if (command) return () => this.execute(command.tracker, command.meter);
    const index = this.verifications.findIndex((entry) => entry.at <= now);
    if (index === -1) return undefined;
    const [entry] = this.verifications.splice(index, 1);
    return () => this.settle(entry!.tracker, entry!.meterId, entry!.acknowledged);
  }

  /** When the earliest verification falls due (Infinity if none). */
  nextAt(): number {
    return this.verifications.reduce((at, entry) => Math.min(at, entry.at), Number.POSITIVE_INFINITY);
  }

  private async execute(tracker: CommandTracker, meter: MeterInfo): Promise<void> {
    this.follow(await executeCommand(this.deps.ctx, meter, tracker, this.deps.settings), tracker, meter.id);
  }

  private async settle(tracker: CommandTracker, meterId: string, acknowledged: boolean): Promise<void> {
    const meter = this.deps.meter(meterId);
    if (!meter) return this.later(tracker, meterId, acknowledged);
    const recheckMs = this.deps.settings.timeoutRecheckMs;
    this.follow(
      await reconcile(this.deps.ctx, meter, tracker, acknowledged, undefined, recheckMs),
      tracker,
      meterId,
    );
  }

  private follow(followUp: FollowUp, tracker: CommandTracker, meterId: string): void {
    if (followUp.kind === "verify")
      this.verifications.push({ tracker, meterId, at: followUp.at, acknowledged: followUp.acknowledged });
    if (followUp.kind === "reconcile-later") this.later(tracker, meterId, followUp.acknowledged);
  }

  private later(tracker: CommandTracker, meterId: string, acknowledged: boolean): void {
    this.deps.defer({ collectorId: this.deps.collectorId, meterId, tracker, acknowledged });
  }

  /** The session ended: unsent commands go back to the queue, open outcomes to the next session. */
  async handBack(): Promise<void> {
    const { source, logger, collectorId } = this.deps;
    const unsent = this.commands.splice(0).map((entry) => entry.tracker.command.id);
    try {
      if (unsent.length > 0) await source.release(unsent);
      for (const entry of this.verifications.splice(0)) {
        if (entry.tracker.state === "sent")
          await entry.tracker.to("timeout", {
            detail: "connection closed before the state could be verified; read back when it returns",
            acknowledged: entry.acknowledged,
          });
        this.later(entry.tracker, entry.meterId, entry.acknowledged);
      }
    } catch (error) {
      logger.log("error", "could not hand commands back", { collector: collectorId, error: String(error) });
    }
    for (const entry of this.reconciliations.splice(0)) this.deps.defer(entry);
  }
}
