import { type BusContext, readWithRetry } from "../commands/exchange.ts";
import type { MeterInfo, MeterReading } from "../model.ts";
import { applyReply, diOf, type PollItem, pollPlan } from "../protocol/read-items.ts";

export interface PollResult {
  reading: MeterReading;
  /** The meter answered at least one request. */
  reachable: boolean;
  /** Daily frozen data was answered (read, or refused as unsupported): not due again today. */
  frozenAnswered: boolean;
  linkClosed: boolean;
}

function isZero(value: string | undefined): boolean {
  return value !== undefined && /^0+(\.0+)?$/.test(value);
}

/**
 * One poll of one meter. A meter that does not answer its first item (after retries) is given
 * up for this round: the other items would only time out too and hold the bus.
 */
export async function pollMeter(ctx: BusContext, meter: MeterInfo, withFrozen: boolean): Promise<PollResult> {
  const reading: MeterReading = { meterId: meter.id, address: meter.address, at: new Date(), missing: [] };
  const plan: PollItem[] = pollPlan(meter, withFrozen);
  let reachable = false;
  let frozenAnswered = false;
  let linkClosed = false;
  for (let i = 0; i < plan.length; i++) {
    const item = plan[i]!;
    const { exchange } = await readWithRetry(ctx, () => ctx.requests.read(meter, diOf(item, meter)));
    if (exchange.outcome !== "reply") {
      linkClosed = exchange.outcome === "closed";
      if (linkClosed || !reachable) {
        reading.missing.push(...plan.slice(i));
        break;
      }
      reading.missing.push(item);
      continue;
    }
    reachable = true;
    if (item === "frozen-time" || item === "frozen-energy" || item === "daily-frozen") frozenAnswered = true;
    if (!applyReply(reading, item, exchange.reply)) reading.missing.push(item);
    // A zero balance may hide an overdraft: the meter keeps it in its own register.
    if (item === "balance" && isZero(reading.balance)) plan.splice(i + 1, 0, "overdraft");
  }
  return { reading, reachable, frozenAnswered, linkClosed };
}
