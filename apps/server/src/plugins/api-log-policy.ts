/** Which calls are written to log_api (API_LOG and its companions in config.ts). */
export interface ApiLogPolicy {
  /** Calls that change something: every method but GET, HEAD and OPTIONS. */
  writes: boolean;
  /** Answers with status 400 or more, and calls that threw. */
  errors: boolean;
  /** Calls that took at least `slowMs`. */
  slow: boolean;
  /** Every call, whatever the above say. */
  all: boolean;
  slowMs: number;
  bufferRows: number;
  flushMs: number;
}

/** Writes, errors and calls of a second or more; reads that went well are the request log's. */
export const DEFAULT_API_LOG: ApiLogPolicy = {
  writes: true,
  errors: true,
  slow: true,
  all: false,
  slowMs: 1000,
  bufferRows: 10_000,
  flushMs: 1000,
};
