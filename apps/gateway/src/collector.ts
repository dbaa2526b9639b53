import { dlt645, dlt698 } from "@meterline/protocols";
import { Bus } from "./bus/bus.ts";
import type { FrameLink } from "./bus/link.ts";
import { CommandWork, type Job, type PendingReconciliation } from "./command-work.ts";
import type { BusContext } from "./commands/exchange.ts";
import type { GatewaySettings } from "./config.ts";
import type { MeterCommand, MeterInfo, MeterReading } from "./model.ts";
import { pollMeter } from "./polling/poller.ts";
import { PollScheduler } from "./polling/scheduler.ts";
import type { CommandSource, Logger, ReadingsSink } from "./ports.ts";
import { cipherPortFor } from "./protocol/dlt698-wallet.ts";
import { RequestFactory } from "./protocol/requests.ts";
import type { Counters } from "./stats.ts";
import { localDay, localParts, localTextToEpoch } from "./time.ts";

/** Quiet time after a broadcast, so every meter on the bus has taken it before the next request. */
const CLOCK_SETTLE_MS = 200;

export type { PendingReconciliation } from "./command-work.ts";

export interface CollectorDeps {
  settings: GatewaySettings;
  source: CommandSource;
  sink: ReadingsSink;
  counters: Counters;
  logger: Logger;
  defer(entry: PendingReconciliation): void;
}

/**
 * One online collector: a DTU session (one RS-485 bus) or a 4G meter. Runs one job at a time in
 * this order: read-backs left over from a dropped session, commands, due valve verifications, then
 * polls — so commands are never stuck behind a poll round (design.md §5).
 */
export class Collector {
  readonly id: string;
  private readonly meters = new Map<string, MeterInfo>();
  private readonly scheduler: PollScheduler;
  private readonly work: CommandWork;
  private readonly ctx: BusContext;
  private stopped = false;
  private wakeUp: (() => void) | undefined;
  private running: Promise<void> = Promise.resolve();
  private ser = 0;
  /** When each protocol's broadcast time last went out on this bus: one does not set the other's meters. */
  private readonly lastClockBroadcast = new Map<"dlt645-2007" | "dlt698", number>();

  constructor(
    readonly link: FrameLink,
    meters: readonly MeterInfo[],
    private readonly deps: CollectorDeps,
    carriedOver: readonly PendingReconciliation[] = [],
  ) {
    this.id = link.collectorId;
    const { settings, counters } = deps;
    this.scheduler = new PollScheduler([], Date.now(), settings.firstPollDelayMs);
    this.setMeters(meters);
    this.ctx = {
      bus: new Bus(link, counters, settings.quietAfterTimeoutMs),
      requests: new RequestFactory(() => {
        this.ser = (this.ser + 1) & 0xff;
        return this.ser;
      }, cipherPortFor(settings.dlt698CipherPort)),
      counters,
      timeoutMs:
        link.transport === "mqtt"
          ? settings.mqttRequestTimeoutMs
          : link.kind === "concentrator"
            ? settings.concentratorRequestTimeoutMs
            : settings.requestTimeoutMs,
      readRetries: settings.readRetries,
    };
    this.work = new CommandWork(
      {
        collectorId: this.id,
        ctx: this.ctx,
        settings,
        source: deps.source,
        counters,
        logger: deps.logger,
        meter: (meterId) => this.meters.get(meterId),
        defer: deps.defer,
      },
      carriedOver,
    );
    link.onClose(() => this.halt());
    link.onMeterEvents?.((meterIds) => {
      this.scheduler.eventDue(Date.now(), meterIds);
      this.wake();
    });
  }

  start(): void {
    this.running = this.loop();
  }

  meterIds(): string[] {
    return [...this.meters.keys()];
  }

  setMeters(meters: readonly MeterInfo[]): void {
    this.link.setMeters?.(meters);
    this.meters.clear();
    for (const meter of meters) this.meters.set(meter.id, meter);
    this.scheduler.setMeters(
      meters.map((meter) => ({ meterId: meter.id, intervalMs: meter.pollIntervalMs })),
      Date.now(),
    );
    this.wake();
  }

  /** Free places for claimed commands. */
  get room(): number {
    return this.stopped ? 0 : this.work.room;
  }

  /** A command of this collector is claimed, on the wire or awaiting its read-back. */
  get busy(): boolean {
    return this.work.busy;
  }

  get inFlightCommands(): number {
    return this.work.inFlight;
  }

  /** Take a claimed command; false when its meter is not on this collector (the caller releases it). */
  enqueue(command: MeterCommand): boolean {
    if (this.stopped || !this.work.enqueue(command)) return false;
    this.wake();
    return true;
  }

  pollNow(meterIds?: readonly string[]): number {
    const count = this.scheduler.pollNow(Date.now(), meterIds);
    this.wake();
    return count;
  }

  /**
   * Let the exchange under way end before the link closes (a gateway stopping on SIGTERM): no new
   * job starts, and the current one gets up to `maxMs` to finish, so a command on the wire gets its
   * reply here rather than a read-back at the next gateway. Past `maxMs` the stop closes the link
   * as before, and the command's outcome is settled by reading the meter back.
   */
  async drain(maxMs: number): Promise<void> {
    this.halt();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.running, new Promise((resolve) => (timer = setTimeout(resolve, maxMs)))]);
    clearTimeout(timer);
  }

  /** Close the link and wait until the current job has finished and the leftovers are handed back. */
  async stop(reason: string): Promise<void> {
    if (!this.link.closed) this.link.close(reason);
    this.halt();
    await this.running;
  }

  private halt(): void {
    this.stopped = true;
    this.wake();
  }

  private wake(): void {
    const wakeUp = this.wakeUp;
    this.wakeUp = undefined;
    wakeUp?.();
  }

  private async loop(): Promise<void> {
    while (!this.stopped) {
      const job = this.nextJob(Date.now());
      if (!job) {
        await this.sleepUntil(this.nextWakeAt());
        continue;
      }
      try {
        await job();
      } catch (error) {
        this.deps.logger.log("error", "collector job failed", { collector: this.id, error: String(error) });
      }
    }
    await this.work.handBack();
  }

  /** Commands before polls (design.md §5). */
  private nextJob(now: number): Job | undefined {
    const job = this.work.next(now);
    if (job) return job;
    const meterId = this.scheduler.next(now);
    return meterId ? () => this.poll(meterId) : undefined;
  }

  private nextWakeAt(): number {
    return Math.min(this.scheduler.nextDueAt(), this.work.nextAt());
  }

  private sleepUntil(at: number): Promise<void> {
    return new Promise((resolve) => {
      const delay = Math.min(Math.max(0, at - Date.now()), 2 ** 31 - 1);
      const timer = Number.isFinite(at) ? setTimeout(() => this.wake(), delay) : undefined;
      this.wakeUp = () => {
        clearTimeout(timer);
        resolve();
      };
      if (this.stopped) this.wake();
    });
  }

  private async poll(meterId: string): Promise<void> {
    const meter = this.meters.get(meterId);
    if (!meter) return;
    const day = localDay(new Date(), this.deps.settings.timeZone);
    const result = await pollMeter(this.ctx, meter, this.scheduler.frozenDue(meterId, day));
    this.scheduler.completed(meterId, Date.now());
    if (result.frozenAnswered) this.scheduler.frozenRead(meterId, day);
    if (result.linkClosed && !result.reachable) return;
    if (result.reachable) this.deps.counters.pollsCompleted++;
    else this.deps.counters.pollsFailed++;
    await this.deps.sink.record(result.reading);
    this.deps.counters.readings++;
    await this.correctClock(meter, result.reading);
  }

  /**
   * A clock read off by more than the tolerance gets the bus's broadcast time: DL/T 645-2007's
   * (control code 08) for a 645 meter, DL/T 698.45's (ACTION 4000 method 127 to the broadcast
   * address) for a 698.45 meter. One frame sets every meter of that protocol on the bus and the
   * other protocol's meters ignore it, so each is sent at most once per interval per bus.
   */
  private async correctClock(meter: MeterInfo, reading: MeterReading): Promise<void> {
    const { clockToleranceMs, clockBroadcastIntervalMs, timeZone } = this.deps.settings;
    const protocol = meter.protocol;
    if (!clockToleranceMs || !reading.meterTime || this.stopped) return;
    if (protocol !== "dlt645-2007" && protocol !== "dlt698") return;
    const meterAt = localTextToEpoch(reading.meterTime, timeZone);
    if (meterAt === undefined) return;
    const drift = meterAt - Date.now();
    if (Math.abs(drift) <= clockToleranceMs) return;
    const last = this.lastClockBroadcast.get(protocol) ?? Number.NEGATIVE_INFINITY;
    if (Date.now() - last < clockBroadcastIntervalMs) return;
    this.lastClockBroadcast.set(protocol, Date.now());
    const now = localParts(new Date(), timeZone);
    const preamble = meter.model.preamble;
    const frame =
      protocol === "dlt698"
        ? dlt698.buildBroadcastTime(now, { preamble })
        : dlt645.buildBroadcastTime(now, { preamble });
    if (await this.ctx.bus.announce(frame, meter.address, CLOCK_SETTLE_MS)) {
      this.deps.counters.clockBroadcasts++;
      this.deps.logger.log("info", "broadcast time to correct a meter clock", {
        collector: this.id,
        meter: meter.address,
        protocol,
        driftSeconds: Math.round(drift / 1000),
      });
    }
  }
}
