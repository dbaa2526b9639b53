import { type Suspicion, saturating } from "@meterline/analytics";

/** A meter's own tamper reports over the sweep's window, as the alarm module raised them. */
export interface MeterEventCounts {
  coverOpened: number;
  reverseEnergy: number;
  /** Epoch milliseconds of the first report and of the last time one was seen to hold. */
  from: number;
  to: number;
}

/**
 * Cover openings and reverse energy the meter itself reported: each is a physical act on the
 * meter (a cover lifted, the current leads swapped), so one is already worth a look and more make
 * it near certain.
 */
export function meterEvents(meterId: string, counts: MeterEventCounts): Suspicion | undefined {
  const events = counts.coverOpened + counts.reverseEnergy;
  if (events === 0) return undefined;
  return {
    kind: "meter-event",
    subject: meterId,
    score: saturating(events, 1.5),
    from: counts.from,
    to: counts.to,
    figures: [
      { name: "cover openings", value: counts.coverOpened, unit: "times" },
      { name: "reverse energy alarms", value: counts.reverseEnergy, unit: "times" },
    ],
  };
}
