import type { MeterInfo } from "../model.ts";
import type { Logger, MeterDirectory } from "../ports.ts";
import type { CollectorRegistry } from "../registry.ts";
import type { Counters } from "../stats.ts";
import { RedialBackoff } from "./redial-backoff.ts";
import { ModbusTcpLink } from "./tcp-link.ts";

/** The collector id of a Modbus TCP endpoint: the meters behind one host:port share its link. */
export function modbusTcpCollectorId(endpoint: { host: string; port: number }): string {
  return `modbus-tcp:${endpoint.host}:${endpoint.port}`;
}

/**
 * Keeps one outgoing connection per Modbus TCP endpoint attached while this gateway can hold its
 * lease, like the MQTT collectors: re-run on every lease tick (an endpoint that dropped is dialled
 * again, one a dead gateway held is picked up once its lease lapses) and on directory changes.
 * An endpoint that cannot be reached is dialled again after a growing wait (RedialBackoff).
 */
export class ModbusTcpCollectors {
  private syncing: Promise<void> | undefined;
  private readonly dialling = new Set<string>();

  constructor(
    private readonly directory: MeterDirectory,
    private readonly registry: CollectorRegistry,
    private readonly counters: Counters,
    private readonly logger: Logger,
    private readonly connectTimeoutMs: number,
    private readonly backoff = new RedialBackoff(),
  ) {}

  sync(): Promise<void> {
    if (!this.directory.modbusTcpMeters) return Promise.resolve();
    this.syncing ??= this.syncOnce().finally(() => {
      this.syncing = undefined;
    });
    return this.syncing;
  }

  private async syncOnce(): Promise<void> {
    const groups = new Map<string, MeterInfo[]>();
    for (const meter of (await this.directory.modbusTcpMeters?.()) ?? []) {
      if (!meter.model.modbusTcp) continue;
      const list = groups.get(meter.collectorId) ?? [];
      list.push(meter);
      groups.set(meter.collectorId, list);
    }
    for (const collector of this.registry.all()) {
      if (collector.link.transport !== "modbus-tcp") continue;
      const meters = groups.get(collector.id);
      if (!meters) await collector.stop("removed from the directory");
      else this.registry.refresh(collector.id, meters);
    }
    await Promise.all(
      [...groups].map(([collectorId, meters]) =>
        this.registry.get(collectorId) || this.dialling.has(collectorId) || !this.backoff.due(collectorId)
          ? undefined
          : this.dial(collectorId, meters),
      ),
    );
  }

  private async dial(collectorId: string, meters: MeterInfo[]): Promise<void> {
    this.dialling.add(collectorId);
    const link = new ModbusTcpLink(collectorId, meters[0]!.model.modbusTcp!, this.counters);
    try {
      if (!(await link.connect(this.connectTimeoutMs))) {
        const retryInMs = this.backoff.failed(collectorId);
        this.logger.log("warn", "Modbus TCP endpoint not reached", { collector: collectorId, retryInMs });
        return;
      }
      this.backoff.succeeded(collectorId);
      await this.registry.attach(link, meters);
    } catch (error) {
      link.close("attach failed");
      this.logger.log("warn", "Modbus TCP collector not attached", {
        collector: collectorId,
        error: String(error),
      });
    } finally {
      this.dialling.delete(collectorId);
    }
  }
}
