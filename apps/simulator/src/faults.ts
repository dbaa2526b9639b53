import type { Random } from "./random.ts";

/**
 * Faults a simulated meter (or its DTU) can inject into one request:
 *   ignore          the request is lost on the bus: not executed, no reply
 *   noReply         executed, but the reply is lost
 *   lateReply       executed, reply sent after `lateReplyMs` (past the gateway's timeout)
 *   duplicateReply  executed, reply sent twice
 *   badChecksum     executed, reply's checksum corrupted
 *   errorReply      not executed, an abnormal (error) reply instead
 *   disconnect      executed, then the DTU drops its connection before replying (and redials)
 * Clock drift and register rollover are properties of a meter, chosen when the fleet is planned.
 */
export const FAULTS = [
  "ignore",
  "noReply",
  "lateReply",
  "duplicateReply",
  "badChecksum",
  "errorReply",
  "disconnect",
] as const;
export type Fault = (typeof FAULTS)[number];
export type FaultRates = Partial<Record<Fault, number>>;

export function isFault(name: string): name is Fault {
  return (FAULTS as readonly string[]).includes(name);
}

export function checkRates(rates: FaultRates): void {
  let total = 0;
  for (const [name, rate] of Object.entries(rates)) {
    if (!isFault(name)) throw new Error(`unknown fault "${name}" (known: ${FAULTS.join(", ")})`);
    if (typeof rate !== "number" || !(rate >= 0 && rate <= 1))
      throw new Error(`fault rate of ${name} must be within 0..1`);
    total += rate;
  }
  if (total > 1) throw new Error("fault rates add up to more than 1");
}

/**
 * One meter's faults: injected ones first (tests name exactly which request misbehaves), then a
 * draw against the rates from the meter's own seeded random source, so runs repeat with a seed.
 */
export class FaultPlan {
  private readonly injected: Fault[] = [];
  readonly counts: Partial<Record<Fault, number>> = {};

  constructor(
    private readonly rates: FaultRates,
    private readonly random: Random,
  ) {}

  inject(fault: Fault, times = 1): void {
    for (let i = 0; i < times; i++) this.injected.push(fault);
  }

  next(): Fault | null {
    const fault = this.injected.shift() ?? this.draw();
    if (fault) this.counts[fault] = (this.counts[fault] ?? 0) + 1;
    return fault;
  }

  private draw(): Fault | null {
    let r = this.random.next();
    for (const fault of FAULTS) {
      const rate = this.rates[fault] ?? 0;
      if (r < rate) return fault;
      r -= rate;
    }
    return null;
  }
}
