import type { MeterInfo } from "../model.ts";
import type { Logger, MeterDirectory } from "../ports.ts";
import type { CollectorRegistry } from "../registry.ts";
import type { MqttHub } from "./hub.ts";

/**
 * Keeps one collector per MQTT collector id (normally one per 4G meter) attached while this gateway
 * can hold its lease. Re-run on every lease tick, so meters of a gateway that died are picked up
 * once their leases expire, and on directory changes.
 */
export class MqttCollectors {
  private syncing: Promise<void> | undefined;

  constructor(
    private readonly hub: MqttHub,
    private readonly directory: MeterDirectory,
    private readonly registry: CollectorRegistry,
    private readonly logger: Logger,
  ) {}

  sync(): Promise<void> {
    this.syncing ??= this.syncOnce().finally(() => {
      this.syncing = undefined;
    });
    return this.syncing;
  }

  private async syncOnce(): Promise<void> {
    const groups = new Map<string, MeterInfo[]>();
    for (const meter of await this.directory.mqttMeters()) {
      const list = groups.get(meter.collectorId) ?? [];
      list.push(meter);
      groups.set(meter.collectorId, list);
    }
    for (const collector of this.registry.all()) {
      if (collector.link.transport !== "mqtt") continue;
      const meters = groups.get(collector.id);
      if (!meters) await collector.stop("removed from the directory");
      else if (!sameAddresses(collector.meterIds(), meters)) await collector.stop("meters changed");
      else this.registry.refresh(collector.id, meters);
    }
    for (const [collectorId, meters] of groups) {
      if (this.registry.get(collectorId)) continue;
      const link = this.hub.link(
        collectorId,
        meters.map((meter) => meter.address),
        (error) =>
          this.logger.log("warn", "MQTT publish failed", { collector: collectorId, error: String(error) }),
      );
      try {
        await this.registry.attach(link, meters);
      } catch (error) {
        link.close("attach failed");
        this.logger.log("warn", "MQTT collector not attached", {
          collector: collectorId,
          error: String(error),
        });
      }
    }
  }
}

function sameAddresses(ids: readonly string[], meters: readonly MeterInfo[]): boolean {
  const wanted = new Set(meters.map((meter) => meter.id));
  return ids.length === wanted.size && ids.every((id) => wanted.has(id));
}
