import type { Db } from "../../db/client.ts";
import { postponeTimer } from "./timer.repository.ts";
import { fireDueTimer, TimerFailed } from "./workflow.service.ts";

/** How often a server process looks for due timers: escalations are minutes or hours, not seconds. */
const EVERY_MS = 15_000;
/** Timers fired in one pass at most, so a backlog never holds the loop for long. */
const PER_PASS = 200;
/** A timer whose step failed is tried again this much later. */
const RETRY_MS = 10 * 60_000;

/**
 * Fires the timers due at `now`, one transaction each, until none is due or the pass is full.
 * Returns how many fired. Several processes run this at once safely: each locks the instance it
 * fires (skip locked), so no timer fires twice.
 */
export async function runDueTimers(
  db: Db,
  now: Date = new Date(),
  options: { limit?: number; onError?: (error: unknown) => void } = {},
): Promise<number> {
  const limit = options.limit ?? PER_PASS;
  let fired = 0;
  for (let tries = 0; tries < limit; tries += 1) {
    try {
      if (!(await fireDueTimer(db, now))) break;
      fired += 1;
    } catch (error) {
      if (!(error instanceof TimerFailed)) throw error;
      // One broken instance must not hold up the others: it waits for a later pass.
      await postponeTimer(db, error, new Date(now.getTime() + RETRY_MS), error.message);
      options.onError?.(error);
    }
  }
  return fired;
}

/** The timer loop of one server process: started with the server, stopped (and awaited) with it. */
export function startTimerRunner(db: Db, onError: (error: unknown) => void) {
  let running: Promise<unknown> | null = null;
  const timer = setInterval(() => {
    // A pass still running is not stacked on by the next tick.
    if (running) return;
    running = runDueTimers(db, new Date(), { onError })
      .catch(onError)
      .finally(() => {
        running = null;
      });
  }, EVERY_MS);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
