/**
 * When an unreachable Modbus TCP endpoint may be dialled again: the wait doubles with every
 * failed attempt in a row, from `firstMs` up to `maxMs`, so a meter that is switched off or a
 * wrong address is not dialled on every lease tick; a connection that succeeds starts afresh.
 */
export class RedialBackoff {
  private readonly failures = new Map<string, { count: number; retryAt: number }>();

  constructor(
    private readonly firstMs = 1_000,
    private readonly maxMs = 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** Whether `key` may be dialled now. */
  due(key: string): boolean {
    const failure = this.failures.get(key);
    return !failure || this.now() >= failure.retryAt;
  }

  /** A dial failed: the next one waits twice as long as the last wait (first `firstMs`). Returns the wait. */
  failed(key: string): number {
    const count = (this.failures.get(key)?.count ?? 0) + 1;
    const waitMs = Math.min(this.maxMs, this.firstMs * 2 ** Math.min(count - 1, 30));
    this.failures.set(key, { count, retryAt: this.now() + waitMs });
    return waitMs;
  }

  /** A dial succeeded: the next failure waits `firstMs` again. */
  succeeded(key: string): void {
    this.failures.delete(key);
  }
}
