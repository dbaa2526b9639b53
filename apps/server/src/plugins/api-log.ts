import { hostname } from "node:os";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { redactUrl } from "../contract/redact.ts";
import type { Db } from "../db/client.ts";
import { nextId } from "../db/ids.ts";

const HOST = hostname();
/** Calls that would only drown the log: liveness probes and the API browser's own files. */
const SKIPPED = /^\/api\/(health|docs|openapi\.json)/;

/**
 * Writes every API call to log_api (method, path, status, duration, user, tenant, ip) after the
 * answer is sent. Retention is the log-retention plugin's.
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

    app.addHook("onClose", async () => {
      await Promise.allSettled([...pending]);
    });
  },
  { name: "api-log" },
);
