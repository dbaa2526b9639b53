import {
  connectMqtt,
  type MqttClientPort,
  type MqttConnectOptions,
  type MqttTopics,
} from "@meterline/gateway";
import { splitFrames } from "@meterline/protocols";
import type { SimClock } from "./clock.ts";
import type { MeterBus } from "./meter-bus.ts";

/** How to reach the broker: MQTT.js by default, an in-memory broker in tests. */
export type MqttConnect = (url: string, options: MqttConnectOptions) => Promise<MqttClientPort>;

export interface MqttMeterStats {
  connects: number;
  requests: number;
  replies: number;
}

/**
 * A simulated 4G meter on the broker: one MQTT connection with a retained "offline" last will,
 * "online" published on connect, requests on its down topic, replies on its up topic after the
 * reply delay (the same bus logic and faults as behind a DTU).
 */
export class SimulatedMqttMeter {
  readonly stats: MqttMeterStats = { connects: 0, requests: 0, replies: 0 };
  private client: MqttClientPort | undefined;
  private readonly timers = new Set<NodeJS.Timeout>();
  private stopped = false;

  constructor(
    readonly address: string,
    private readonly bus: MeterBus,
    private readonly url: string,
    private readonly topics: MqttTopics,
    private readonly clock: SimClock,
    private readonly reconnectDelayMs: number,
    private readonly connectFn: MqttConnect = connectMqtt,
  ) {}

  get online(): boolean {
    return this.client !== undefined;
  }

  async connect(): Promise<void> {
    const client = await this.connectFn(this.url, {
      clientId: `meter-${this.address}`,
      will: { topic: this.topics.status(this.address), payload: "offline", qos: 1, retain: true },
      reconnectPeriodMs: 0,
    });
    client.onMessage((topic, payload) => {
      if (topic === this.topics.down(this.address)) this.onRequest(client, payload);
    });
    await client.subscribe([this.topics.down(this.address)]);
    await client.publish(this.topics.status(this.address), "online", { qos: 1, retain: true });
    this.client = client;
    this.stats.connects++;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const timer of this.timers) clearTimeout(timer);
    const client = this.client;
    this.client = undefined;
    if (!client) return;
    await client
      .publish(this.topics.status(this.address), "offline", { qos: 1, retain: true })
      .catch(() => {});
    await client.end();
  }

  private onRequest(client: MqttClientPort, payload: Uint8Array): void {
    const { frames } = splitFrames(payload, { protocol: "any" });
    for (const frame of frames) {
      this.stats.requests++;
      const result = this.bus.handle(frame, this.clock.now());
      if (result.disconnect) {
        void this.reconnect(client);
        return;
      }
      for (const reply of result.replies) {
        const timer = setTimeout(() => {
          this.timers.delete(timer);
          if (this.client !== client) return;
          this.stats.replies++;
          client.publish(this.topics.up(this.address), reply.bytes, { qos: 0 }).catch(() => {});
        }, reply.delayMs);
        this.timers.add(timer);
      }
    }
  }

  /** The cellular link drops: end without a clean "offline" (the will says it), come back later. */
  private async reconnect(client: MqttClientPort): Promise<void> {
    if (this.client !== client) return;
    this.client = undefined;
    await client.end().catch(() => {});
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      if (!this.stopped) this.connect().catch(() => {});
    }, this.reconnectDelayMs);
    this.timers.add(timer);
  }
}
