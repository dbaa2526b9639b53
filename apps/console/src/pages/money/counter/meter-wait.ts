import { type RechargeDetail, rechargeDetail } from "./counter-calls.ts";

/** How often and how long the counter asks whether a local-prepaid meter took its purchase. */
export const POLL_MS = 2_000;
export const WAIT_MS = 120_000;

export type MeterOutcome = { state: "booked" | "failed"; detail: RechargeDetail } | { state: "timeout" };

/**
 * Reads the recharge back until the meter has confirmed it (state 1) or it failed (state 2), or
 * until WAIT_MS have passed. It never sends the purchase again: a recharge still waiting is the
 * gateway's to settle by reading the meter. A failed read is tried again at the next tick.
 */
export async function waitForMeter(id: string, signal: AbortSignal): Promise<MeterOutcome> {
  const deadline = Date.now() + WAIT_MS;
  while (Date.now() < deadline && !signal.aborted) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    if (signal.aborted) break;
    const detail = await rechargeDetail(id).catch(() => undefined);
    if (detail?.state === 1) return { state: "booked", detail };
    if (detail?.state === 2) return { state: "failed", detail };
  }
  return { state: "timeout" };
}
