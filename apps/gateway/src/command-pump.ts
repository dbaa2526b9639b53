import type { CommandSource, Logger } from "./ports.ts";
import type { CollectorRegistry } from "./registry.ts";

/** Largest claim in one round trip to the command source. */
const MAX_CLAIM = 10_000;

/**
 * Moves queued commands from the command source to the collectors online here: on the source's
 * wake-up (coalesced, so a batch of 1,000 enqueues costs one claim), when a collector comes
 * online, and on a slow tick for sources without wake-ups.
 */
export class CommandPump {
  private timer: NodeJS.Timeout | undefined;
  private unsubscribe: (() => void) | undefined;
  private scheduled = false;
  private running = false;
  private again = false;
  private releasing = false;
  private stopped = false;

  constructor(
    private readonly source: CommandSource,
    private readonly registry: CollectorRegistry,
    private readonly owner: string,
    private readonly intervalMs: number,
    private readonly logger: Logger,
  ) {}

  start(): void {
    this.timer = setInterval(() => this.kick(), this.intervalMs);
    this.unsubscribe = this.source.onQueued?.(() => {
      // Our own releases (meter moved away) would otherwise wake us into claiming them again at once.
      if (!this.releasing) this.kick();
    });
  }

  stop(): void {
    this.stopped = true;
    clearInterval(this.timer);
    this.unsubscribe?.();
  }

  kick(): void {
    if (this.scheduled || this.stopped) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      void this.run();
    });
  }

  private async run(): Promise<void> {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = true;
    let full = false;
    try {
      full = await this.claimOnce();
    } catch (error) {
      this.logger.log("error", "claiming commands failed", { error: String(error) });
    } finally {
      this.running = false;
    }
    if (this.again || full) {
      this.again = false;
      this.kick();
    }
  }

  /** One claim; true when it was full (more may be waiting). */
  private async claimOnce(): Promise<boolean> {
    const open = this.registry.all().filter((collector) => collector.room > 0);
    if (open.length === 0) return false;
    const limit = Math.min(
      MAX_CLAIM,
      open.reduce((sum, collector) => sum + collector.room, 0),
    );
    const commands = await this.source.claim({
      owner: this.owner,
      collectorIds: open.map((c) => c.id),
      limit,
    });
    const rejected: string[] = [];
    for (const command of commands) {
      if (!this.registry.collectorOfMeter(command.meterId)?.enqueue(command)) rejected.push(command.id);
    }
    if (rejected.length > 0) {
      this.releasing = true;
      try {
        await this.source.release(rejected);
      } finally {
        this.releasing = false;
      }
    }
    return commands.length === limit && rejected.length < commands.length;
  }
}
