import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import type { Db } from "../db/client.ts";

const LOG_TABLES = ["log_api", "log_error", "log_usual"] as const;
const DEFAULT_RETENTION_DAYS = 30;
/** Logs are evidence: a parameter set too low (or to 0 by mistake) still keeps a week. */
const MIN_RETENTION_DAYS = 7;
/** Rows deleted per statement, so a first sweep over a large backlog never holds one long lock. */
const BATCH = 5_000;
const SWEEP_EVERY_MS = 3_600_000;

/**
 * Deletes log rows older than the `log.retentionDays` parameter, tenant by tenant and in batches,
 * each walking the (tenant, create time) index. Answers how many rows went.
 */
export async function sweepLogs(db: Db): Promise<number> {
  const [param] = await db.query<{ param_value: string }>(
    "select param_value from sys_param where param_key = 'log.retentionDays' and tenant_id = '000000' and is_deleted = 0",
  );
  const days = Math.max(MIN_RETENTION_DAYS, Number(param?.param_value) || DEFAULT_RETENTION_DAYS);
  let removed = 0;
  for (const table of LOG_TABLES) {
    // The tenants that have rows in this table, hopping along the index (rows of a tenant since
    // removed are swept too).
    const tenants = await db.query<{ tenant_id: string }>(
      `with recursive t as (
         select min(tenant_id) as tenant_id from ${table}
         union all
         select (select min(tenant_id) from ${table} where tenant_id > t.tenant_id) from t where t.tenant_id is not null)
       select tenant_id from t where tenant_id is not null`,
    );
    for (const { tenant_id } of tenants) {
      for (;;) {
        const rows = await db.query(
          `delete from ${table} where id in (
             select id from ${table}
              where tenant_id = $1 and create_time < now() - make_interval(days => $2) limit ${BATCH})
           returning 1`,
          [tenant_id, days],
        );
        removed += rows.length;
        if (rows.length < BATCH) break;
      }
    }
  }
  return removed;
}

/** Keeps the three log tables to their retention: once when the server is ready, then hourly. */
export default fp(
  async (app: FastifyInstance, opts: { db: Db }) => {
    let running: Promise<unknown> = Promise.resolve();
    const sweep = () => {
      running = sweepLogs(opts.db).catch((error: unknown) =>
        app.log.warn({ err: error }, "log retention sweep failed"),
      );
    };
    const timer = setInterval(sweep, SWEEP_EVERY_MS);
    timer.unref();
    app.addHook("onReady", async () => sweep());
    app.decorate("sweepLogs", async () => {
      await sweepLogs(opts.db);
    });
    app.addHook("onClose", async () => {
      clearInterval(timer);
      await running;
    });
  },
  { name: "log-retention" },
);

declare module "fastify" {
  interface FastifyInstance {
    /** Deletes log rows older than the retention; runs by itself hourly. */
    sweepLogs(): Promise<void>;
  }
}
