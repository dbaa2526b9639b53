/**
 * What a detector hands an inspector: which meter or node, what kind of suspicion, how strong, and
 * the figures behind it (each a named number with its unit, shown as they are).
 */

export type SuspicionKind =
  /** Energy counted while the relay reported tripped: the relay's contacts are bridged. */
  | "relay-bypass"
  /** Load shown (power or current) while the energy register stood still: the meter under-registers. */
  | "no-energy-under-load"
  /** Days whose highest polled power showed a load while the day's energy stayed near zero. */
  | "load-without-energy"
  /** Usage fell and stayed low against the meter's own past and its peers while its node lost more. */
  | "sustained-drop"
  /** Reverse energy or an opened cover reported by the meter itself. */
  | "meter-event"
  /** Water flowing every night through the quiet hours: a leak after the meter. */
  | "night-flow"
  /** A node's master counting more water at night than its sub-meters together: a leak before them. */
  | "node-leak";

export interface EvidenceFigure {
  name: string;
  value: number;
  unit: string;
  /** The local day (yyyy-MM-dd) a figure of one day belongs to; absent for a figure of the whole. */
  day?: string;
}

export interface Suspicion {
  kind: SuspicionKind;
  /** The meter's (or, for node-leak, the node's) id. */
  subject: string;
  /** 0..1: how sure the detector is on its own figures, before the feedback of past visits. */
  score: number;
  /** Epoch milliseconds of the first and last evidence. */
  from: number;
  to: number;
  figures: EvidenceFigure[];
}

/** score = 1 − e^(−x / scale): 0 for nothing, half at `scale × ln 2`, towards 1 for much more. */
export function saturating(x: number, scale: number): number {
  if (!(x > 0) || !(scale > 0)) return 0;
  return 1 - Math.exp(-x / scale);
}
