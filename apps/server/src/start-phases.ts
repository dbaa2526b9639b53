/**
 * Wall-clock milliseconds of each step of a start, logged with "listening", so that a slow start
 * says where its time went (bench/start.ts prints them). The first step counts from the process's
 * own start (Node's bootstrap included).
 */
export class StartPhases {
  readonly ms: Record<string, number> = {};
  private last = 0;

  /** Ends the step named `name` now. */
  mark(name: string): void {
    const now = performance.now();
    this.ms[name] = Math.round(now - this.last);
    this.last = now;
  }

  /** Since the process started. */
  get totalMs(): number {
    return Math.round(performance.now());
  }
}
