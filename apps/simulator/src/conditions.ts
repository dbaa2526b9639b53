/**
 * Conditions on the meter's side, as opposed to communication faults (faults.ts): the meter answers
 * every request, and what it answers shows the condition in the bytes a real meter would send —
 * status word 1 and 3 bits, the cover-open event count, the power register, its clock, status ST.
 * Each can be set and cleared while the fleet runs.
 */
export interface MeterConditions {
  /** The cover is open: the meter counted one more opening (03300D00) when it was opened. */
  coverOpen?: boolean;
  /** Active power flows back (status word 1 bit 4, negative power). */
  reverseEnergy?: boolean;
  /** The meter's clock runs this many minutes ahead (negative: behind) of its configured offset. */
  clockDriftMinutes?: number;
  /** Electricity: status word 1 bit 2 (clock battery); water: the ST battery bit. */
  batteryLow?: boolean;
  /** The relay is welded closed: status word 3 shows it commanded open (bit 6) but closed (bit 4). */
  relayFault?: boolean;
  /** Water: status ST reports the valve abnormal (D1D0 = 11). */
  valveFault?: boolean;
  /** The meter draws more than any household supply allows (the power register shows 60 kW). */
  overPower?: boolean;
}

/** The power an over-power meter reports, in W. */
export const OVER_POWER_W = 60_000;

const ELECTRIC: readonly (keyof MeterConditions)[] = [
  "coverOpen",
  "reverseEnergy",
  "clockDriftMinutes",
  "batteryLow",
  "relayFault",
  "overPower",
];
const WATER: readonly (keyof MeterConditions)[] = ["clockDriftMinutes", "batteryLow", "valveFault"];

/** Refuses a condition the kind of meter cannot show, or a drift that is not a finite number of minutes. */
export function checkConditions(kind: "electric" | "water", conditions: MeterConditions): void {
  const allowed = kind === "electric" ? ELECTRIC : WATER;
  for (const name of Object.keys(conditions) as (keyof MeterConditions)[]) {
    if (!allowed.includes(name)) throw new Error(`a ${kind} meter cannot show the condition ${name}`);
  }
  const drift = conditions.clockDriftMinutes;
  if (drift !== undefined && !Number.isFinite(drift)) throw new Error("clockDriftMinutes must be a number");
}

const NAMES: readonly (keyof MeterConditions)[] = [...new Set([...ELECTRIC, ...WATER])];

/**
 * One `--condition ADDRESS:NAME[=VALUE]` of the command line: a flag without a value is set,
 * `=false` clears it, and clockDriftMinutes takes its minutes.
 */
export function parseConditionArg(text: string): { address: string; change: MeterConditions } {
  const match = /^(\d{1,14}):(\w+)(?:=(.*))?$/.exec(text);
  if (!match) throw new Error(`--condition ${text}: expected ADDRESS:NAME[=VALUE]`);
  const [, address = "", name = "", value] = match;
  if (!(NAMES as readonly string[]).includes(name)) throw new Error(`unknown condition "${name}"`);
  if (name === "clockDriftMinutes") {
    const minutes = Number(value);
    if (value === undefined || !Number.isFinite(minutes)) throw new Error("clockDriftMinutes needs =MINUTES");
    return { address, change: { clockDriftMinutes: minutes } };
  }
  if (value !== undefined && value !== "true" && value !== "false")
    throw new Error(`--condition ${text}: a flag is true or false`);
  return { address, change: { [name]: value !== "false" } };
}
