/**
 * MQTT topic layout for 4G meters (prefix "meterline" by default):
 *   <prefix>/<address>/down    gateway → meter: one raw request frame per message (QoS 0)
 *   <prefix>/<address>/up      meter → gateway: raw reply frame(s), FE preamble allowed (QoS 0)
 *   <prefix>/<address>/status  meter's presence: "online" (retained) on connect, "offline" as its
 *                              retained last will
 * QoS 0 on purpose: QoS 1 redelivers, and a redelivered relay or recharge frame is exactly the
 * blind retry the command rules forbid. A lost frame is a timeout, settled by reading back.
 */
export interface MqttTopics {
  down(address: string): string;
  up(address: string): string;
  status(address: string): string;
  /** Subscriptions of the gateway. */
  gatewayFilters: string[];
}

export function mqttTopics(prefix: string): MqttTopics {
  return {
    down: (address) => `${prefix}/${address}/down`,
    up: (address) => `${prefix}/${address}/up`,
    status: (address) => `${prefix}/${address}/status`,
    gatewayFilters: [`${prefix}/+/up`, `${prefix}/+/status`],
  };
}

export type ParsedTopic = { address: string; kind: "up" | "down" | "status" };

/** Split a topic of this layout; undefined for anything else (foreign or hostile topics). */
export function parseTopic(prefix: string, topic: string): ParsedTopic | undefined {
  if (!topic.startsWith(`${prefix}/`)) return undefined;
  const rest = topic.slice(prefix.length + 1).split("/");
  if (rest.length !== 2) return undefined;
  const [address, kind] = rest as [string, string];
  if (!/^\d{1,14}$/.test(address)) return undefined;
  if (kind !== "up" && kind !== "down" && kind !== "status") return undefined;
  return { address, kind };
}
