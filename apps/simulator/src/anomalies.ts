import { createRandom } from "./random.ts";

/**
 * The ground truth a run of the fleet carries: which meters (or nodes) misbehave, how, from when and
 * how much. Detectors and line-loss figures are measured against it (precision, recall, error), so
 * it is given as a plan (JSON, `npm run simulate -- --anomalies <file>`) or drawn from a seed at a
 * chosen prevalence, never guessed after the fact.
 *
 *   under-registering  the meter counts only (1 − magnitude) of the energy drawn (a shunted coil)
 *   relay-bypass       the relay's contacts are bridged: the load keeps drawing magnitude kW while
 *                      tripped, and the meter counts it
 *   tamper             the cover is opened at start (an event), then it under-registers by magnitude
 *   leak               a water meter's pipe leaks magnitude m³/h after the meter, day and night
 *   node-leak          a node's pipe leaks magnitude m³/h before the rooms' meters (the master counts it)
 *   mis-mapped         the meter is registered under another node than the one that feeds it
 *   faulty-master      the node's master meter counts (1 − magnitude) of what passes it
 */
export const ANOMALY_KINDS = [
  "under-registering",
  "relay-bypass",
  "tamper",
  "leak",
  "node-leak",
  "mis-mapped",
  "faulty-master",
] as const;
export type AnomalyKind = (typeof ANOMALY_KINDS)[number];

/** Kinds whose target is a node (a DTU's building), not a meter. */
export const NODE_KINDS: readonly AnomalyKind[] = ["node-leak", "faulty-master"];

export interface Anomaly {
  kind: AnomalyKind;
  /** A meter's id, or a node's id for node kinds. */
  target: string;
  /** Epoch milliseconds from which it acts. */
  start: number;
  /** See ANOMALY_KINDS: a share in 0..1, kW or m³/h; 0 for mis-mapped. */
  magnitude: number;
  /** mis-mapped: the node it is registered under instead. */
  registeredUnder?: string;
}

export interface AnomalyPlan {
  anomalies: Anomaly[];
}

/** A plan file larger than this is refused before it is parsed. */
export const MAX_PLAN_BYTES = 1_000_000;
const MAX_ANOMALIES = 100_000;

/** The bounds of each kind's magnitude, and its unit as the plan's errors name it. */
const MAGNITUDE: Record<AnomalyKind, { min: number; max: number; unit: string }> = {
  "under-registering": { min: 0.01, max: 1, unit: "share of energy not counted" },
  "relay-bypass": { min: 0.01, max: 100, unit: "kW" },
  tamper: { min: 0, max: 1, unit: "share of energy not counted" },
  leak: { min: 0.001, max: 50, unit: "m³/h" },
  "node-leak": { min: 0.001, max: 500, unit: "m³/h" },
  "mis-mapped": { min: 0, max: 0, unit: "none" },
  "faulty-master": { min: 0.01, max: 1, unit: "share not counted" },
};

export class AnomalyPlanError extends Error {}

function fail(field: string, reason: string): never {
  throw new AnomalyPlanError(`${field}: ${reason}`);
}

function isKind(value: unknown): value is AnomalyKind {
  return typeof value === "string" && (ANOMALY_KINDS as readonly string[]).includes(value);
}

function parseStart(value: unknown, field: string): number {
  const at = typeof value === "number" ? value : typeof value === "string" ? Date.parse(value) : Number.NaN;
  if (!Number.isFinite(at)) fail(field, "must be an ISO date-time or epoch milliseconds");
  return at;
}

function parseAnomaly(value: unknown, field: string): Anomaly {
  if (typeof value !== "object" || value === null || Array.isArray(value)) fail(field, "must be an object");
  const entry = value as Record<string, unknown>;
  if (!isKind(entry.kind)) fail(`${field}.kind`, `must be one of ${ANOMALY_KINDS.join(", ")}`);
  const kind = entry.kind;
  if (typeof entry.target !== "string" || entry.target.trim() === "" || entry.target.length > 64)
    fail(`${field}.target`, "must name a meter or node (1..64 characters)");
  const bounds = MAGNITUDE[kind];
  const magnitude = entry.magnitude ?? 0;
  if (typeof magnitude !== "number" || !(magnitude >= bounds.min && magnitude <= bounds.max))
    fail(`${field}.magnitude`, `must be within ${bounds.min}..${bounds.max} (${bounds.unit}) for ${kind}`);
  const anomaly: Anomaly = {
    kind,
    target: entry.target,
    start: parseStart(entry.start, `${field}.start`),
    magnitude,
  };
  if (kind === "mis-mapped") {
    if (typeof entry.registeredUnder !== "string" || entry.registeredUnder === "")
      fail(`${field}.registeredUnder`, "must name the node the meter is wrongly registered under");
    anomaly.registeredUnder = entry.registeredUnder;
  }
  return anomaly;
}

/** Reads a plan file's text, bounded, each error naming the field (`anomalies[3].magnitude: …`). */
export function parseAnomalyPlan(text: string): AnomalyPlan {
  if (Buffer.byteLength(text) > MAX_PLAN_BYTES) fail("plan", `larger than ${MAX_PLAN_BYTES} bytes`);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    fail("plan", `not JSON (${(error as Error).message})`);
  }
  const list = (json as { anomalies?: unknown } | null)?.anomalies;
  if (!Array.isArray(list)) fail("anomalies", "must be a list");
  if (list.length > MAX_ANOMALIES) fail("anomalies", `more than ${MAX_ANOMALIES}`);
  const anomalies = list.map((entry, index) => parseAnomaly(entry, `anomalies[${index}]`));
  const seen = new Set<string>();
  for (const [index, anomaly] of anomalies.entries()) {
    if (seen.has(anomaly.target))
      fail(`anomalies[${index}].target`, `${anomaly.target} already has an anomaly`);
    seen.add(anomaly.target);
  }
  return { anomalies };
}

/** What a random plan may pick from: the fleet's meters by kind, and its nodes. */
export interface AnomalyCandidates {
  /** Electricity meters with the node that feeds them (a mis-mapped one is registered elsewhere). */
  electric: readonly { id: string; node: string }[];
  water: readonly string[];
  nodes: readonly string[];
}

export interface RandomPlanOptions {
  seed: string;
  /** Share of meters given an anomaly (0..1); nodes get theirs at the same rate. */
  prevalence: number;
  /** Anomalies start within [from, to) (epoch ms). */
  from: number;
  to: number;
}

const pick = <T>(list: readonly T[], random: ReturnType<typeof createRandom>) =>
  list[random.int(list.length)]!;

/**
 * A plan drawn from a seed: `prevalence` of the electricity meters get theft-like kinds, of the
 * water meters a leak, of the nodes a node kind; starts and magnitudes drawn within realistic
 * ranges (a bypass of 0.3–2 kW, a leak of 0.03–0.3 m³/h). The same seed gives the same plan.
 */
export function randomAnomalyPlan(candidates: AnomalyCandidates, options: RandomPlanOptions): AnomalyPlan {
  if (!(options.prevalence >= 0 && options.prevalence <= 1)) fail("prevalence", "must be within 0..1");
  if (!(options.to > options.from)) fail("to", "must be after from");
  const random = createRandom(`anomalies:${options.seed}`);
  const start = () => options.from + Math.floor(random.next() * (options.to - options.from));
  const between = (low: number, high: number) =>
    Math.round((low + random.next() * (high - low)) * 1000) / 1000;
  const anomalies: Anomaly[] = [];
  const chosenOf = (list: readonly string[]) => {
    const count = Math.round(list.length * options.prevalence);
    const shuffled = [...list];
    for (let index = shuffled.length - 1; index > 0; index--) {
      const other = random.int(index + 1);
      [shuffled[index], shuffled[other]] = [shuffled[other]!, shuffled[index]!];
    }
    return shuffled.slice(0, count);
  };
  const electricKinds = ["under-registering", "relay-bypass", "tamper", "mis-mapped"] as const;
  const nodeOf = new Map(candidates.electric.map((meter) => [meter.id, meter.node]));
  for (const target of chosenOf(candidates.electric.map((meter) => meter.id))) {
    const kind = pick(candidates.nodes.length > 1 ? electricKinds : electricKinds.slice(0, 3), random);
    const anomaly: Anomaly = {
      kind,
      target,
      start: start(),
      magnitude: kind === "relay-bypass" ? between(0.3, 2) : kind === "mis-mapped" ? 0 : between(0.3, 0.8),
    };
    if (kind === "mis-mapped") {
      const elsewhere = candidates.nodes.filter((node) => node !== nodeOf.get(target));
      anomaly.registeredUnder = pick(elsewhere, random);
    }
    anomalies.push(anomaly);
  }
  for (const target of chosenOf(candidates.water)) {
    anomalies.push({ kind: "leak", target, start: start(), magnitude: between(0.03, 0.3) });
  }
  for (const target of chosenOf(candidates.nodes)) {
    const kind = random.chance(0.5) ? "node-leak" : "faulty-master";
    anomalies.push({
      kind,
      target,
      start: start(),
      magnitude: kind === "node-leak" ? between(0.05, 0.5) : between(0.05, 0.2),
    });
  }
  return { anomalies };
}
