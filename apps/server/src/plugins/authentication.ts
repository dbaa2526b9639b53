import type { FastifyInstance, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { unauthorized } from "../contract/errors.ts";
import type { AuthService } from "../modules/auth/auth.service.ts";
import type { CurrentUser } from "../modules/auth/current-user.ts";

declare module "fastify" {
  interface FastifyRequest {
    /** The signed-in caller; null on public routes without a token. */
    user: CurrentUser | null;
  }
  interface FastifyContextConfig {
    /** Reachable without a token (login page, captcha, docs). */
    public?: boolean;
  }
}

/** `Blade-Auth: bearer <token>` wins; file downloads opened in a window send `?Blade-Auth=<token>`. */
export function tokenOf(request: FastifyRequest): string | undefined {
  const header = request.headers["blade-auth"];
  const value = Array.isArray(header) ? header[0] : header;
  if (value && value.length > 7 && value.slice(0, 6).toLowerCase() === "bearer") return value.slice(7).trim();
  const query = request.query as Record<string, unknown> | undefined;
  if (query) {
    for (const [name, v] of Object.entries(query)) {
      if (name.toLowerCase() === "blade-auth" && typeof v === "string" && v)
        return v.replace(/^bearer\s+/i, "");
    }
  }
  return undefined;
}

/** Every route needs a valid, unrevoked access token unless its config says `public`. */
export default fp(
  async (app: FastifyInstance, opts: { auth: AuthService }) => {
    app.decorateRequest("user", null);
    // The console's files and the API browser are public by nature; everything else under /api is not.
    app.addHook("onRoute", (route) => {
      if (!route.url.startsWith("/api/") || route.url.startsWith("/api/docs")) {
        route.config = { ...(route.config as object), public: true };
      }
    });
    app.addHook("preHandler", async (request) => {
      const token = tokenOf(request);
      if (token) request.user = (await opts.auth.authenticate(token)) ?? null;
      if (request.user) {
        // Every later log line of this request says who asked, for which tenant.
        request.log = request.log.child({ tenantId: request.user.tenantId, account: request.user.account });
      }
      // Unknown paths answer 404 (and reach the console's SPA fallback) whoever asks.
      if (!request.user && !request.routeOptions.config.public && !request.is404) throw unauthorized();
    });
  },
  { name: "authentication" },
);
