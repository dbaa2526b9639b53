/**
 * The MQTT client port and its adapter over MQTT.js (npm "mqtt", 5.x). The package is loaded only
 * when MQTT is switched on (MQTT_URL), so the embedded default runs without it.
 */
export interface MqttClientPort {
  subscribe(filters: readonly string[]): Promise<void>;
  publish(
    topic: string,
    payload: Uint8Array | string,
    options: { qos: 0 | 1; retain?: boolean },
  ): Promise<void>;
  onMessage(handler: (topic: string, payload: Uint8Array) => void): void;
  end(): Promise<void>;
}

export interface MqttConnectOptions {
  clientId: string;
  /** Last will, e.g. a meter's retained "offline" status. */
  will?: { topic: string; payload: string; qos: 0 | 1; retain: boolean };
  connectTimeoutMs?: number;
  /** 0 = do not reconnect. */
  reconnectPeriodMs?: number;
}

export class MqttUnavailable extends Error {}

/** The part of the MQTT.js API used here (5.x: connectAsync and the *Async methods). */
interface MqttJsClient {
  subscribeAsync(topics: string[], options: { qos: 0 | 1 }): Promise<unknown>;
  publishAsync(
    topic: string,
    payload: Buffer | string,
    options: { qos: 0 | 1; retain?: boolean },
  ): Promise<unknown>;
  on(event: "message", listener: (topic: string, payload: Buffer) => void): unknown;
  on(event: "error", listener: (error: Error) => void): unknown;
  endAsync(force?: boolean): Promise<void>;
}
interface MqttJs {
  connectAsync(url: string, options: Record<string, unknown>, allowRetries?: boolean): Promise<MqttJsClient>;
}

// A variable specifier keeps the type checker from requiring the package when MQTT is off.
const MQTT_PACKAGE = "mqtt";

async function loadMqttJs(): Promise<MqttJs> {
  try {
    const module = (await import(MQTT_PACKAGE)) as Partial<MqttJs> & { default?: MqttJs };
    const api = typeof module.connectAsync === "function" ? (module as MqttJs) : module.default;
    if (!api || typeof api.connectAsync !== "function") throw new Error("no connectAsync export");
    return api;
  } catch (error) {
    throw new MqttUnavailable(
      `MQTT needs the "mqtt" package (npm install mqtt@5.16.0): ${(error as Error).message}`,
    );
  }
}

export async function connectMqtt(url: string, options: MqttConnectOptions): Promise<MqttClientPort> {
  const mqtt = await loadMqttJs();
  const client = await mqtt.connectAsync(
    url,
    {
      clientId: options.clientId,
      clean: true,
      connectTimeout: options.connectTimeoutMs ?? 5_000,
      reconnectPeriod: options.reconnectPeriodMs ?? 1_000,
      will: options.will ? { ...options.will, payload: Buffer.from(options.will.payload) } : undefined,
    },
    false,
  );
  // Errors after connecting (broker restarts) are retried by MQTT.js; they must not crash the process.
  client.on("error", () => {});
  return {
    subscribe: async (filters) => {
      await client.subscribeAsync([...filters], { qos: 0 });
    },
    publish: async (topic, payload, publishOptions) => {
      await client.publishAsync(
        topic,
        typeof payload === "string" ? payload : Buffer.from(payload),
        publishOptions,
      );
    },
    onMessage: (handler) => {
      client.on("message", (topic, payload) => handler(topic, payload));
    },
    end: () => client.endAsync(),
  };
}
