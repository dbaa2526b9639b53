/**
 * Poll schedule of the meters on one bus (pure: the caller passes the time). Each meter is due
 * every `intervalMs`; the most overdue meter goes first, so one slow meter cannot starve the others,
 * and a late round does not make the next one come early (no catch-up bursts).
 * Daily frozen data is read once per local day per meter.
 */
interface Entry {
  meterId: string;
  intervalMs: number;
  dueAt: number;
  /** Asked for out of schedule ("read now"); also makes meters with interval 0 due once. */
  manualAt: number | null;
  frozenDay: string | null;
}

export interface ScheduledMeter {
  meterId: string;
  intervalMs: number;
}

function dueTime(entry: Entry): number {
  const scheduled = entry.intervalMs > 0 ? entry.dueAt : Number.POSITIVE_INFINITY;
  return entry.manualAt === null ? scheduled : Math.min(scheduled, entry.manualAt);
}

export class PollScheduler {
  private readonly entries = new Map<string, Entry>();

  constructor(
    meters: readonly ScheduledMeter[],
    now: number,
    private readonly firstDelayMs: number,
  ) {
    this.setMeters(meters, now);
  }

  /** Replace the meter list; meters already known keep their due time and frozen day. */
  setMeters(meters: readonly ScheduledMeter[], now: number): void {
    const next = new Map<string, Entry>();
    for (const meter of meters) {
      const known = this.entries.get(meter.meterId);
      next.set(meter.meterId, {
        meterId: meter.meterId,
        intervalMs: meter.intervalMs,
        dueAt: known?.dueAt ?? now + this.firstDelayMs,
        manualAt: known?.manualAt ?? null,
        frozenDay: known?.frozenDay ?? null,
      });
    }
    this.entries.clear();
    for (const [id, entry] of next) this.entries.set(id, entry);
  }

  /** The most overdue meter due at `now`, or undefined. Meters with interval 0 are never due. */
  next(now: number): string | undefined {
    let best: Entry | undefined;
    let bestAt = Number.POSITIVE_INFINITY;
    for (const entry of this.entries.values()) {
      const at = dueTime(entry);
      if (at > now) continue;
      if (at < bestAt) {
        best = entry;
        bestAt = at;
      }
    }
    return best?.meterId;
  }

  /** When the next meter falls due (Infinity if none ever will). */
  nextDueAt(): number {
    let earliest = Number.POSITIVE_INFINITY;
    for (const entry of this.entries.values()) earliest = Math.min(earliest, dueTime(entry));
    return earliest;
  }

  /** A poll finished (well or not): due again one interval after it was due, but never in the past. */
  completed(meterId: string, now: number): void {
    const entry = this.entries.get(meterId);
    if (!entry) return;
    entry.manualAt = null;
    if (entry.intervalMs <= 0 || entry.dueAt > now) return;
    const cadence = entry.dueAt + entry.intervalMs;
    entry.dueAt = cadence > now ? cadence : now + entry.intervalMs;
  }

  /** Make meters due now (all when no ids are given): a "read now" from the console or a bench. */
  pollNow(now: number, meterIds?: readonly string[]): number {
    let count = 0;
    for (const entry of this.entries.values()) {
      if (meterIds && !meterIds.includes(entry.meterId)) continue;
      entry.manualAt = now;
      count++;
    }
    return count;
  }

  /**
   * A meter reported an event (through its concentrator): poll it now with the daily items too
   * (cover count, clock), so the reading shows what changed. Returns how many were found.
   */
  eventDue(now: number, meterIds: readonly string[]): number {
    let count = 0;
    for (const meterId of meterIds) {
      const entry = this.entries.get(meterId);
      if (!entry) continue;
      entry.manualAt = now;
      entry.frozenDay = null;
      count++;
    }
    return count;
  }

  frozenDue(meterId: string, localDay: string): boolean {
    const entry = this.entries.get(meterId);
    return entry !== undefined && entry.frozenDay !== localDay;
  }

  frozenRead(meterId: string, localDay: string): void {
    const entry = this.entries.get(meterId);
    if (entry) entry.frozenDay = localDay;
  }

  get size(): number {
    return this.entries.size;
  }
}
