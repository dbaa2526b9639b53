import type { SimulatedDtu } from "./dtu.ts";
import type { Fault } from "./faults.ts";
import type { BusMeter } from "./meter-bus.ts";
import type { SimulatedMqttMeter } from "./mqtt-meter.ts";

export interface FleetStats {
  dtusOnline: number;
  mqttOnline: number;
  requests: number;
  replies: number;
  collisions: number;
  relayOps: number;
  valveOps: number;
  recharges: number;
  faults: Partial<Record<Fault, number>>;
}

/** Totals over the fleet: what the meters themselves counted, not what the gateway believes. */
export function fleetStats(meters: BusMeter[], dtus: SimulatedDtu[], mqtt: SimulatedMqttMeter[]): FleetStats {
  const stats: FleetStats = {
    dtusOnline: dtus.filter((dtu) => dtu.online).length,
    mqttOnline: mqtt.filter((meter) => meter.online).length,
    requests: 0,
    replies: 0,
    collisions: 0,
    relayOps: 0,
    valveOps: 0,
    recharges: 0,
    faults: {},
  };
  for (const dtu of dtus) {
    stats.requests += dtu.stats.requests;
    stats.replies += dtu.stats.replies;
    stats.collisions += dtu.stats.collisions;
  }
  for (const meter of mqtt) {
    stats.requests += meter.stats.requests;
    stats.replies += meter.stats.replies;
  }
  for (const { meter, faults } of meters) {
    if (meter.kind === "electric") {
      stats.relayOps += meter.counters.relayOps;
      stats.recharges += meter.counters.recharges;
    } else stats.valveOps += meter.counters.valveOps;
    for (const [fault, count] of Object.entries(faults.counts))
      stats.faults[fault as Fault] = (stats.faults[fault as Fault] ?? 0) + count;
  }
  return stats;
}
