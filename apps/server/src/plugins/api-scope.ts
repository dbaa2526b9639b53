import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { ApiError } from "../contract/errors.ts";
import type { Db } from "../db/client.ts";
import { isAdministrator } from "../modules/auth/current-user.ts";

declare module "fastify" {
  interface FastifyContextConfig {
    /** The plain resource a route serves; API-scope rules are keyed by it. */
    resource?: string;
  }
}

/**
 * API scopes (contract §8.5): once any rule names a resource, its routes answer only callers whose
 * roles were granted a rule whose path the request path starts with. Resources without rules stay
 * open to whoever holds their permission codes; the platform administrator is never narrowed.
 */
export default fp(
  async (app: FastifyInstance, opts: { db: Db }) => {
    app.addHook("preHandler", async (request) => {
      const resource = request.routeOptions.config.resource;
      const user = request.user;
      if (!resource || !user || isAdministrator(user)) return;
      const rules = await opts.db.query<{ scope_path: string; granted: boolean }>(
        `select s.scope_path,
                exists (select 1 from sys_role_scope rs
                         where rs.scope_id = s.id and rs.scope_category = 2 and rs.role_id = any($2::bigint[])) as granted
           from sys_scope_api s where s.resource_code = $1 and s.is_deleted = 0`,
        [resource, user.roleIds],
      );
      if (rules.length === 0) return;
      const path = request.url.split("?")[0] ?? "";
      if (!rules.some((rule) => rule.granted && path.startsWith(rule.scope_path))) {
        throw new ApiError(403, "无接口权限,请联系管理员授权");
      }
    });
  },
  { name: "api-scope", dependencies: ["authentication"] },
);
