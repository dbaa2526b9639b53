import { type Suspicion, saturating } from "./evidence.ts";

/** One poll of an electric meter: energy register in 0.01 kWh, and what it reported beside it. */
export interface ElectricSample {
  at: number;
  energy: bigint;
  /** Relay state the meter reported at this poll (read back, not the command sent). */
  relay?: "closed" | "tripped";
  /** Total active power in kW, when polled. */
  powerKw?: number;
  /** Phase A current in A, when polled. */
  currentA?: number;
}

export interface RelayBypassOptions {
  /** Energy counted while tripped below this (kWh) is the register's rounding, not a bypass. */
  minKwh?: number;
}

/**
 * Energy counted between two polls that both read the relay as tripped. A tripped relay cuts the
 * load off the meter's own output, so any energy it still counts went through bridged contacts.
 */
export function relayBypass(
  meterId: string,
  samples: readonly ElectricSample[],
  options: RelayBypassOptions = {},
): Suspicion | undefined {
  const minUnits = BigInt(Math.round((options.minKwh ?? 0.05) * 100));
  let counted = 0n;
  let trippedMs = 0;
  let from: number | undefined;
  let to = 0;
  for (let index = 1; index < samples.length; index++) {
    const before = samples[index - 1]!;
    const after = samples[index]!;
    if (before.relay !== "tripped" || after.relay !== "tripped") continue;
    trippedMs += after.at - before.at;
    const rise = after.energy - before.energy;
    if (rise <= 0n) continue;
    counted += rise;
    from ??= before.at;
    to = after.at;
  }
  if (counted < minUnits || from === undefined) return undefined;
  const kwh = Number(counted) / 100;
  return {
    kind: "relay-bypass",
    subject: meterId,
    score: saturating(kwh, 0.5),
    from,
    to,
    figures: [
      { name: "energy while tripped", value: kwh, unit: "kWh" },
      { name: "hours tripped", value: Math.round(trippedMs / 36_000) / 100, unit: "h" },
    ],
  };
}

export interface NoEnergyOptions {
  /** Load below this (kW) is a standby the register may well not show within the window. */
  minPowerKw?: number;
  /** How long the register must stand still under load. */
  minHours?: number;
  /** Voltage assumed to turn a current into power where only current is polled. */
  volts?: number;
}

/**
 * The register standing still over hours while every poll shows load: the energy the load drew
 * (power × time) is missing from the register, as with a tampered voltage link or a shunted coil.
 */
export function noEnergyUnderLoad(
  meterId: string,
  samples: readonly ElectricSample[],
  options: NoEnergyOptions = {},
): Suspicion | undefined {
  const { minPowerKw = 0.2, minHours = 3, volts = 220 } = options;
  const loadOf = (sample: ElectricSample) =>
    sample.powerKw ?? (sample.currentA === undefined ? undefined : (sample.currentA * volts) / 1000);
  let best: Suspicion | undefined;
  let start = 0;
  while (start < samples.length) {
    // The longest run from `start` where the register stands still and every poll shows load.
    let end = start;
    const startLoad = loadOf(samples[start]!);
    if (startLoad === undefined || startLoad < minPowerKw) {
      start++;
      continue;
    }
    let drawn = 0;
    while (end + 1 < samples.length) {
      const next = samples[end + 1]!;
      const load = loadOf(next);
      if (next.energy !== samples[start]!.energy || load === undefined || load < minPowerKw) break;
      drawn += ((loadOf(samples[end]!)! + load) / 2) * ((next.at - samples[end]!.at) / 3_600_000);
      end++;
    }
    const hours = (samples[end]!.at - samples[start]!.at) / 3_600_000;
    if (hours >= minHours) {
      const found: Suspicion = {
        kind: "no-energy-under-load",
        subject: meterId,
        score: saturating(drawn, 2),
        from: samples[start]!.at,
        to: samples[end]!.at,
        figures: [
          { name: "energy drawn, not counted", value: Math.round(drawn * 100) / 100, unit: "kWh" },
          { name: "hours", value: Math.round(hours * 100) / 100, unit: "h" },
        ],
      };
      if (!best || found.score > best.score) best = found;
    }
    start = end + 1;
  }
  return best;
}
