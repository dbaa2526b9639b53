import type { Anomaly, AnomalyCandidates, AnomalyPlan } from "./anomalies.ts";
import { rateAt } from "./profile.ts";
import { createRandom, type Random } from "./random.ts";

/**
 * A fast, in-process model of a site over days, for measuring analytics against a known truth
 * (no TCP, no protocol: an hour-by-hour energy and water balance, then polls of the registers).
 * Buildings are metering nodes: a master meter each for electricity and water, room meters of
 * both, one common-area electricity meter, and a technical loss of a few per cent between the
 * master and the rooms. The anomalies of a plan act from their start; the model keeps what was
 * really drawn apart from what each meter counted, so the node's true technical loss is known.
 */

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
/** Local time is UTC+8 (the site's zone); days are local days. */
export const LOCAL_OFFSET_MS = 8 * HOUR_MS;

export interface SiteRead {
  at: number;
  /** Register in 0.01 kWh or 0.01 m³. */
  value: bigint;
  relay?: "closed" | "tripped";
  /** Active power the meter measured at the poll (its own view: an under-registering meter shows less). */
  powerKw?: number;
}

export type SiteMeterRole = "room" | "common" | "master" | "water-room" | "water-master";

export interface SiteMeter {
  id: string;
  role: SiteMeterRole;
  /** The node that physically feeds it. */
  feedingNode: string;
  /** The node it is registered under (differs for a mis-mapped meter). */
  registeredNode: string;
  reads: SiteRead[];
  /** Events the meter itself reported (a cover opened). */
  events: { at: number; kind: "cover-open" }[];
  /** A room whose tenant moved out: when the account was closed. */
  accountClosedAt?: number;
}

export interface SiteNode {
  id: string;
  electricMaster: string;
  waterMaster: string;
  /** The model's true technical loss per local day, per cent of what entered the node. */
  trueLossPercent: number[];
}

export interface Site {
  /** Epoch ms of the first local day's start. */
  firstDay: number;
  days: number;
  nodes: SiteNode[];
  meters: SiteMeter[];
  truth: Anomaly[];
}

export interface SiteOptions {
  seed: string;
  /** Room electricity meters (each room also has a water meter). */
  meters: number;
  days: number;
  roomsPerNode?: number;
  /** Epoch ms of the first local day's start (default 2026-01-05 00:00 local, a Monday). */
  firstDay?: number;
}

export interface SiteLayout {
  options: Required<SiteOptions>;
  nodes: string[];
  rooms: { id: string; water: string; node: string }[];
  candidates: AnomalyCandidates;
}

export function siteLayout(options: SiteOptions): SiteLayout {
  const full: Required<SiteOptions> = {
    roomsPerNode: 20,
    firstDay: Date.UTC(2026, 0, 5) - LOCAL_OFFSET_MS,
    ...options,
  };
  const nodeCount = Math.max(1, Math.ceil(full.meters / full.roomsPerNode));
  const nodes = Array.from({ length: nodeCount }, (_, index) => `N${String(index + 1).padStart(3, "0")}`);
  const rooms = Array.from({ length: full.meters }, (_, index) => ({
    id: `E${String(index + 1).padStart(5, "0")}`,
    water: `W${String(index + 1).padStart(5, "0")}`,
    node: nodes[Math.floor(index / full.roomsPerNode)]!,
  }));
  return {
    options: full,
    nodes,
    rooms,
    candidates: {
      electric: rooms.map((room) => ({ id: room.id, node: room.node })),
      water: rooms.map((room) => room.water),
      nodes,
    },
  };
}

/** A standard normal draw (Box–Muller). */
function gaussian(random: Random): number {
  const u = Math.max(random.next(), 1e-12);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random.next());
}

interface HourlySeries {
  /** What the meter counted in each hour (kWh or m³). */
  counted: Float64Array;
  /** Power the meter measured in each hour (kW), electricity only. */
  power?: Float64Array;
  tripped?: Uint8Array;
}

/**
 * Polls of a meter: about hourly at its own minute, a minute or two of jitter, 1 % missed. The
 * register is the counted amount up to the poll (uniform within an hour), floored to 0.01.
 */
function poll(series: HourlySeries, firstDay: number, random: Random): SiteRead[] {
  const hours = series.counted.length;
  const offsetMs = random.int(10 * 60_000);
  const reads: SiteRead[] = [{ at: firstDay, value: 0n }];
  let cumulative = 0;
  for (let hour = 0; hour < hours; hour++) {
    const before = cumulative;
    cumulative += series.counted[hour]!;
    if (random.chance(0.01)) continue;
    const within = Math.min(HOUR_MS - 1, Math.max(0, offsetMs + Math.round(gaussian(random) * 60_000)));
    const at = firstDay + hour * HOUR_MS + within;
    const value = before + series.counted[hour]! * (within / HOUR_MS);
    const read: SiteRead = { at, value: BigInt(Math.floor(value * 100 + 1e-9)) };
    if (series.power) read.powerKw = Math.round(series.power[hour]! * 1000) / 1000;
    if (series.tripped) read.relay = series.tripped[hour] ? "tripped" : "closed";
    reads.push(read);
  }
  return reads;
}

const localHour = (firstDay: number, hour: number) => firstDay + LOCAL_OFFSET_MS + hour * HOUR_MS;

export function simulateSite(layout: SiteLayout, plan: AnomalyPlan): Site {
  const { seed, days, firstDay } = layout.options;
  const hours = days * 24;
  const random = createRandom(`site:${seed}`);
  const byTarget = new Map(plan.anomalies.map((anomaly) => [anomaly.target, anomaly]));
  const hourOf = (at: number) => Math.max(0, Math.ceil((at - firstDay) / HOUR_MS));
  const meters: SiteMeter[] = [];
  const series = new Map<string, HourlySeries>();
  // What each node really delivered to its rooms and common area, per hour (kWh and m³).
  const drawn = new Map(layout.nodes.map((node) => [node, new Float64Array(hours)]));
  const waterDrawn = new Map(layout.nodes.map((node) => [node, new Float64Array(hours)]));
  const registeredOf = (id: string, node: string) => {
    const anomaly = byTarget.get(id);
    return anomaly?.kind === "mis-mapped" && anomaly.registeredUnder ? anomaly.registeredUnder : node;
  };

  for (const room of layout.rooms) {
    const meanW = 80 + random.int(420);
    const dayFactor = Array.from({ length: days }, () => Math.max(0.3, 1 + 0.12 * gaussian(random)));
    // A few rooms fall vacant (down to a standby), a drop that is not theft: most as the tenant
    // moves out (the account is closed then, so the server knows), some while the tenant is away
    // for one to three weeks with the account open.
    let vacantFrom = hours;
    let vacantTo = hours;
    let accountClosedAt: number | undefined;
    if (random.chance(0.03)) {
      vacantFrom = random.int(hours);
      if (random.chance(2 / 3)) accountClosedAt = firstDay + vacantFrom * HOUR_MS;
      else vacantTo = Math.min(hours, vacantFrom + 24 * (7 + random.int(15)));
    }
    // Accounts in arrears get their relay tripped for a day or three.
    const tripped = new Uint8Array(hours);
    if (random.chance(0.05)) {
      const from = random.int(hours);
      tripped.fill(1, from, Math.min(hours, from + 24 * (1 + random.int(3))));
    }
    const anomaly = byTarget.get(room.id);
    const start = anomaly ? hourOf(anomaly.start) : hours;
    if (anomaly?.kind === "relay-bypass") {
      // A bridged relay is a thief's answer to being cut off: he is, within days of bridging it.
      const from = Math.min(hours - 1, start + random.int(72));
      tripped.fill(1, from, Math.min(hours, from + 24 * (1 + random.int(3))));
    }
    const counted = new Float64Array(hours);
    const power = new Float64Array(hours);
    const feed = drawn.get(room.node)!;
    for (let hour = 0; hour < hours; hour++) {
      const local = localHour(firstDay, hour);
      let kw =
        hour >= vacantFrom && hour < vacantTo
          ? 0.01
          : (rateAt({ mean: meanW, seed: room.id }, local) / 1000) * dayFactor[Math.floor(hour / 24)]!;
      let share = 1;
      if (tripped[hour]) kw = anomaly?.kind === "relay-bypass" && hour >= start ? anomaly.magnitude : 0;
      if ((anomaly?.kind === "under-registering" || anomaly?.kind === "tamper") && hour >= start)
        share = 1 - anomaly.magnitude;
      feed[hour]! += kw;
      counted[hour] = kw * share;
      power[hour] = kw * share;
    }
    series.set(room.id, { counted, power, tripped });
    meters.push({
      id: room.id,
      role: "room",
      feedingNode: room.node,
      registeredNode: registeredOf(room.id, room.node),
      reads: [],
      events: anomaly?.kind === "tamper" ? [{ at: anomaly.start, kind: "cover-open" }] : [],
      ...(accountClosedAt === undefined ? {} : { accountClosedAt }),
    });

    // Water: a room draws through the day, at night mostly nothing, now and then a glass or a flush.
    const water = new Float64Array(hours);
    const meanL = 8 + random.int(20);
    const leak = byTarget.get(room.water);
    const leakFrom = leak ? hourOf(leak.start) : hours;
    const waterFeed = waterDrawn.get(room.node)!;
    for (let hour = 0; hour < hours; hour++) {
      const local = localHour(firstDay, hour);
      const hourOfDay = Math.floor((local % DAY_MS) / HOUR_MS);
      let m3 =
        hourOfDay < 6
          ? random.chance(0.04)
            ? 0.005 + random.next() * 0.03
            : 0
          : random.chance(0.6)
            ? rateAt({ mean: meanL, seed: room.water }, local) / 1000
            : 0;
      if (hour >= leakFrom) m3 += leak!.magnitude;
      water[hour] = m3;
      waterFeed[hour]! += m3;
    }
    series.set(room.water, { counted: water });
    meters.push({
      id: room.water,
      role: "water-room",
      feedingNode: room.node,
      registeredNode: room.node,
      reads: [],
      events: [],
    });
  }

  const nodes: SiteNode[] = [];
  for (const node of layout.nodes) {
    const common = `C${node.slice(1)}`;
    const commonW = 800 + random.int(2000);
    const feed = drawn.get(node)!;
    const commonCounted = new Float64Array(hours);
    for (let hour = 0; hour < hours; hour++) {
      const kw = rateAt({ mean: commonW, seed: common }, localHour(firstDay, hour)) / 1000;
      commonCounted[hour] = kw;
      feed[hour]! += kw;
    }
    series.set(common, { counted: commonCounted, power: commonCounted });
    meters.push({
      id: common,
      role: "common",
      feedingNode: node,
      registeredNode: node,
      reads: [],
      events: [],
    });

    // Technical loss: a share of what enters, steady per node, moving a little from day to day.
    const baseShare = 0.02 + random.next() * 0.03;
    const lossShare = Array.from({ length: days }, () =>
      Math.min(0.09, Math.max(0.005, baseShare * (1 + 0.1 * gaussian(random)))),
    );
    const anomaly = byTarget.get(node);
    const start = anomaly ? hourOf(anomaly.start) : hours;
    const master = new Float64Array(hours);
    const masterPower = new Float64Array(hours);
    for (let hour = 0; hour < hours; hour++) {
      const input = feed[hour]! / (1 - lossShare[Math.floor(hour / 24)]!);
      const share = anomaly?.kind === "faulty-master" && hour >= start ? 1 - anomaly.magnitude : 1;
      master[hour] = input * share;
      masterPower[hour] = input * share;
    }
    const electricMaster = `M${node.slice(1)}`;
    series.set(electricMaster, { counted: master, power: masterPower });
    meters.push({
      id: electricMaster,
      role: "master",
      feedingNode: node,
      registeredNode: node,
      reads: [],
      events: [],
    });

    const waterMaster = `WM${node.slice(1)}`;
    const waterIn = Float64Array.from(waterDrawn.get(node)!, (m3, hour) =>
      anomaly?.kind === "node-leak" && hour >= start ? m3 + anomaly.magnitude : m3,
    );
    series.set(waterMaster, { counted: waterIn });
    meters.push({
      id: waterMaster,
      role: "water-master",
      feedingNode: node,
      registeredNode: node,
      reads: [],
      events: [],
    });
    nodes.push({
      id: node,
      electricMaster,
      waterMaster,
      trueLossPercent: lossShare.map((share) => share * 100),
    });
  }

  for (const meter of meters) meter.reads = poll(series.get(meter.id)!, firstDay, random);
  return { firstDay, days, nodes, meters, truth: plan.anomalies };
}
