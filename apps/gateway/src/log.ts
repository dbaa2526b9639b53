import type { Logger, LogLevel } from "./ports.ts";

const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

/** One JSON object per line on stderr, like the server's pino output. */
export function consoleLogger(minimum: LogLevel = "info"): Logger {
  return {
    log(level, message, fields) {
      if (RANK[level] < RANK[minimum]) return;
      process.stderr.write(
        `${JSON.stringify({ time: new Date().toISOString(), level, msg: message, ...fields })}\n`,
      );
    },
  };
}

export const silentLogger: Logger = { log() {} };

/**
 * Hostile input must not turn into a log flood: at most one line per key and window, with the
 * number of suppressed repeats on the next line.
 */
export class RateLimitedLog {
  private readonly last = new Map<string, { at: number; suppressed: number }>();

  constructor(
    private readonly logger: Logger,
    private readonly windowMs = 10_000,
  ) {}

  log(key: string, level: LogLevel, message: string, fields?: Record<string, unknown>): void {
    const now = Date.now();
    const entry = this.last.get(key);
    if (entry && now - entry.at < this.windowMs) {
      entry.suppressed++;
      return;
    }
    const suppressed = entry?.suppressed ?? 0;
    this.last.set(key, { at: now, suppressed: 0 });
    // Keys are reasons, not addresses, so the map stays small; clear it if a caller misuses it.
    if (this.last.size > 1000) this.last.clear();
    this.logger.log(level, message, suppressed > 0 ? { ...fields, suppressed } : fields);
  }
}
