import { hostname } from "node:os";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { redactUrl } from "../contract/redact.ts";
import type { Db } from "../db/client.ts";
import { nextId } from "../db/ids.ts";

const HOST = hostname();
/** Calls that would only drown the log: liveness probes and the API browser's own files. */
const SKIPPED = /^\/api\/(health|docs|openapi\.json)/;
const DAY_MS = 86_400_000;
const DEFAULT_RETENTION_DAYS = 30;

/**
 * Writes every API call to log_api (method, path, status, duration, user, tenant, ip) after the
 * answer is sent, and keeps the three log tables to the retention the `log.retentionDays`
 * parameter sets.
 */
export default fp(
  async (app: FastifyInstance, opts: { db: Db }) => {
    const pending = new Set<Promise<unknown>>();

    app.addHook("onResponse", async (request, reply) => {
      const path = request.url.split("?")[0] ?? "";
      if (!path.startsWith("/api/") || SKIPPED.test(path)) return;
      const query = request.url.includes("?") ? request.url.slice(request.url.indexOf("?") + 1) : "";
      const write = opts.db
        .query(
          `insert into log_api (id, tenant_id, service_id, server_host, method, request_uri, user_agent, remote_ip,
                                params, create_by, title, status, time)
           values ($1, $2, 'meterline-server', $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
          [
            nextId(),
            request.user?.tenantId ?? "000000",
            HOST,
            request.method,
            path.slice(0, 1000),
            String(request.headers["user-agent"] ?? "").slice(0, 1000),
            request.ip,
            // Tokens and passwords may ride in the query (downloads, the token endpoint): never store them.
            redactUrl(`?${query}`).slice(1, 4001),
            request.user?.account ?? "",
            (request.routeOptions.schema?.summary ?? "").slice(0, 255),
            reply.statusCode,
            Math.round(reply.elapsedTime),
          ],
        )
        .catch((error: unknown) => request.log.warn({ err: error }, "could not write the api log"))
        .finally(() => pending.delete(write));
      pending.add(write);
    });

    const sweep = async () => {
      const [param] = await opts.db.query<{ param_value: string }>(
        "select param_value from sys_param where param_key = 'log.retentionDays' and tenant_id = '000000' and is_deleted = 0",
      );
      const days = Math.max(1, Number(param?.param_value) || DEFAULT_RETENTION_DAYS);
      for (const table of ["log_api", "log_error", "log_usual"]) {
        await opts.db.query(`delete from ${table} where create_time < now() - make_interval(days => $1)`, [
          days,
        ]);
      }
    };
    const timer = setInterval(() => {
      sweep().catch((error: unknown) => app.log.warn({ err: error }, "log retention sweep failed"));
    }, DAY_MS);
    timer.unref();

    app.decorate("sweepLogs", sweep);
    app.addHook("onClose", async () => {
      clearInterval(timer);
      await Promise.allSettled([...pending]);
    });
  },
  { name: "api-log" },
);

declare module "fastify" {
  interface FastifyInstance {
    /** Deletes log rows older than the retention; runs daily by itself. */
    sweepLogs(): Promise<void>;
  }
}
