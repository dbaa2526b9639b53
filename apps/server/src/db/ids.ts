import { randomInt } from "node:crypto";

/**
 * Snowflake-style 64-bit ids: 41 bits of milliseconds since 2024-01-01, 10 bits of worker, 12 bits of sequence.
 * The worker is random per process so that several server and gateway processes rarely collide; the
 * primary keys catch the rare case.
 */
const EPOCH = 1_704_067_200_000n;
const worker = BigInt(randomInt(0, 1024));
let lastMs = 0n;
let sequence = 0n;

export function nextId(): string {
  let now = BigInt(Date.now());
  if (now === lastMs) {
    sequence = (sequence + 1n) & 0xfffn;
    if (sequence === 0n) {
      while (now <= lastMs) now = BigInt(Date.now());
    }
  } else {
    sequence = 0n;
  }
  if (now < lastMs) now = lastMs; // clock stepped back: keep ids increasing
  lastMs = now;
  return (((now - EPOCH) << 22n) | (worker << 12n) | sequence).toString();
}
