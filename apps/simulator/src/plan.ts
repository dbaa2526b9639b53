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
  /** This many meters (the last ones) are 4G meters on MQTT instead of behind DTUs. */
  mqttMeters: number;
  /** Share of meters whose clock is off by up to ±30 minutes. */
  clockDriftRatio: number;
  /** Share of meters whose registers start just below 999999.99. */
  rolloverRatio: number;
  pollIntervalMs: number;
  seed: string;
}

export const DEFAULT_PLAN: PlanOptions = {
  meters: 100,
  dtus: 10,
  waterRatio: 0.3,
  prepaidRatio: 0.5,
  dlt1997Ratio: 0,
  mqttMeters: 0,
  clockDriftRatio: 0,
  rolloverRatio: 0,
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

export interface FleetPlan {
  options: PlanOptions;
  meters: PlannedMeter[];
  dtuIds: string[];
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
  const dtuIds = Array.from({ length: dtus }, (_, i) => `DTU${String(i + 1).padStart(5, "0")}`);
  const onDtus = count - mqttMeters;
  let electric = 0;
  let water = 0;
  const meters = Array.from({ length: count }, (_, index): PlannedMeter => {
    const kind = chosen(index, options.waterRatio) ? "water" : "electric";
    const serial = kind === "water" ? water++ : electric++;
    const address = kind === "water" ? String(78_330_000_000_000 + serial) : String(201_000_000_000 + serial);
    const transport = index >= onDtus ? "mqtt" : "tcp";
    const localPrepaid = kind === "electric" && chosen(serial, options.prepaidRatio);
    const dlt1997 = kind === "electric" && !localPrepaid && chosen(serial, options.dlt1997Ratio);
    return {
      id: `meter-${address}`,
      index,
      kind,
      address,
      protocol: kind === "water" ? "cjt188" : dlt1997 ? "dlt645-1997" : "dlt645-2007",
      transport,
      collectorId:
        transport === "mqtt" ? `mqtt:${address}` : dtuIds[Math.floor((index * dtus) / Math.max(1, onDtus))]!,
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
  return { options, meters, dtuIds };
}

/** The gateway's meter directory for a plan. */
export function fleetDirectory(plan: FleetPlan): MeterInfo[] {
  return plan.meters.map((meter) => ({
    id: meter.id,
    address: meter.address,
    protocol: meter.protocol,
    transport: meter.transport,
    collectorId: meter.collectorId,
    channel: 1,
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
  return createHmac("sha256", `meterline simulated fleet ${plan.options.seed}`)
    .update(dtuId)
    .digest("base64url")
    .slice(0, 24);
}

/** The gateway's collector entries for a plan: each DTU with its planned secret. */
export function fleetCollectors(plan: FleetPlan): DirectoryCollector[] {
  return plan.dtuIds.map((id) => ({ id, secret: plannedSecret(plan, id) }));
}
