import {
  type FleetPlan,
  hashUnit,
  type MeterAnomaly,
  type PlannedMeter,
  REGISTER_MODULUS,
  registerHistory,
} from "@meterline/simulator";
import { DEMO_UTC_OFFSET_MINUTES, type MeterHistory, type ReadMeter } from "./demo-history.ts";

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const OFFSET_MS = DEMO_UTC_OFFSET_MINUTES * 60_000;

/**
 * The demo's cases with a known truth, so that 线损分析 and 窃电与漏水 have something real to show on
 * the first start: in 2号楼 a room meter shunted ten days ago (it counts 30 % of what the room draws,
 * so the building's loss rises by what it misses) and a remote-control meter whose relay was bridged
 * (tripped for two days, its register kept counting); in 3号楼 a water meter with a leak after it
 * for the last five nights. The simulated fleet carries the same anomalies, so the running meters
 * go on as the history left them.
 */
export interface DemoCases {
  bypass: { address: string; anomaly: MeterAnomaly };
  relay: { address: string; anomaly: MeterAnomaly; trippedFrom: number; trippedTo: number };
  leak: { address: string; anomaly: MeterAnomaly };
}

/** Local midnight (demo zone) of the day `startsAt` falls in. */
const midnightOf = (at: number) => Math.floor((at + OFFSET_MS) / DAY_MS) * DAY_MS - OFFSET_MS;

/**
 * Picks the cases from the plan alone (the fleet needs them before the database is read): the
 * heaviest DL/T 645-2007 user of 2号楼 for the shunt, the heaviest remote-control one after it for
 * the bridged relay, the lightest water user of 3号楼 for the leak; never a meter that already
 * carries a meter-side condition.
 */
export function demoCases(
  plan: FleetPlan,
  buildingOf: (meter: PlannedMeter) => number,
  startsAt: number,
  avoid: ReadonlySet<string>,
): DemoCases {
  const today = midnightOf(startsAt);
  const free = (m: PlannedMeter) => !avoid.has(m.address) && !m.rollover;
  const heaviestFirst = (a: PlannedMeter, b: PlannedMeter) => b.meanRate - a.meanRate || a.index - b.index;
  const electric = plan.meters
    .filter((m) => m.kind === "electric" && m.protocol === "dlt645-2007" && buildingOf(m) === 1 && free(m))
    .sort(heaviestFirst);
  const shunted = electric[0];
  const bridged = electric.find((m) => m !== shunted && !m.localPrepaid);
  const water = plan.meters
    .filter((m) => m.kind === "water" && buildingOf(m) === 2 && free(m))
    .sort((a, b) => a.meanRate - b.meanRate || a.index - b.index)[0];
  if (!shunted || !bridged || !water) throw new Error("demo: the plan has no meters for the injected cases");
  const trippedFrom = today - 6 * DAY_MS + 9 * HOUR_MS;
  return {
    bypass: {
      address: shunted.address,
      anomaly: { kind: "under-registering", start: today - 10 * DAY_MS + 14 * HOUR_MS, magnitude: 0.7 },
    },
    relay: {
      address: bridged.address,
      anomaly: { kind: "relay-bypass", start: trippedFrom - DAY_MS, magnitude: 0.8 },
      trippedFrom,
      trippedTo: trippedFrom + 2 * DAY_MS,
    },
    leak: {
      address: water.address,
      anomaly: { kind: "leak", start: today - 5 * DAY_MS + 23 * HOUR_MS, magnitude: 0.05 },
    },
  };
}

/** The fleet's anomalies by address (FleetOptions.anomalies). */
export const casesByAddress = (cases: DemoCases): Record<string, MeterAnomaly> =>
  Object.fromEntries([cases.bypass, cases.relay, cases.leak].map((c) => [c.address, c.anomaly]));

/** register − register, per band, across a rollover. */
const stepsBetween = (from: number, to: number) => (to - from + REGISTER_MODULUS) % REGISTER_MODULUS;

/**
 * What is left to use from each read to the start (the history counts back from the start's
 * registers), per band: `end` are the registers at the start.
 */
const remaining = (h: MeterHistory, end: readonly number[]) =>
  h.registers.map((r) => r.map((v, band) => stepsBetween(v, end[band]!)));
const fromRemaining = (left: number[][], end: readonly number[]) =>
  left.map((r) => r.map((v, band) => (end[band]! - v + REGISTER_MODULUS) % REGISTER_MODULUS));

/**
 * A leak after the meter: from its start the meter also counts `magnitude` m³ an hour. The history
 * still ends at the start's register, so every read before it lies lower by the leak still to come.
 */
export function withLeak(h: MeterHistory, anomaly: MeterAnomaly, startsAt: number, end: readonly number[]) {
  const perMs = (anomaly.magnitude * 100) / HOUR_MS;
  const left = remaining(h, end).map((r, i) => {
    const from = Math.max(h.times[i]!, anomaly.start);
    return [r[0]! + (from < startsAt ? Math.floor((startsAt - from) * perMs) : 0)];
  });
  h.registers = fromRemaining(left, end);
}

/**
 * A shunted meter: from its start it counts (1 − magnitude) of what passes it. `atStart` are the
 * true registers at the anomaly's start (a read instant of its own), `end` those at the fleet's start.
 */
export function withShunt(
  h: MeterHistory,
  anomaly: MeterAnomaly,
  atStart: readonly number[],
  end: readonly number[],
) {
  const share = 1 - anomaly.magnitude;
  const leftAtStart = atStart.map((v, band) => stepsBetween(v, end[band]!));
  const left = remaining(h, end).map((r, i) =>
    r.map((v, band) =>
      h.times[i]! >= anomaly.start
        ? Math.floor(share * v)
        : Math.floor(share * leftAtStart[band]!) + v - leftAtStart[band]!,
    ),
  );
  h.registers = fromRemaining(left, end);
}

/** Reads of a bridged relay: tripped between `from` and `to`, the register counting on regardless. */
export function withTrip(h: MeterHistory, from: number, to: number) {
  h.tripped = h.times.map((t) => t >= from && t < to);
}

/** A metering node of the demo as seeded: its master, its common-area meter and its room meters. */
export interface DemoNode {
  key: string;
  energyType: 1 | 2;
  /** Share of what enters lost on the way (cables, transformer, pipes), before the day's wobble. */
  lossShare: number;
  master: ReadMeter;
  common: (ReadMeter & { meanRate: number; index: number }) | null;
  roomMeterIds: string[];
}

/** A common-area meter as the simulator's history needs it: an ordinary electric meter of the plan's shape. */
const commonPlan = (meter: ReadMeter & { meanRate: number; index: number }): PlannedMeter => ({
  id: `meter-${meter.planned.address}`,
  index: meter.index,
  kind: "electric",
  address: meter.planned.address,
  protocol: "dlt645-2007",
  transport: "tcp",
  collectorId: "",
  localPrepaid: false,
  diOrder: "big-endian",
  clockDriftMs: 0,
  rollover: false,
  meanRate: meter.meanRate,
  balanceFen: 0,
});

/** The day's loss share of a node: its own share, moving ±10 % from day to day (the band's width). */
const lossOn = (node: DemoNode, at: number) =>
  node.lossShare * (0.9 + 0.2 * hashUnit(`demo-loss:${node.key}:${midnightOf(at)}`));

/**
 * The reads of each node's common-area meter and master over the history: the common meter on its
 * own load profile, the master counting what its rooms and common area truly drew plus the day's
 * loss. `histories` are the rooms' true histories (before a shunt hides part of it); every meter of
 * one energy shares its read instants.
 */
export function nodeHistories(
  nodes: readonly DemoNode[],
  histories: readonly MeterHistory[],
  options: { seed: string; startsAt: number },
): MeterHistory<ReadMeter>[] {
  const byId = new Map(histories.map((h) => [h.meter.id, h]));
  const out: MeterHistory<ReadMeter>[] = [];
  for (const node of nodes) {
    const rooms = node.roomMeterIds.map((id) => byId.get(id)).filter((h) => h !== undefined);
    const times = rooms[0]?.times;
    if (!times) continue;
    const feeding: MeterHistory<ReadMeter>[] = [...rooms];
    if (node.common) {
      const common = {
        meter: node.common,
        times,
        registers: registerHistory(commonPlan(node.common), times, {
          seed: options.seed,
          utcOffsetMinutes: DEMO_UTC_OFFSET_MINUTES,
          startsAt: options.startsAt,
        }),
      };
      feeding.push(common);
      out.push(common);
    }
    const bands = node.energyType === 1 ? 4 : 1;
    // A master of a few thousand kWh (or hundred m³) at the first read, as an installed meter shows.
    const total = Array.from({ length: bands }, (_, band) => 1_500_000 + band * 700_000);
    const registers = [total.map(Math.floor)];
    for (let i = 1; i < times.length; i++) {
      const lost = lossOn(node, times[i - 1]!);
      for (let band = 0; band < bands; band++) {
        let delivered = 0;
        for (const h of feeding)
          delivered += stepsBetween(h.registers[i - 1]![band]!, h.registers[i]![band]!);
        total[band]! += delivered / (1 - lost);
      }
      registers.push(total.map((v) => Math.floor(v) % REGISTER_MODULUS));
    }
    out.push({ meter: node.master, times, registers });
  }
  return out;
}
