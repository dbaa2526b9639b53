import type { MeterInfo } from "../model.ts";
import type { CollectorCredentials, MeterDirectory } from "../ports.ts";

/** A collector's entry in a directory: its id and what it must prove when it registers. */
export interface DirectoryCollector extends CollectorCredentials {
  id: string;
}

/** The meter directory held in memory: the embedded demo, the CLI's directory file, the tests. */
export class MemoryMeterDirectory implements MeterDirectory {
  private readonly meters = new Map<string, MeterInfo>();
  private readonly credentials = new Map<string, CollectorCredentials>();
  private readonly byCollector = new Map<string, MeterInfo[]>();
  private readonly listeners = new Set<(collectorId: string) => void>();

  constructor(meters: readonly MeterInfo[] = [], collectors: readonly DirectoryCollector[] = []) {
    this.replace(meters, collectors);
  }

  /**
   * Replace the whole directory; collectors whose meters changed are announced. Collectors' secrets
   * are replaced too when given, else kept.
   */
  replace(meters: readonly MeterInfo[], collectors?: readonly DirectoryCollector[]): void {
    if (collectors) {
      this.credentials.clear();
      for (const { id, ...credentials } of collectors) this.credentials.set(id, credentials);
    }
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
    // Modbus TCP meters are not behind a DTU: the gateway dials them (modbusTcpMeters).
    return (this.byCollector.get(collectorId) ?? []).filter(
      (meter) => meter.transport === "tcp" && !meter.model.modbusTcp,
    );
  }

  /** Known collectors: those with an entry, or with TCP meters (such a one has no secret: refused). */
  async credentialsOf(collectorId: string): Promise<CollectorCredentials | undefined> {
    const entry = this.credentials.get(collectorId);
    if (entry) return entry;
    return (await this.metersOf(collectorId)).length > 0 ? {} : undefined;
  }

  /** Set one collector's secret and allowed networks. */
  setCredentials(collectorId: string, credentials: CollectorCredentials): void {
    this.credentials.set(collectorId, credentials);
  }

  async mqttMeters(): Promise<MeterInfo[]> {
    return [...this.meters.values()].filter((meter) => meter.transport === "mqtt");
  }

  async modbusTcpMeters(): Promise<MeterInfo[]> {
    return [...this.meters.values()].filter((meter) => meter.protocol === "modbus" && meter.model.modbusTcp);
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
