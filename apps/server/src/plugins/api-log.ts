import { hostname } from "node:os";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { redactUrl } from "../contract/redact.ts";
import type { Db } from "../db/client.ts";
import { nextId } from "../db/ids.ts";
import { type ApiLogPolicy, DEFAULT_API_LOG } from "./api-log-policy.ts";
import { ApiLogWriter } from "./api-log-writer.ts";

const HOST = hostname();
/** Calls that would only drown the log: liveness probes and the API browser's own files. */
const SKIPPED = /^\/api\/(health|docs|openapi\.json)/;

// The policy lives apart so that reading the configuration loads nothing of the server.
export { type ApiLogPolicy, DEFAULT_API_LOG } from "./api-log-policy.ts";

declare module "fastify" {
  interface FastifyInstance {
    /** The API log's buffer: `flush()` writes what is waiting (tests read the log after it). */
    apiLog: ApiLogWriter;
  }
}

const READS = new Set(["GET", "HEAD", "OPTIONS"]);

function worthLogging(policy: ApiLogPolicy, request: FastifyRequest, reply: FastifyReply, threw: boolean) {
  if (policy.all) return true;
  if (policy.writes && !READS.has(request.method)) return true;
  if (policy.errors && (threw || reply.statusCode >= 400)) return true;
  return policy.slow && reply.elapsedTime >= policy.slowMs;
}

/**
 * Writes the API calls the policy picks to log_api (method, path, status, duration, user, tenant,
 * ip) in batches after the answers are sent, and what is left when the server closes. Retention is
 * the log-retention plugin's.
 */
export default fp(
  async (app: FastifyInstance, opts: { db: Db; policy?: ApiLogPolicy }) => {
    const policy = opts.policy ?? DEFAULT_API_LOG;
    const writer = new ApiLogWriter(opts.db, app.log, policy);
    app.decorate("apiLog", writer);
    const threw = new WeakSet<FastifyRequest>();
    app.addHook("onError", async (request) => {
      threw.add(request);
    });

    app.addHook("onResponse", async (request, reply) => {
      const path = request.url.split("?")[0] ?? "";
      if (!path.startsWith("/api/") || SKIPPED.test(path)) return;
      if (!worthLogging(policy, request, reply, threw.has(request))) return;
      const query = request.url.includes("?") ? request.url.slice(request.url.indexOf("?") + 1) : "";
      writer.add([
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
        Date.now(),
      ]);
    });

    app.addHook("onClose", async () => writer.close());
  },
  { name: "api-log" },
);
