import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import type { Db } from "../db/client.ts";
import { analyzeEmbedded } from "../db/embedded-statistics.ts";

/** After the start (the demo seeded, a backup restored), then as the data grows. */
const FIRST_AFTER_MS = 5_000;
const EVERY_MS = 10 * 60_000;

/**
 * Keeps the embedded database's planner statistics (db/embedded-statistics.ts): a pass a few
 * seconds after the server is ready, then every ten minutes (a settled database's pass is one
 * catalog query). Not registered on a PostgreSQL server.
 */
export default fp(
  async (app: FastifyInstance, opts: { db: Db }) => {
    let running: Promise<unknown> = Promise.resolve();
    let closing = false;
    const run = () => {
      if (closing) return;
      const started = performance.now();
      running = analyzeEmbedded(opts.db, () => closing).then(
        (tables) => {
          // A settled database's pass analyzes nothing: only a pass that did work is worth a line.
          if (tables > 0)
            app.log.info({ tables, ms: Math.round(performance.now() - started) }, "embedded statistics kept");
        },
        (error: unknown) => {
          if (!closing) app.log.warn({ err: error }, "keeping the embedded database's statistics failed");
        },
      );
    };
    const first = setTimeout(run, FIRST_AFTER_MS);
    first.unref();
    const timer = setInterval(run, EVERY_MS);
    timer.unref();
    app.addHook("onClose", async () => {
      closing = true;
      clearTimeout(first);
      clearInterval(timer);
      await running;
    });
  },
  { name: "embedded-statistics" },
);
