import { DEFAULT_SETTINGS, type MeterInfo, mqttTopics, parseTemplate } from "@meterline/gateway";
import { type SimClock, scaledClock } from "./clock.ts";
import { type ConcentratorOptions, SimulatedConcentrator } from "./concentrator.ts";
import type { MeterConditions } from "./conditions.ts";
import { SimulatedDialInMeter } from "./dial-in-meter.ts";
import { SimulatedDtu } from "./dtu.ts";
import { ElectricMeter, type MeterAnomaly } from "./electric-meter.ts";
import { checkRates, type Fault, FaultPlan, type FaultRates } from "./faults.ts";
import { type FleetStats, fleetStats } from "./fleet-stats.ts";
import { startingSteps } from "./history.ts";
import { type BusMeter, MeterBus, type ModbusBusMeter, type SimMeter } from "./meter-bus.ts";
import { ModbusMeter } from "./modbus-meter.ts";
import { type MqttConnect, SimulatedMqttMeter } from "./mqtt-meter.ts";
import {
  CONCENTRATOR_AREA,
  type FleetPlan,
  fleetDirectory,
  type PlannedMeter,
  type PlanOptions,
  planFleet,
  plannedSecret,
} from "./plan.ts";
import { createRandom } from "./random.ts";
import { checkSlots, DEFAULT_SLOTS, type TariffSlot } from "./tariff.ts";
import { WaterMeter } from "./water-meter.ts";

export interface FleetOptions extends Partial<PlanOptions> {
  /** The gateway's TCP address; DTUs dial it. */
  gateway?: { host: string; port: number };
  /**
   * Several gateway processes: DTU i dials the (i mod n)-th, so each serves a fixed half (third…)
   * of one plan's DTUs, as a DNS or load-balancer split would. Takes the place of `gateway`.
   */
  gateways?: readonly { host: string; port: number }[];
  /** Broker for the MQTT meters (required when mqttMeters > 0). */
  mqttUrl?: string;
  mqttTopicPrefix?: string;
  /** Replaces MQTT.js (tests with an in-memory broker). */
  mqttConnect?: MqttConnect;
  replyDelayMs?: number;
  /** Delay of a "lateReply" fault (past the gateway's request timeout). */
  lateReplyMs?: number;
  faults?: FaultRates;
  /** Concentrators' carrier timing and losses, and their event scan (plan option `concentrators`). */
  carrier?: ConcentratorOptions;
  /**
   * Injected anomalies by meter address (anomalies.ts): under-registering, tamper and relay-bypass
   * on electricity meters, leak on water meters. The fleet has no nodes: node kinds and mis-mapping
   * are for the site model.
   */
  anomalies?: Readonly<Record<string, MeterAnomaly>>;
  /** Meter-side conditions by meter address, set from the start (see conditions.ts). */
  conditions?: Readonly<Record<string, MeterConditions>>;
  /**
   * Meters whose supply was off when the site last ran, by address (a Modbus meter by its id,
   * modbusMeterId): an electricity meter starts with its relay tripped, a water meter with its valve
   * shut. A real meter keeps both across a restart of the system that reads it; a fleet started
   * again without this would restore supply that no command restored.
   */
  supplyOff?: readonly string[];
  registration?: string;
  /** The DTUs' registration secrets by DTU id; the plan's (derived from the seed) otherwise. */
  dtuSecrets?: Readonly<Record<string, string>>;
  heartbeat?: string;
  heartbeatIntervalMs?: number;
  reconnectDelayMs?: number;
  /** DTUs dialling at the same time while the fleet starts. */
  connectConcurrency?: number;
  clock?: SimClock;
  timeScale?: number;
  /** Tenant UTC offset of the meters' clocks (Asia/Shanghai: +480). */
  utcOffsetMinutes?: number;
  slots?: readonly TariffSlot[];
  valveTravelMs?: number;
  buttonDelayMs?: number;
  /** True time since which the fleet has been running (see ElectricConfig.runningSince). */
  runningSince?: number;
}

export interface FleetHandle {
  readonly plan: FleetPlan;
  directory(): MeterInfo[];
  meter(address: string): SimMeter | undefined;
  /** A Modbus meter by its meter id (its slave address repeats across buses). */
  modbusMeter(id: string): ModbusMeter | undefined;
  meters(): SimMeter[];
  dtu(id: string): SimulatedDtu | undefined;
  /** Every DTU and concentrator stops answering but stays connected (SimulatedDtu.quiesce); MQTT meters go on. */
  quiesce(): void;
  /** The next `times` requests to this meter get `fault`. */
  injectFault(address: string, fault: Fault, times?: number): void;
  /** Sets or clears meter-side conditions of one meter (false or 0 clears). */
  setConditions(address: string, conditions: MeterConditions): void;
  stats(): FleetStats;
  close(): Promise<void>;
}

function buildMeter(planned: PlannedMeter, options: FleetOptions, offsetMs: number, seed: string): SimMeter {
  const localOffsetMs = offsetMs + planned.clockDriftMs;
  const profile = { mean: planned.meanRate, seed: `${seed}:${planned.address}` };
  const anomaly = options.anomalies?.[planned.address];
  if (planned.kind === "water")
    return new WaterMeter({
      address: planned.address,
      meterType: 0x10,
      diOrder: planned.diOrder,
      profile,
      localOffsetMs,
      initialSteps: startingSteps(planned)[0],
      valveTravelMs: options.valveTravelMs ?? 2_000,
      runningSince: options.runningSince,
      ...(anomaly?.kind === "leak" ? { anomaly } : {}),
    });
  return new ElectricMeter({
    address: planned.address,
    version: planned.protocol === "dlt645-1997" ? "1997" : "2007",
    protocol: planned.protocol === "dlt698" ? "dlt698" : "dlt645",
    localPrepaid: planned.localPrepaid,
    profile,
    slots: options.slots ?? DEFAULT_SLOTS,
    localOffsetMs,
    initialSteps: startingSteps(planned),
    balanceFen: planned.balanceFen,
    buttonDelayMs: options.buttonDelayMs,
    runningSince: options.runningSince,
    ...(anomaly && anomaly.kind !== "leak" ? { anomaly } : {}),
  });
}

/**
 * A meter as its supply was left: a relay tripped by command (a self-tripped one is tripped the same
 * way, and either takes a close command), a valve shut.
 */
function startSupplyOff(meter: SimMeter): void {
  if (meter.kind === "water") meter.valve = "closed";
  else {
    meter.relayOpen = true;
    meter.relayCommandOpen = true;
  }
}

/** Start a simulated fleet: meters on DTUs dialling the gateway over TCP, and MQTT meters if asked. */
export async function startFleet(options: FleetOptions = {}): Promise<FleetHandle> {
  const plan = planFleet(options);
  checkRates(options.faults ?? {});
  checkSlots(options.slots ?? DEFAULT_SLOTS);
  const clock = options.clock ?? scaledClock(options.timeScale ?? 1);
  const offsetMs = (options.utcOffsetMinutes ?? 480) * 60_000;
  const timing = { replyDelayMs: options.replyDelayMs ?? 50, lateReplyMs: options.lateReplyMs ?? 10_000 };
  const seed = options.seed ?? plan.options.seed;
  const supplyOff = new Set(options.supplyOff);
  const meters = new Map<string, BusMeter>();
  const byCollector = new Map<string, BusMeter[]>();
  for (const planned of plan.meters) {
    const entry = {
      meter: buildMeter(planned, options, offsetMs, seed),
      faults: new FaultPlan(options.faults ?? {}, createRandom(`faults:${seed}:${planned.address}`)),
    };
    const conditions = options.conditions?.[planned.address];
    if (conditions) entry.meter.setConditions(conditions);
    if (supplyOff.has(planned.address)) startSupplyOff(entry.meter);
    meters.set(planned.address, entry);
    const list = byCollector.get(planned.collectorId) ?? [];
    list.push(entry);
    byCollector.set(planned.collectorId, list);
  }

  const modbusMeters = new Map<string, ModbusBusMeter>();
  const modbusByCollector = new Map<string, ModbusBusMeter[]>();
  for (const planned of plan.modbus) {
    const entry = {
      meter: new ModbusMeter({ ...planned, modelName: planned.model }),
      faults: new FaultPlan(options.faults ?? {}, createRandom(`faults:${seed}:${planned.id}`)),
    };
    if (supplyOff.has(planned.id)) entry.meter.relayOn = false;
    modbusMeters.set(planned.id, entry);
    modbusByCollector.set(planned.collectorId, [
      ...(modbusByCollector.get(planned.collectorId) ?? []),
      entry,
    ]);
  }

  const dtus = new Map<string, SimulatedDtu>();
  const gateways = options.gateways?.length ? options.gateways : options.gateway ? [options.gateway] : [];
  if (gateways.length > 0) {
    const common = {
      registration: parseTemplate(options.registration ?? DEFAULT_SETTINGS.registration),
      heartbeat: parseTemplate(options.heartbeat ?? DEFAULT_SETTINGS.heartbeat),
      heartbeatIntervalMs: options.heartbeatIntervalMs ?? DEFAULT_SETTINGS.heartbeatIntervalMs,
      reconnectDelayMs: options.reconnectDelayMs ?? 1_000,
    };
    const settingsOf = (i: number) => ({ ...common, ...gateways[i % gateways.length]! });
    plan.dtuIds.forEach((id, i) => {
      const bus = new MeterBus(byCollector.get(id) ?? [], timing, modbusByCollector.get(id) ?? []);
      const secret = options.dtuSecrets?.[id] ?? plannedSecret(plan, id);
      const random = createRandom(`dtu:${seed}:${id}`);
      const address = { area: CONCENTRATOR_AREA, terminal: i + 1 };
      dtus.set(
        id,
        plan.options.concentrators
          ? new SimulatedConcentrator(id, address, bus, settingsOf(i), clock, random, secret, options.carrier)
          : new SimulatedDtu(id, bus, settingsOf(i), clock, random, secret),
      );
    });
    plan.dialInIds.forEach((id, i) => {
      const bus = new MeterBus(byCollector.get(id) ?? [], timing);
      const settings = settingsOf(plan.dtuIds.length + i);
      dtus.set(id, new SimulatedDialInMeter(id, bus, settings, clock, createRandom(`dial-in:${seed}:${id}`)));
    });
    // Dial in waves, as a real fleet does after a gateway restart, not all at the same instant.
    const queue = [...dtus.values()];
    const workers = Array.from(
      { length: Math.min(queue.length, options.connectConcurrency ?? 100) },
      async () => {
        for (let dtu = queue.shift(); dtu; dtu = queue.shift()) await dtu.connect();
      },
    );
    await Promise.all(workers);
  }

  const mqttMeters: SimulatedMqttMeter[] = [];
  const mqttPlanned = plan.meters.filter((meter) => meter.transport === "mqtt");
  if (mqttPlanned.length > 0) {
    if (!options.mqttUrl) throw new Error("mqttMeters > 0 needs mqttUrl");
    const topics = mqttTopics(options.mqttTopicPrefix ?? DEFAULT_SETTINGS.mqttTopicPrefix);
    for (const planned of mqttPlanned) {
      const bus = new MeterBus([meters.get(planned.address)!], timing);
      const meter = new SimulatedMqttMeter(
        planned.address,
        bus,
        options.mqttUrl,
        topics,
        clock,
        options.reconnectDelayMs ?? 1_000,
        options.mqttConnect,
      );
      await meter.connect();
      mqttMeters.push(meter);
    }
  }

  return {
    plan,
    directory: () => fleetDirectory(plan),
    meter: (address) => meters.get(address)?.meter,
    modbusMeter: (id) => modbusMeters.get(id)?.meter,
    meters: () => [...meters.values()].map((entry) => entry.meter),
    dtu: (id) => dtus.get(id),
    quiesce: () => {
      for (const dtu of dtus.values()) dtu.quiesce();
    },
    injectFault: (address, fault, times = 1) => {
      // Modbus meters are named by their meter id.
      const entry = meters.get(address) ?? modbusMeters.get(address);
      if (!entry) throw new Error(`no simulated meter ${address}`);
      entry.faults.inject(fault, times);
    },
    setConditions: (address, conditions) => {
      const entry = meters.get(address);
      if (!entry) throw new Error(`no simulated meter ${address}`);
      entry.meter.setConditions(conditions);
    },
    stats: () => fleetStats([...meters.values()], [...dtus.values()], mqttMeters),
    close: async () => {
      for (const dtu of dtus.values()) dtu.stop();
      await Promise.all(mqttMeters.map((meter) => meter.stop()));
    },
  };
}
