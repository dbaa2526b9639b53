/**
 * Readings of cumulative registers (energy, volume) aligned to common instants. A master meter and
 * its sub-meters are read at different moments (a poll round takes minutes, a carrier concentrator
 * longer), so their values are compared at the same instants by linear interpolation between the
 * reads either side. Exact: registers are integers in 0.01 kWh or m³, aligned values are integers
 * in 0.0001 units, rounded half away from zero.
 */

/** One read of a cumulative register: epoch milliseconds, value in 0.01 units. */
export interface RegisterRead {
  at: number;
  value: bigint;
}

/** How far apart the reads either side of an instant may be for a value there to be trusted. */
export const DEFAULT_MAX_GAP_MS = 6 * 60 * 60 * 1000;

/** 0.01 units → 0.0001 units. */
export const ALIGNED_PER_REGISTER = 100n;

export type AlignedValue =
  | { kind: "value"; value: bigint }
  /** No read on one side of the instant, or the reads either side are too far apart. */
  | { kind: "missing" }
  /** The register ran backwards between the reads either side (a replaced or faulty meter). */
  | { kind: "backwards"; before: RegisterRead; after: RegisterRead };

function roundedDivision(numerator: bigint, denominator: bigint): bigint {
  const negative = numerator < 0n !== denominator < 0n;
  const n = numerator < 0n ? -numerator : numerator;
  const d = denominator < 0n ? -denominator : denominator;
  const magnitude = (n * 2n + d) / (d * 2n);
  return negative ? -magnitude : magnitude;
}

/** The index of the last read at or before `at` in reads sorted by time, or -1. */
function lastAtOrBefore(reads: readonly RegisterRead[], at: number): number {
  let low = 0;
  let high = reads.length - 1;
  let found = -1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if (reads[middle]!.at <= at) {
      found = middle;
      low = middle + 1;
    } else {
      high = middle - 1;
    }
  }
  return found;
}

/** Reads sorted by time, one per instant (the later of duplicates kept, as a re-read corrects). */
export function sortedReads(reads: readonly RegisterRead[]): RegisterRead[] {
  const byInstant = new Map<number, RegisterRead>();
  for (const read of reads) byInstant.set(read.at, read);
  return [...byInstant.values()].sort((a, b) => a.at - b.at);
}

/**
 * The register's value at `at` in 0.0001 units, from reads sorted by time (sortedReads). A read at
 * the instant itself is taken as it is; otherwise the reads either side must both exist and lie
 * within `maxGapMs` of each other.
 */
export function valueAt(
  reads: readonly RegisterRead[],
  at: number,
  maxGapMs = DEFAULT_MAX_GAP_MS,
): AlignedValue {
  const index = lastAtOrBefore(reads, at);
  if (index < 0) return { kind: "missing" };
  const before = reads[index]!;
  if (before.at === at) return { kind: "value", value: before.value * ALIGNED_PER_REGISTER };
  const after = reads[index + 1];
  if (!after || after.at - before.at > maxGapMs) return { kind: "missing" };
  if (after.value < before.value) return { kind: "backwards", before, after };
  const span = BigInt(after.at - before.at);
  const elapsed = BigInt(at - before.at);
  const rise = (after.value - before.value) * ALIGNED_PER_REGISTER;
  return {
    kind: "value",
    value: before.value * ALIGNED_PER_REGISTER + roundedDivision(rise * elapsed, span),
  };
}
