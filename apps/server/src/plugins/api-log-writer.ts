import type { FastifyBaseLogger } from "fastify";
import type { Queryable } from "../db/client.ts";

/** One log_api row, in the column order of COLUMNS. */
export type ApiLogRow = [
  id: string,
  tenantId: string,
  host: string,
  method: string,
  uri: string,
  userAgent: string,
  ip: string,
  params: string,
  account: string,
  title: string,
  status: number,
  ms: number,
  /** When the call was answered, in epoch milliseconds (stored as the database's own time). */
  at: number,
];

const COLUMNS =
  "id, tenant_id, service_id, server_host, method, request_uri, user_agent, remote_ip, params, create_by, title, status, time, create_time";
const PER_ROW = 13;
/** Rows per INSERT: well under PostgreSQL's 65,535 bound parameters. */
const BATCH_ROWS = 500;

export interface ApiLogWriterOptions {
  /** Rows held at most; when full the oldest is dropped (and counted in a warning). */
  bufferRows: number;
  /** How often the buffer is written. */
  flushMs: number;
}

/**
 * Buffers API-log rows and writes them in multi-row INSERTs off the request path: periodically,
 * as soon as a batch is full, and on `flush()` (shutdown, tests).
 */
export class ApiLogWriter {
  private buffer: ApiLogRow[] = [];
  private dropped = 0;
  /** The flush under way; `writeAll` never rejects, so the chain never breaks. */
  private writing: Promise<void> = Promise.resolve();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly db: Queryable,
    private readonly log: FastifyBaseLogger,
    private readonly options: ApiLogWriterOptions,
  ) {
    this.timer = setInterval(() => void this.flush(), options.flushMs);
    this.timer.unref();
  }

  add(row: ApiLogRow): void {
    if (this.buffer.length >= this.options.bufferRows) {
      this.buffer.shift();
      this.dropped++;
    }
    this.buffer.push(row);
    if (this.buffer.length >= BATCH_ROWS) void this.flush();
  }

  /** Rows waiting to be written. */
  get pending(): number {
    return this.buffer.length;
  }

  /** Writes everything buffered so far; resolves when it is in the database (or failed and was logged). */
  flush(): Promise<void> {
    // One writer at a time, so rows keep their order; a flush asked meanwhile runs right after.
    this.writing = this.writing.then(() => this.writeAll());
    return this.writing;
  }

  /** Stops the timer and writes what is left. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }

  private async writeAll(): Promise<void> {
    if (this.dropped > 0) {
      this.log.warn({ dropped: this.dropped }, "api log buffer full: oldest rows dropped");
      this.dropped = 0;
    }
    while (this.buffer.length > 0) {
      const batch = this.buffer.splice(0, BATCH_ROWS);
      try {
        await this.db.query(
          `insert into log_api (${COLUMNS}) values ${batch.map((_, i) => placeholders(i)).join(", ")}`,
          batch.flat(),
        );
      } catch (error) {
        // The log must never take the server down with it: the batch is given up, and said so.
        this.log.warn({ err: error, rows: batch.length }, "could not write the api log");
      }
    }
  }
}

/** `($n, $n+1, 'meterline-server', …)` for the i-th row of a batch. */
function placeholders(row: number): string {
  const p = (column: number) => `$${row * PER_ROW + column}`;
  return `(${p(1)}, ${p(2)}, 'meterline-server', ${p(3)}, ${p(4)}, ${p(5)}, ${p(6)}, ${p(7)}, ${p(8)}, ${p(9)}, ${p(10)}, ${p(11)}, ${p(12)}, to_timestamp(${p(13)}::float8 / 1000))`;
}
