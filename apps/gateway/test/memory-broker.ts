import type { MqttClientPort, MqttConnectOptions } from "@meterline/gateway";

/** Does an MQTT topic filter (with + and #) match a topic? */
export function topicMatches(filter: string, topic: string): boolean {
  const f = filter.split("/");
  const t = topic.split("/");
  for (let i = 0; i < f.length; i++) {
    if (f[i] === "#") return true;
    if (i >= t.length || (f[i] !== "+" && f[i] !== t[i])) return false;
  }
  return f.length === t.length;
}

interface Session {
  filters: string[];
  handler?: (topic: string, payload: Uint8Array) => void;
  will?: MqttConnectOptions["will"];
}

/**
 * A broker in memory, for tests of the MQTT path without a network: subscriptions with wildcards,
 * retained messages, last wills on abnormal disconnects, asynchronous delivery like a real broker.
 */
export class MemoryBroker {
  private readonly sessions = new Set<Session>();
  private readonly retained = new Map<string, Uint8Array>();
  published = 0;

  private deliver(topic: string, payload: Uint8Array, retain: boolean): void {
    this.published++;
    if (retain) this.retained.set(topic, payload);
    for (const session of this.sessions)
      if (session.filters.some((filter) => topicMatches(filter, topic)))
        setImmediate(() => session.handler?.(topic, payload));
  }

  connect = async (_url: string, options: MqttConnectOptions): Promise<MqttClientPort & { kill(): void }> => {
    const session: Session = { filters: [], will: options.will };
    this.sessions.add(session);
    return {
      subscribe: async (filters) => {
        session.filters.push(...filters);
        for (const [topic, payload] of this.retained)
          if (filters.some((filter) => topicMatches(filter, topic)))
            setImmediate(() => session.handler?.(topic, payload));
      },
      publish: async (topic, payload, publishOptions) => {
        if (!this.sessions.has(session)) throw new Error("client disconnected");
        this.deliver(
          topic,
          typeof payload === "string" ? Buffer.from(payload) : payload,
          publishOptions.retain === true,
        );
      },
      onMessage: (handler) => {
        session.handler = handler;
      },
      end: async () => {
        this.sessions.delete(session);
      },
      kill: () => {
        this.sessions.delete(session);
        if (session.will)
          this.deliver(session.will.topic, Buffer.from(session.will.payload), session.will.retain);
      },
    };
  };

  /** A stranger publishing on the broker. */
  inject(topic: string, payload: Uint8Array | string): void {
    this.deliver(topic, typeof payload === "string" ? Buffer.from(payload) : payload, false);
  }
}
