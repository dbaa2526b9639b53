import { randomInt } from "node:crypto";

/**
 * Snowflake-style 64-bit ids: 41 bits of milliseconds since 2024-01-01, 10 bits of worker, 12 bits of
 * sequence. Every long-lived process (server, registry gateway) leases its worker number from the
 * database at start (id-worker-lease.ts), so two live processes never mint with the same one. A
 * process that has not leased one (a test on a database of its own, a one-off script) mints with a
 * random worker, as nothing else writes to its database at the same time.
 */
const EPOCH = 1_704_067_200_000n;
const WORKER_BITS = 10;
export const WORKER_COUNT = 1 << WORKER_BITS;

let worker = BigInt(randomInt(0, WORKER_COUNT));
/** performance.now() after which the leased worker may no longer be used; Infinity while unleased. */
let usableUntil = Number.POSITIVE_INFINITY;
let lastMs = 0n;
let sequence = 0n;

export class IdWorkerLapsedError extends Error {}

export function nextId(): string {
  if (performance.now() >= usableUntil) {
    throw new IdWorkerLapsedError(
      "the id worker lease has lapsed and is not renewed yet: no ids until it is",
    );
  }
  // Never behind the last id: a clock stepped back, or a worker taken over from a process whose
  // ids ran ahead (adoptWorker's floor), keeps counting from there.
  let now = BigInt(Date.now());
  if (now < lastMs) now = lastMs;
  if (now === lastMs) {
    sequence = (sequence + 1n) & 0xfffn;
    // 4096 ids in one millisecond: borrow the next one rather than wait for the clock.
    if (sequence === 0n) now = lastMs + 1n;
  } else {
    sequence = 0n;
  }
  lastMs = now;
  return (((now - EPOCH) << 22n) | (worker << 12n) | sequence).toString();
}

/**
 * Mint with `leased` from now on, until `until` (performance.now() time). `floorMs`: the last
 * millisecond (epoch ms) the worker's previous holder may have used: ids start after it, so ids of
 * the old and the new holder can never meet even when their clocks disagree.
 */
export function adoptWorker(leased: number, until: number, floorMs: bigint): void {
  if (BigInt(leased) !== worker) {
    worker = BigInt(leased);
    sequence = 0n;
  }
  if (floorMs >= lastMs) {
    lastMs = floorMs;
    // The next id in lastMs must not repeat one the previous holder minted in it.
    sequence = 0xfffn;
  }
  usableUntil = until;
}

/** The renewed lease of the current worker holds until `until` (performance.now() time). */
export function extendWorker(until: number): void {
  usableUntil = until;
}

/** No ids until a worker is adopted again (the lease is lost or given back). */
export function suspendWorker(): void {
  usableUntil = Number.NEGATIVE_INFINITY;
}

/** The highest millisecond (epoch ms) an id may carry if minting went on for `aheadMs` from now. */
export function mintedUntil(aheadMs: number): bigint {
  const now = BigInt(Date.now());
  return (now > lastMs ? now : lastMs) + BigInt(aheadMs);
}

/** The worker number ids carry now (tests and diagnostics). */
export function currentWorker(): number {
  return Number(worker);
}

/** The worker number inside an id. */
export function workerOfId(id: string): number {
  return Number((BigInt(id) >> 12n) & BigInt(WORKER_COUNT - 1));
}
