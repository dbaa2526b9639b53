import type { FastifyInstance } from "fastify";
import type { Db } from "../../db/client.ts";
import { warnDailyIfDue } from "./forecast-warnings.service.ts";

/**
 * The daily owner warnings before the forecast cut, driven like the suspects' sweep: a timer looks
 * every five minutes whether a tenant's run of the local day is due, and the run's claim row makes
 * it once per tenant and day across every server process.
 */
export async function forecastWarningJob(app: FastifyInstance, opts: { db: Db; timeZone: string }) {
  const { db, timeZone } = opts;
  const daily = setInterval(() => {
    warnDailyIfDue(db, new Date(), timeZone).catch((error: unknown) =>
      app.log.warn({ err: error }, "forecast warning run failed"),
    );
  }, 300_000);
  daily.unref();
  app.addHook("onClose", async () => clearInterval(daily));
}
