import type { FastifyError, FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { failure } from "../contract/envelope.ts";
import { ApiError } from "../contract/errors.ts";
import type { Db } from "../db/client.ts";
import { nextId } from "../db/ids.ts";
import { OAuthError } from "../modules/auth/oauth-error.ts";

/** Names the offending field of a schema validation failure, e.g. `username: must be string`. */
function validationMessage(error: FastifyError): string {
  const first = error.validation?.[0];
  if (!first) return error.message;
  const missing = (first.params as { missingProperty?: string } | undefined)?.missingProperty;
  const field = missing ?? first.instancePath.replace(/^\//, "").replaceAll("/", ".");
  if (missing) return `缺少必要的请求参数: ${missing}`;
  return field ? `${field}: ${first.message ?? "invalid"}` : (first.message ?? error.message);
}

/** What the multipart parser throws on a body it cannot read: the client's fault, not ours. */
const MULTIPART_PARSE =
  /^(Multipart: |Unexpected end of (form|file)|Malformed part header|Part terminated early)/;

/**
 * Anonymous callers may write this many error-log rows per window and process; past it their faults
 * go to the process log only, so nobody can fill the table without signing in.
 */
export const ANONYMOUS_ERROR_ROWS = 10;
const ANONYMOUS_WINDOW_MS = 60_000;

function anonymousBudget() {
  let windowStart = 0;
  let used = 0;
  return () => {
    const now = Date.now();
    if (now - windowStart > ANONYMOUS_WINDOW_MS) {
      windowStart = now;
      used = 0;
    }
    used += 1;
    return used <= ANONYMOUS_ERROR_ROWS;
  };
}

/**
 * One place that turns every failure into the contract's shape: the envelope with a real HTTP status,
 * OAuth2 errors on the token endpoint, and 500s that are logged with their stack but never shown.
 */
export default fp(
  async (app: FastifyInstance, opts: { db: Db }) => {
    const anonymousMayLog = anonymousBudget();
    app.setErrorHandler(async (error: FastifyError, request, reply) => {
      if (error instanceof OAuthError) {
        return reply.status(error.status).send({ error: error.error, error_description: error.message });
      }
      if (error instanceof ApiError)
        return reply.status(error.status).send(failure(error.code, error.message));
      if (error.validation) return reply.status(400).send(failure(400, validationMessage(error)));
      // A unique index caught a race between two writers that both passed the engine's check.
      if ((error as { code?: unknown }).code === "23505") {
        return reply.status(400).send(failure(400, "数据已存在,请勿重复提交"));
      }
      if (error.statusCode === undefined && MULTIPART_PARSE.test(error.message)) {
        return reply.status(400).send(failure(400, "file: 上传内容无法解析"));
      }
      const status = error.statusCode ?? 500;
      if (status >= 400 && status < 500) {
        // Fastify's own client errors: malformed JSON, body too large, unsupported media type.
        const aboutBody = error.code?.startsWith("FST_ERR_CTP_");
        return reply
          .status(status)
          .send(failure(status, aboutBody ? `body: ${error.message}` : error.message));
      }
      request.log.error({ err: error }, "unhandled error");
      if (!request.user && !anonymousMayLog()) return reply.status(500).send(failure(500));
      await opts.db
        .query(
          `insert into log_error (id, tenant_id, service_id, method, request_uri, user_agent, stack_trace,
                                  exception_name, message, remote_ip, create_by)
           values ($1, $2, 'meterline-server', $3, $4, $5, $6, $7, $8, $9, $10)`,
          [
            nextId(),
            request.user?.tenantId ?? "000000",
            request.method,
            request.url.slice(0, 1000),
            String(request.headers["user-agent"] ?? "").slice(0, 1000),
            error.stack ?? "",
            error.name,
            error.message,
            request.ip,
            request.user?.account ?? "",
          ],
        )
        .catch((logError: unknown) => request.log.error({ err: logError }, "could not write the error log"));
      return reply.status(500).send(failure(500));
    });

    app.setNotFoundHandler(async (request, reply) =>
      reply.status(404).send(failure(404, `404 没找到请求: ${request.method} ${request.url.split("?")[0]}`)),
    );
  },
  { name: "error-handler" },
);
