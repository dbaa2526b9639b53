import type { MeterInfo } from "../model.ts";
import type { MeterDirectory } from "../ports.ts";

/** The meter directory held in memory: the embedded demo, the CLI's directory file, the tests. */
export class MemoryMeterDirectory implements MeterDirectory {
  private readonly meters = new Map<string, MeterInfo>();
  private readonly byCollector = new Map<string, MeterInfo[]>();
  private readonly listeners = new Set<(collectorId: string) => void>();

  constructor(meters: readonly MeterInfo[] = []) {
    this.replace(meters);
  }

  /** Replace the whole directory; collectors whose meters changed are announced. */
  replace(meters: readonly MeterInfo[]): void {
    const before = new Map(this.byCollector);
    this.meters.clear();
    this.byCollector.clear();
    for (const meter of meters) {
      this.meters.set(meter.id, meter);
      const list = this.byCollector.get(meter.collectorId) ?? [];
      list.push(meter);
      this.byCollector.set(meter.collectorId, list);
    }
    const touched = new Set([...before.keys(), ...this.byCollector.keys()]);
    for (const collectorId of touched) {
      if (sameMeters(before.get(collectorId), this.byCollector.get(collectorId))) continue;
      for (const listener of this.listeners) listener(collectorId);
    }
  }

  async metersOf(collectorId: string): Promise<MeterInfo[]> {
    return (this.byCollector.get(collectorId) ?? []).filter((meter) => meter.transport === "tcp");
  }

  async mqttMeters(): Promise<MeterInfo[]> {
    return [...this.meters.values()].filter((meter) => meter.transport === "mqtt");
  }

  onChange(listener: (collectorId: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get(meterId: string): MeterInfo | undefined {
    return this.meters.get(meterId);
  }

  collectorOf(meterId: string): string | undefined {
    return this.meters.get(meterId)?.collectorId;
  }

  all(): MeterInfo[] {
    return [...this.meters.values()];
  }
}

function sameMeters(a: MeterInfo[] | undefined, b: MeterInfo[] | undefined): boolean {
  if (!a || !b) return a === b;
  return a.length === b.length && a.every((meter, i) => JSON.stringify(meter) === JSON.stringify(b[i]));
}
