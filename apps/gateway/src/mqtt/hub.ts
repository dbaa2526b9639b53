import { type SplitFrame, splitFrames } from "@meterline/protocols";
import type { FrameLink } from "../bus/link.ts";
import type { Counters } from "../stats.ts";
import type { MqttClientPort } from "./client.ts";
import { type MqttTopics, mqttTopics, parseTopic } from "./topics.ts";

/** The FrameLink of a 4G meter (or a group sharing a collector id): frames over its topics. */
export class MqttLink implements FrameLink {
  readonly transport = "mqtt";
  private receiver: ((frame: SplitFrame) => void) | undefined;
  private readonly closeListeners: ((reason: string) => void)[] = [];
  closed = false;

  constructor(
    readonly collectorId: string,
    readonly addresses: readonly string[],
    private readonly client: MqttClientPort,
    private readonly topics: MqttTopics,
    private readonly onSendError: (error: unknown) => void,
  ) {}

  send(bytes: Uint8Array, address: string): boolean {
    if (this.closed) return false;
    this.client.publish(this.topics.down(address), bytes, { qos: 0 }).catch(this.onSendError);
    return true;
  }

  setReceiver(receiver: (frame: SplitFrame) => void): void {
    this.receiver = receiver;
  }

  onClose(listener: (reason: string) => void): void {
    this.closeListeners.push(listener);
  }

  close(reason: string): void {
    if (this.closed) return;
    this.closed = true;
    for (const listener of this.closeListeners.splice(0)) listener(reason);
  }

  deliver(frame: SplitFrame): void {
    this.receiver?.(frame);
  }
}

/**
 * Routes broker traffic to the MQTT links: one wildcard subscription for all uplinks, messages of
 * meters this gateway does not hold are dropped (another gateway holds their lease). Payloads are
 * bounded and split like a TCP stream, so garbage on a topic is as harmless as on a socket.
 */
export class MqttHub {
  readonly topics: MqttTopics;
  private readonly links = new Map<string, MqttLink>();
  private readonly online = new Set<string>();

  constructor(
    readonly client: MqttClientPort,
    private readonly prefix: string,
    private readonly maxFrameLength: number,
    private readonly counters: Counters,
  ) {
    this.topics = mqttTopics(prefix);
  }

  async start(): Promise<void> {
    this.client.onMessage((topic, payload) => this.route(topic, payload));
    await this.client.subscribe(this.topics.gatewayFilters);
  }

  link(collectorId: string, addresses: readonly string[], onSendError: (error: unknown) => void): MqttLink {
    const link = new MqttLink(collectorId, addresses, this.client, this.topics, onSendError);
    for (const address of addresses) this.links.set(address, link);
    link.onClose(() => {
      for (const address of addresses) if (this.links.get(address) === link) this.links.delete(address);
    });
    return link;
  }

  /** Meters whose last status message said "online". */
  get onlineCount(): number {
    return this.online.size;
  }

  isOnline(address: string): boolean {
    return this.online.has(address);
  }

  private route(topic: string, payload: Uint8Array): void {
    if (!this.routed(topic, payload)) this.counters.mqttMessagesDropped++;
  }

  /** false when the message was dropped. */
  private routed(topic: string, payload: Uint8Array): boolean {
    const parsed = parseTopic(this.prefix, topic);
    if (!parsed || parsed.kind === "down") return false;
    if (parsed.kind === "status") {
      const text = Buffer.from(payload).toString("latin1");
      if (text === "online") this.online.add(parsed.address);
      else if (text === "offline") this.online.delete(parsed.address);
      else return false;
      return true;
    }
    const link = this.links.get(parsed.address);
    // A frame or two per message; anything longer is not a meter talking.
    if (!link || payload.length > this.maxFrameLength * 2) return false;
    const { frames } = splitFrames(payload, { protocol: "any", maxFrameLength: this.maxFrameLength });
    if (frames.length === 0) return false;
    for (const frame of frames) link.deliver({ ...frame, bytes: frame.bytes.slice() });
    return true;
  }
}
