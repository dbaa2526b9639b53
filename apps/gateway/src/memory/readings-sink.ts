import type { MeterFileEvent, MeterReading, PresenceEvent } from "../model.ts";
import type { ReadingsSink } from "../ports.ts";

/** Keeps the latest reading per meter and a bounded list of recent ones (demo console, tests). */
export class MemoryReadingsSink implements ReadingsSink {
  private readonly latestByMeter = new Map<string, MeterReading>();
  private readonly recentReadings: MeterReading[] = [];
  private readonly presenceEvents: PresenceEvent[] = [];
  /** Each concentrator's meter file as last reported, by collector id. */
  readonly meterFiles = new Map<string, MeterFileEvent>();
  private readonly listeners = new Set<(reading: MeterReading) => void>();
  count = 0;

  constructor(private readonly keepRecent = 1000) {}

  async record(reading: MeterReading): Promise<void> {
    this.count++;
    this.latestByMeter.set(reading.meterId, reading);
    this.recentReadings.push(reading);
    if (this.recentReadings.length > this.keepRecent) this.recentReadings.shift();
    for (const listener of this.listeners) listener(reading);
  }

  async presence(event: PresenceEvent): Promise<void> {
    this.presenceEvents.push(event);
    if (this.presenceEvents.length > this.keepRecent) this.presenceEvents.shift();
  }

  async meterFile(event: MeterFileEvent): Promise<void> {
    this.meterFiles.set(event.collectorId, event);
  }

  latest(meterId: string): MeterReading | undefined {
    return this.latestByMeter.get(meterId);
  }

  recent(): readonly MeterReading[] {
    return this.recentReadings;
  }

  presences(): readonly PresenceEvent[] {
    return this.presenceEvents;
  }

  onReading(listener: (reading: MeterReading) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Resolves with the first reading of `meterId` that satisfies `predicate`. */
  waitFor(
    meterId: string,
    predicate: (reading: MeterReading) => boolean,
    timeoutMs = 30_000,
  ): Promise<MeterReading> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.listeners.delete(listener);
        reject(new Error(`no matching reading of ${meterId} within ${timeoutMs} ms`));
      }, timeoutMs);
      const listener = (reading: MeterReading) => {
        if (reading.meterId !== meterId || !predicate(reading)) return;
        clearTimeout(timer);
        this.listeners.delete(listener);
        resolve(reading);
      };
      this.listeners.add(listener);
    });
  }
}
