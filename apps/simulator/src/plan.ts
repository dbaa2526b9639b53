import { createHmac } from "node:crypto";
import type { DirectoryCollector, MeterInfo } from "@meterline/gateway";
import { createRandom } from "./random.ts";

/**
 * The shape of a simulated fleet, decided from the seed alone: which meters exist, their kind and
 * model, which DTU they hang on, and which carry a drifting clock or a register about to roll over.
 * The gateway's meter directory is derived from the same plan (fleetDirectory).
 */
export interface PlanOptions {
  meters: number;
  dtus: number;
  /** Share of water meters (CJ/T 188); the rest are DL/T 645 electricity meters. */
  waterRatio: number;
  /** Share of electricity meters that are money-type local prepaid. */
  prepaidRatio: number;
  /** Share of electricity meters speaking DL/T 645-1997. */
  dlt1997Ratio: number;
  /** Share of electricity meters speaking DL/T 698.45 (prepaid ones included), chosen before 1997 ones. */
  dlt698Ratio: number;
  /** DL/T 698.45 meters not on MQTT dial the gateway themselves (built-in 4G) instead of hanging on DTUs. */
  dlt698DialIn: boolean;
  /**
   * The collectors are Q/GDW 1376.1 concentrators (area 3401, terminal addresses 1, 2, …) with
   * their meters on the carrier port (31) instead of transparent DTUs.
   */
  concentrators: boolean;
  /** Added to the meters' serials in their addresses, so a second fleet's meters never share one with the first's. */
  serialBase: number;
  /** This many meters (the last ones) are 4G meters on MQTT instead of behind DTUs. */
  mqttMeters: number;
  /** Share of meters whose clock is off by up to ±30 minutes. */
  clockDriftRatio: number;
  /** Share of meters whose registers start just below 999999.99. */
  rolloverRatio: number;
  /**
   * Modbus-RTU DIN-rail meters added on the DTUs (beside `meters`), slaves 1, 2, … on each bus,
   * their models taken in turn from `modbusModels` (catalogue names).
   */
  modbusMeters: number;
  modbusModels: readonly string[];
  pollIntervalMs: number;
  seed: string;
}

export const DEFAULT_PLAN: PlanOptions = {
  meters: 100,
  dtus: 10,
  waterRatio: 0.3,
  prepaidRatio: 0.5,
  dlt1997Ratio: 0,
  dlt698Ratio: 0,
  dlt698DialIn: false,
  concentrators: false,
  serialBase: 0,
  mqttMeters: 0,
  clockDriftRatio: 0,
  rolloverRatio: 0,
  modbusMeters: 0,
  modbusModels: ["ddsy1352", "sdm120", "dtsu666"],
  pollIntervalMs: 60_000,
  seed: "meterline",
};

export interface PlannedMeter {
  id: string;
  index: number;
  kind: "electric" | "water";
  address: string;
  protocol: MeterInfo["protocol"];
  transport: "tcp" | "mqtt";
  collectorId: string;
  localPrepaid: boolean;
  diOrder: "big-endian" | "little-endian";
  clockDriftMs: number;
  rollover: boolean;
  /** Mean W (electricity) or L/h (water). */
  meanRate: number;
  balanceFen: number;
}

/** A Modbus meter's id in the fleet, by its DTU and slave (what injectFault, modbusMeter and supplyOff take). */
export const modbusMeterId = (collectorId: string, slave: number): string =>
  `meter-mb-${collectorId}-${slave}`;

/** A planned Modbus meter: its slave address is unique on its DTU's bus only. */
export interface PlannedModbusMeter {
  id: string;
  slave: number;
  model: string;
  collectorId: string;
  meanRate: number;
  startKwh: number;
}

export interface FleetPlan {
  options: PlanOptions;
  meters: PlannedMeter[];
  modbus: PlannedModbusMeter[];
  dtuIds: string[];
  /** Meters that dial in themselves: each is its own collector, named by its address. */
  dialInIds: string[];
}

/** Spread `ratio` of `count` items evenly: item i is chosen when the running share steps up. */
const chosen = (i: number, ratio: number) => Math.floor((i + 1) * ratio) > Math.floor(i * ratio);

export function planFleet(partial: Partial<PlanOptions> = {}): FleetPlan {
  const options = { ...DEFAULT_PLAN, ...partial };
  const { meters: count, dtus, mqttMeters } = options;
  if (!Number.isInteger(count) || count < 0 || !Number.isInteger(dtus) || dtus < 1)
    throw new Error("meters must be ≥ 0 and dtus ≥ 1");
  if (mqttMeters < 0 || mqttMeters > count) throw new Error("mqttMeters must be within 0..meters");
  const random = createRandom(`plan:${options.seed}`);
  const dtuIds = Array.from({ length: dtus }, (_, i) =>
    options.concentrators ? concentratorCode(i + 1) : `DTU${String(i + 1).padStart(5, "0")}`,
  );
  const onDtus = count - mqttMeters;
  let electric = 0;
  let water = 0;
  const meters = Array.from({ length: count }, (_, index): PlannedMeter => {
    const kind = chosen(index, options.waterRatio) ? "water" : "electric";
    const serial = kind === "water" ? water++ : electric++;
    const number = options.serialBase + serial;
    const address = kind === "water" ? String(78_330_000_000_000 + number) : String(201_000_000_000 + number);
    const transport = index >= onDtus ? "mqtt" : "tcp";
    const localPrepaid = kind === "electric" && chosen(serial, options.prepaidRatio);
    // Chosen in pairs of meters: the prepaid share picks every other one, and 698.45 takes both kinds.
    const dlt698 = kind === "electric" && chosen(Math.floor(serial / 2), options.dlt698Ratio);
    const dlt1997 = kind === "electric" && !dlt698 && !localPrepaid && chosen(serial, options.dlt1997Ratio);
    return {
      id: `meter-${address}`,
      index,
      kind,
      address,
      protocol: kind === "water" ? "cjt188" : dlt698 ? "dlt698" : dlt1997 ? "dlt645-1997" : "dlt645-2007",
      transport,
      collectorId:
        transport === "mqtt"
          ? `mqtt:${address}`
          : dlt698 && options.dlt698DialIn
            ? address
            : dtuIds[Math.floor((index * dtus) / Math.max(1, onDtus))]!,
      localPrepaid,
      // Every third water model sends its identifiers little-endian (§2.4).
      diOrder: kind === "water" && serial % 3 === 2 ? "little-endian" : "big-endian",
      clockDriftMs: random.chance(options.clockDriftRatio)
        ? Math.round((random.next() * 2 - 1) * 30 * 60_000)
        : 0,
      rollover: random.chance(options.rolloverRatio),
      meanRate: kind === "water" ? 8 + random.int(25) : 200 + random.int(1200),
      balanceFen: localPrepaid ? 20_000 + random.int(50_000) : 0,
    };
  });
  const dialInIds = meters
    .filter((meter) => meter.collectorId === meter.address)
    .map((meter) => meter.address);
  if (
    !Number.isInteger(options.modbusMeters) ||
    options.modbusMeters < 0 ||
    options.modbusMeters > dtus * 247
  )
    throw new Error("modbusMeters must be within 0..247 per DTU");
  if (options.modbusMeters > 0 && options.modbusModels.length === 0)
    throw new Error("modbusModels must name at least one catalogue model");
  const modbus = Array.from({ length: options.modbusMeters }, (_, i): PlannedModbusMeter => {
    const collectorId = dtuIds[i % dtus]!;
    const slave = Math.floor(i / dtus) + 1;
    return {
      id: modbusMeterId(collectorId, slave),
      slave,
      model: options.modbusModels[i % options.modbusModels.length]!,
      collectorId,
      meanRate: 200 + random.int(1200),
      startKwh: 100 + random.int(5000),
    };
  });
  return { options, meters, modbus, dtuIds, dialInIds };
}

/** The area code of a planned fleet's concentrators. */
export const CONCENTRATOR_AREA = "3401";
/** The carrier port of a concentrator, where its meters hang. */
export const CARRIER_PORT = 31;

/** A concentrator's collector code: its area code and terminal address in hex (as the gateway names it). */
export function concentratorCode(terminal: number): string {
  return `${CONCENTRATOR_AREA}${terminal.toString(16).toUpperCase().padStart(4, "0")}`;
}

/** The gateway's meter directory for a plan. */
export function fleetDirectory(plan: FleetPlan): MeterInfo[] {
  const modbus = plan.modbus.map(
    (meter): MeterInfo => ({
      id: meter.id,
      address: String(meter.slave),
      protocol: "modbus",
      transport: "tcp",
      collectorId: meter.collectorId,
      channel: 1,
      model: { modbusModel: meter.model },
      pollIntervalMs: plan.options.pollIntervalMs,
    }),
  );
  return [...plannedDirectory(plan), ...modbus];
}

function plannedDirectory(plan: FleetPlan): MeterInfo[] {
  return plan.meters.map((meter) => ({
    id: meter.id,
    address: meter.address,
    protocol: meter.protocol,
    transport: meter.transport,
    collectorId: meter.collectorId,
    channel: plan.options.concentrators && meter.transport === "tcp" ? CARRIER_PORT : 1,
    model:
      meter.kind === "water"
        ? { diOrder: meter.diOrder, meterType: 0x10 }
        : { localPrepaid: meter.localPrepaid, credentials: { passwordLevel: 2, password: "000000" } },
    pollIntervalMs: plan.options.pollIntervalMs,
  }));
}

/**
 * The registration secret of a planned DTU, derived from the seed so a directory file and a fleet
 * started apart agree. Anyone knowing the seed knows it: the embedded demo gives its DTUs random
 * secrets instead (FleetOptions.dtuSecrets).
 */
export function plannedSecret(plan: FleetPlan, dtuId: string): string {
  const digest = createHmac("sha256", `meterline simulated fleet ${plan.options.seed}`).update(dtuId);
  // A concentrator's secret is its 16-byte 1376.1 password, written as 32 hex digits.
  if (plan.options.concentrators && plan.dtuIds.includes(dtuId)) return digest.digest("hex").slice(0, 32);
  return digest.digest("base64url").slice(0, 24);
}

/** The gateway's collector entries for a plan: each DTU with its planned secret. */
export function fleetCollectors(plan: FleetPlan): DirectoryCollector[] {
  const dtus = plan.dtuIds.map((id) => ({ id, secret: plannedSecret(plan, id) }));
  // A dialling-in 698.45 meter proves itself by its source network: the simulated fleet's is loopback.
  const meters = plan.dialInIds.map((id) => ({
    id,
    secret: plannedSecret(plan, id),
    allowedNetworks: ["127.0.0.0/8", "::1"],
  }));
  return [...dtus, ...meters];
}
