import { resourceBase, resources } from "@meterline/contracts";
import type { FastifyContextConfig, FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { cachedRead } from "../cache/shared-cache.ts";
import { ApiError } from "../contract/errors.ts";
import type { Db } from "../db/client.ts";
import { isAdministrator } from "../modules/auth/current-user.ts";

declare module "fastify" {
  interface FastifyContextConfig {
    /** The resource a route serves; API-scope rules are keyed by it. Derived from the path when absent. */
    resource?: string;
    /**
     * `false` on the calls every signed-in console makes for itself (its menus, buttons, dictionaries
     * for selects, own profile): narrowing those would break the console rather than guard data.
     */
    apiScope?: false;
  }
}

/** Path prefixes of every resource (plain or module-served) with the code its API-scope rules use. */
const prefixes: [string, string][] = Object.values(resources).map((def): [string, string] => [
  `${resourceBase(def)}/`,
  def.name,
]);
prefixes.push(["/api/blade-system/region/", "region"]);
prefixes.sort((a, b) => b[0].length - a[0].length);

/** The resource a route belongs to: the longest resource prefix of its path. */
export const resourceOfPath = (url: string) => prefixes.find(([prefix]) => url.startsWith(prefix))?.[1];

interface ApiScopeRule {
  scope_path: string;
  /** The roles granted this rule. */
  role_ids: string[];
}

/** A resource's API-scope rules with the roles granted each, cached until a rule or a grant changes. */
const apiScopeRules = (db: Db, resource: string) =>
  cachedRead(db, "apiScope", resource, () =>
    db.query<ApiScopeRule>(
      `select s.scope_path,
              array(select rs.role_id::text from sys_role_scope rs
                     where rs.scope_id = s.id and rs.scope_category = 2) as role_ids
         from sys_scope_api s where s.resource_code = $1 and s.is_deleted = 0`,
      [resource],
    ),
  );

/**
 * API scopes (contract §8.5): once any rule names a resource, its routes answer only callers whose
 * roles were granted a rule whose path the request path starts with. Resources without rules stay
 * open to whoever holds their permission codes; the platform administrator is never narrowed.
 */
export default fp(
  async (app: FastifyInstance, opts: { db: Db }) => {
    // Every route, engine or module, is tagged here, so a module route cannot slip past its scopes.
    app.addHook("onRoute", (route) => {
      const config = (route.config ?? {}) as FastifyContextConfig;
      if (config.resource || config.apiScope === false) return;
      const resource = resourceOfPath(route.url);
      if (resource) route.config = { ...config, resource };
    });
    app.addHook("preHandler", async (request) => {
      const { resource, apiScope } = request.routeOptions.config;
      const user = request.user;
      if (!resource || apiScope === false || !user || isAdministrator(user)) return;
      const rules = await apiScopeRules(opts.db, resource);
      if (rules.length === 0) return;
      const path = request.url.split("?")[0] ?? "";
      const granted = (rule: ApiScopeRule) => rule.role_ids.some((id) => user.roleIds.includes(id));
      if (!rules.some((rule) => granted(rule) && path.startsWith(rule.scope_path))) {
        throw new ApiError(403, "无接口权限,请联系管理员授权");
      }
    });
  },
  { name: "api-scope", dependencies: ["authentication"] },
);
