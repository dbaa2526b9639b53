import type { Db } from "../../db/client.ts";
import { fireDueTimer } from "./workflow.service.ts";

/** How often a server process looks for due timers: escalations are minutes or hours, not seconds. */
const EVERY_MS = 15_000;
/** Timers fired in one pass at most, so a backlog never holds the loop for long. */
const PER_PASS = 200;

/**
 * Fires the timers due at `now`, one transaction each, until none is due or the pass is full.
 * Returns how many fired. Several processes run this at once safely: each locks the instance it
 * fires (skip locked), so no timer fires twice.
 */
export async function runDueTimers(db: Db, now: Date = new Date(), limit = PER_PASS): Promise<number> {
  let fired = 0;
  while (fired < limit && (await fireDueTimer(db, now))) fired += 1;
  return fired;
}

/** The timer loop of one server process: started with the server, stopped (and awaited) with it. */
export function startTimerRunner(db: Db, onError: (error: unknown) => void) {
  let running: Promise<unknown> | null = null;
  const timer = setInterval(() => {
    // A pass still running is not stacked on by the next tick.
    if (running) return;
    running = runDueTimers(db)
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
