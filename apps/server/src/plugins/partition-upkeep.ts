import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import type { Db } from "../db/client.ts";
import { ensurePartitions } from "../db/partitions.ts";

const EVERY_MS = 24 * 3_600_000;

/**
 * Keeps the months of the partitioned tables ahead of time: once when the server is ready, then
 * daily. Every server may run it; they take turns on a lock and the later ones find nothing to do.
 */
export default fp(
  async (app: FastifyInstance, opts: { db: Db }) => {
    let running: Promise<unknown> = Promise.resolve();
    const run = () => {
      running = ensurePartitions(opts.db).catch((error: unknown) =>
        app.log.warn({ err: error }, "creating partitions ahead failed"),
      );
    };
    const timer = setInterval(run, EVERY_MS);
    timer.unref();
    app.addHook("onReady", async () => run());
    app.addHook("onClose", async () => {
      clearInterval(timer);
      await running;
    });
  },
  { name: "partition-upkeep" },
);
