import { hasField, parseTemplate } from "./dtu/packet-format.ts";
import { CIPHER_PORTS, type CipherPortName } from "./protocol/dlt698-wallet.ts";

/**
 * Gateway settings and their defaults. Times are milliseconds. The defaults suit real DTUs over
 * cellular links (metering-domain.md §3.4: 3–15 s per request through a DTU, 2–3 read retries,
 * offline after 2–3 missed heartbeats); tests pass much shorter ones.
 */
export interface GatewaySettings {
  /** Address the DTU port listens on (GATEWAY_HOST); the embedded gateway defaults to the HTTP host. */
  host: string;
  /** TCP port for DTUs and concentrators; 0 picks a free one. */
  port: number;
  /**
   * Registration packet template sent by a DTU after connecting (see dtu/packet-format.ts); it must
   * carry {id} and {secret}: a DTU is served only once it has proven its collector's secret.
   */
  registration: string;
  /** Heartbeat packet template; may contain {id}. */
  heartbeat: string;
  /** Optional answer to each heartbeat (some DTUs expect an echo); "" = none. */
  heartbeatReply: string;
  /** Longest registration packet accepted, in bytes. */
  maxRegistrationBytes: number;
  /** Unregistered connections are closed after this long. */
  registrationTimeoutMs: number;
  heartbeatIntervalMs: number;
  /** Offline after this many heartbeat intervals without any byte from the collector. */
  missedHeartbeats: number;
  /** A partial frame with no further byte for this long is dropped (RS-485 Tb ≤ 500 ms, §1.1). */
  interByteTimeoutMs: number;
  /** A session sending this many bytes that are neither frames nor heartbeats in a row is closed. */
  maxGarbageBytes: number;
  /** Longest frame accepted (DL/T 645 read replies: L ≤ 200 → 212 bytes). */
  maxFrameLength: number;
  maxConnections: number;
  maxConnectionsPerIp: number;
  /** Connections that have not registered yet: the registration-flood bound. */
  maxPending: number;
  maxPendingPerIp: number;
  /** DTUs whose id has no meters in the directory are disconnected. */
  rejectUnknownCollectors: boolean;
  requestTimeoutMs: number;
  /**
   * After a timeout the bus stays quiet this long before the next request, so a late reply lands
   * while nothing is in flight and is dropped instead of being taken for the next answer.
   */
  quietAfterTimeoutMs: number;
  /** Extra attempts for reads (never for writes). */
  readRetries: number;
  /** First poll of a meter after its collector comes online. */
  firstPollDelayMs: number;
  /** Motor valves take seconds: the state is verified this long after the acknowledgement (§2.3). */
  valveSettleMs: number;
  /** Validity deadline written into relay frames (plain-text replay protection, §1.7). */
  relayValidityMs: number;
  /**
   * A write whose reply and read-back were both lost stays "timeout"; the meter is read back again
   * this often while its collector is online, until the read-back settles it (never written again).
   */
  timeoutRecheckMs: number;
  /** How often queued commands are claimed when the source gives no wake-up. */
  commandClaimIntervalMs: number;
  /** Claimed-but-unsent commands held per collector. */
  commandQueuePerCollector: number;
  leaseTtlMs: number;
  /**
   * A DTU that proves itself here while another gateway holds its collector's lease (its old
   * session is half-open there) waits this long for that gateway to drop it; 0 = refuse at once.
   */
  takeoverWaitMs: number;
  /** How often a gateway compares its lease count with its fair share and hands the excess over; 0 = never. */
  rebalanceIntervalMs: number;
  /** Most collectors handed over per rebalance round. */
  rebalanceBatch: number;
  /** Tenant time zone: decides the local day for daily frozen data and meter clocks. */
  timeZone: string;
  /** MQTT broker for 4G meters; MQTT is off when unset. */
  mqttUrl?: string;
  mqttTopicPrefix: string;
  /** Requests over MQTT cross a cellular network and a broker: a longer timeout. */
  mqttRequestTimeoutMs: number;
  /** Oldest command awaiting reconciliation after a dropped connection kept in memory (count). */
  maxPendingReconciliations: number;
  /** A DL/T 645 meter clock further off than this (read daily) gets the bus's broadcast time; 0 = never. */
  clockToleranceMs: number;
  /**
   * A request to a meter behind a Q/GDW 1376.1 concentrator crosses the cellular link and the
   * carrier (power-line or radio) to the meter and back: seconds, not the RS-485 bus's hundreds
   * of ms. Must exceed concentratorMeterTimeoutMs.
   */
  concentratorRequestTimeoutMs: number;
  /** How long the concentrator waits for the meter's answer to a forwarded frame (AFN 10 F1). */
  concentratorMeterTimeoutMs: number;
  /** Longest Q/GDW 1376.1 frame accepted from a concentrator (forwarded replies, meter-file answers). */
  maxConcentratorFrameLength: number;
  /** At most one broadcast time per bus in this span (meters accept one correction a day, §1.3). */
  clockBroadcastIntervalMs: number;
  /**
   * The cipher machine DL/T 698.45 money writes go through (protocol/dlt698-wallet.ts):
   * "none" (default) refuses them; "software-test-double" is a double with test keys for the demo
   * fleet and tests, never a production setting.
   */
  dlt698CipherPort: CipherPortName;
}

export const DEFAULT_SETTINGS: GatewaySettings = {
  host: "0.0.0.0",
  port: 9645,
  registration: "REG:{id},{secret}\\n",
  heartbeat: "HB\\n",
  heartbeatReply: "",
  maxRegistrationBytes: 128,
  registrationTimeoutMs: 10_000,
  heartbeatIntervalMs: 60_000,
  missedHeartbeats: 3,
  interByteTimeoutMs: 500,
  maxGarbageBytes: 4096,
  maxFrameLength: 12 + 200,
  maxConnections: 20_000,
  maxConnectionsPerIp: 5_000,
  maxPending: 2_000,
  maxPendingPerIp: 500,
  rejectUnknownCollectors: true,
  requestTimeoutMs: 3_000,
  quietAfterTimeoutMs: 1_000,
  readRetries: 2,
  firstPollDelayMs: 1_000,
  valveSettleMs: 15_000,
  relayValidityMs: 10 * 60_000,
  timeoutRecheckMs: 60_000,
  commandClaimIntervalMs: 1_000,
  commandQueuePerCollector: 100,
  leaseTtlMs: 30_000,
  takeoverWaitMs: 5_000,
  rebalanceIntervalMs: 10_000,
  rebalanceBatch: 5,
  timeZone: "Asia/Shanghai",
  mqttTopicPrefix: "meterline",
  mqttRequestTimeoutMs: 10_000,
  maxPendingReconciliations: 10_000,
  clockToleranceMs: 60_000,
  clockBroadcastIntervalMs: 23 * 3_600_000,
  concentratorRequestTimeoutMs: 20_000,
  concentratorMeterTimeoutMs: 10_000,
  maxConcentratorFrameLength: 2048,
  dlt698CipherPort: "none",
};

export class GatewayConfigError extends Error {}

const NUMERIC_ENV: Partial<Record<keyof GatewaySettings, string>> = {
  port: "GATEWAY_PORT",
  registrationTimeoutMs: "GATEWAY_REGISTRATION_TIMEOUT_MS",
  heartbeatIntervalMs: "GATEWAY_HEARTBEAT_INTERVAL_MS",
  missedHeartbeats: "GATEWAY_MISSED_HEARTBEATS",
  requestTimeoutMs: "GATEWAY_REQUEST_TIMEOUT_MS",
  readRetries: "GATEWAY_READ_RETRIES",
  maxConnections: "GATEWAY_MAX_CONNECTIONS",
  maxConnectionsPerIp: "GATEWAY_MAX_CONNECTIONS_PER_IP",
  maxPending: "GATEWAY_MAX_PENDING",
  maxPendingPerIp: "GATEWAY_MAX_PENDING_PER_IP",
  leaseTtlMs: "GATEWAY_LEASE_TTL_MS",
  takeoverWaitMs: "GATEWAY_TAKEOVER_WAIT_MS",
  rebalanceIntervalMs: "GATEWAY_REBALANCE_INTERVAL_MS",
  rebalanceBatch: "GATEWAY_REBALANCE_BATCH",
  valveSettleMs: "GATEWAY_VALVE_SETTLE_MS",
  timeoutRecheckMs: "GATEWAY_TIMEOUT_RECHECK_MS",
  clockToleranceMs: "GATEWAY_CLOCK_TOLERANCE_MS",
  concentratorRequestTimeoutMs: "GATEWAY_CONCENTRATOR_REQUEST_TIMEOUT_MS",
  concentratorMeterTimeoutMs: "GATEWAY_CONCENTRATOR_METER_TIMEOUT_MS",
};

/** Settings from the environment (GATEWAY_*, MQTT_URL, TZ_TENANT), over the defaults. */
export function settingsFromEnv(env: NodeJS.ProcessEnv = process.env): Partial<GatewaySettings> {
  const out: Partial<GatewaySettings> = {};
  for (const [key, name] of Object.entries(NUMERIC_ENV) as [keyof GatewaySettings, string][]) {
    const text = env[name];
    if (text === undefined || text === "") continue;
    const value = Number(text);
    if (!Number.isInteger(value) || value < 0)
      throw new GatewayConfigError(`${name} must be a whole number ≥ 0`);
    (out as Record<string, unknown>)[key] = value;
  }
  if (env.GATEWAY_HOST) out.host = env.GATEWAY_HOST;
  if (env.GATEWAY_REGISTRATION) out.registration = env.GATEWAY_REGISTRATION;
  if (env.GATEWAY_HEARTBEAT) out.heartbeat = env.GATEWAY_HEARTBEAT;
  if (env.GATEWAY_HEARTBEAT_REPLY) out.heartbeatReply = env.GATEWAY_HEARTBEAT_REPLY;
  if (env.MQTT_URL) out.mqttUrl = env.MQTT_URL;
  if (env.MQTT_TOPIC_PREFIX) out.mqttTopicPrefix = env.MQTT_TOPIC_PREFIX;
  if (env.TENANT_TIME_ZONE) out.timeZone = env.TENANT_TIME_ZONE;
  if (env.GATEWAY_DLT698_CIPHER_PORT) out.dlt698CipherPort = env.GATEWAY_DLT698_CIPHER_PORT as CipherPortName;
  return out;
}

export function resolveSettings(overrides: Partial<GatewaySettings> = {}): GatewaySettings {
  const settings = { ...DEFAULT_SETTINGS, ...stripUndefined(overrides) };
  if (settings.port < 0 || settings.port > 65535)
    throw new GatewayConfigError(`port ${settings.port} is not a port`);
  if (settings.requestTimeoutMs <= 0) throw new GatewayConfigError("requestTimeoutMs must be > 0");
  if (settings.timeoutRecheckMs <= 0) throw new GatewayConfigError("timeoutRecheckMs must be > 0");
  if (settings.maxFrameLength < 24 || settings.maxFrameLength > 268)
    throw new GatewayConfigError("maxFrameLength must be within 24..268 bytes");
  if (settings.concentratorMeterTimeoutMs >= settings.concentratorRequestTimeoutMs)
    throw new GatewayConfigError("concentratorMeterTimeoutMs must be below concentratorRequestTimeoutMs");
  if (settings.concentratorMeterTimeoutMs > 127_000)
    throw new GatewayConfigError("concentratorMeterTimeoutMs is at most 127 s (AFN 10 F1)");
  if (settings.maxConcentratorFrameLength < 64 || settings.maxConcentratorFrameLength > 16_391)
    throw new GatewayConfigError("maxConcentratorFrameLength must be within 64..16391 bytes");
  if (!CIPHER_PORTS.includes(settings.dlt698CipherPort))
    throw new GatewayConfigError(`dlt698CipherPort must be one of ${CIPHER_PORTS.join(", ")}`);
  checkPacketTemplates(settings);
  if (!/^[A-Za-z0-9_/-]+$/.test(settings.mqttTopicPrefix) || settings.mqttTopicPrefix.includes("//"))
    throw new GatewayConfigError("mqttTopicPrefix may hold letters, digits, _ - and /");
  return settings;
}

/** Templates are checked at start, so a typo stops the gateway instead of refusing every DTU. */
function checkPacketTemplates(settings: GatewaySettings): void {
  const parse = (name: string, template: string) => {
    try {
      return parseTemplate(template);
    } catch (error) {
      throw new GatewayConfigError(`${name}: ${(error as Error).message}`);
    }
  };
  const registration = parse("registration", settings.registration);
  if (!hasField(registration, "id") || !hasField(registration, "secret"))
    throw new GatewayConfigError(
      "the registration template must carry {id} and {secret} (DTUs prove who they are with their secret)",
    );
  for (const [name, template] of [
    ["heartbeat", settings.heartbeat],
    ["heartbeatReply", settings.heartbeatReply],
  ] as const)
    if (hasField(parse(name, template), "secret"))
      throw new GatewayConfigError(`the ${name} template may not carry {secret}`);
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
