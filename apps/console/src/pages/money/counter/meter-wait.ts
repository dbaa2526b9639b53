import type { RechargeDetail } from "./counter-calls.ts";

/** How often and how long the counter asks whether a local-prepaid meter took its purchase. */
export const POLL_MS = 2_000;
export const WAIT_MS = 120_000;

export type MeterOutcome = { state: "booked" | "failed"; detail: RechargeDetail } | { state: "timeout" };

/**
 * Reads the recharge back with `read` until the meter has confirmed it (state 1) or it failed
 * (state 2), or until `waitMs` have passed. It never sends the purchase again: a recharge still
 * waiting is the gateway's to settle by reading the meter. A failed read is tried at the next tick.
 */
export async function waitForMeter(
  read: () => Promise<RechargeDetail>,
  signal: AbortSignal,
  timing: { pollMs: number; waitMs: number } = { pollMs: POLL_MS, waitMs: WAIT_MS },
): Promise<MeterOutcome> {
  const deadline = Date.now() + timing.waitMs;
  while (Date.now() < deadline && !signal.aborted) {
    await new Promise((resolve) => setTimeout(resolve, timing.pollMs));
    if (signal.aborted) break;
    const detail = await read().catch(() => undefined);
    if (detail?.state === 1) return { state: "booked", detail };
    if (detail?.state === 2) return { state: "failed", detail };
  }
  return { state: "timeout" };
}
