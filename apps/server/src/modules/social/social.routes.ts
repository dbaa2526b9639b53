import type { FastifyInstance, FastifyRequest } from "fastify";
import { done, ok, page } from "../../contract/envelope.ts";
import { badRequest } from "../../contract/errors.ts";
import { optionalString, paging, readParams, requiredString } from "../../contract/params.ts";
import { requirePermission } from "../../crud/permissions.ts";
import type { Db } from "../../db/client.ts";
import { tokenOf } from "../../plugins/authentication.ts";
import type { AuthService } from "../auth/auth.service.ts";
import { OAuthError } from "../auth/oauth-error.ts";
import { setBrowserKey } from "./browser-cookie.ts";
import { REGISTERED_MESSAGE, RegistrationService } from "./registration.service.ts";
import type { SocialSignIn } from "./social-sign-in.ts";

const VIEW = "social_registration";
const APPROVE = "social_registration_approve";
const REJECT = "social_registration_reject";
/** Where the console finishes a sign-in (and shows why one failed). */
const CONSOLE_LOGIN = "/login";

const tenantOf = (request: FastifyRequest, params: ReturnType<typeof readParams>) => {
  const header = request.headers["tenant-id"];
  return (
    optionalString(params, "tenantId") ??
    optionalString(params, "tenant_id") ??
    (typeof header === "string" && header ? header : "000000")
  );
};

/** The profile page, where linking another sign-in account finishes. */
const PROFILE = "/info/index";

const to = (page: string, query: Record<string, string>) => `${page}?${new URLSearchParams(query)}`;
const loginWith = (query: Record<string, string>) => to(CONSOLE_LOGIN, query);

/**
 * Contract §5.9: `oauth/render/{source}` sends the browser to the provider, `oauth/callback/{source}`
 * brings it back to the console (which finishes with the social grant of oauth/token);
 * `register-guest` files an application, and the tenant's administrator reviews them.
 */
export async function socialRoutes(
  app: FastifyInstance,
  opts: { db: Db; auth: AuthService; social: SocialSignIn; timeZone: string },
) {
  const { db, auth, social } = opts;
  const registrations = new RegistrationService(db, opts.timeZone);
  const tags = ["social"];

  app.get<{ Params: { source: string } }>(
    "/api/blade-auth/oauth/render/:source",
    { config: { public: true }, schema: { tags, summary: "Send the browser to a third-party provider" } },
    async (request, reply) => {
      const params = readParams(request);
      try {
        const { url, browserKey } = await social.start(tenantOf(request, params), request.params.source);
        setBrowserKey(request, reply, browserKey);
        return reply.redirect(url, 302);
      } catch (error) {
        // The browser is on a navigation, not a fetch: it goes back to the login page with the reason.
        if (error instanceof OAuthError)
          return reply.redirect(loginWith({ socialError: error.message }), 302);
        request.log.warn({ err: error }, "third-party sign-in could not start");
        return reply.redirect(loginWith({ socialError: "第三方登录暂不可用,请稍后再试" }), 302);
      }
    },
  );

  app.get<{ Params: { source: string } }>(
    "/api/blade-auth/oauth/callback/:source",
    { config: { public: true }, schema: { tags, summary: "The provider's return, handed to the console" } },
    async (request, reply) => {
      const params = readParams(request);
      const state = optionalString(params, "state") ?? "";
      const code = optionalString(params, "code");
      const pending = state ? await social.peekState(state) : undefined;
      const reason = optionalString(params, "error_description") ?? optionalString(params, "error");
      // Linking an account ends on the profile page, signing in on the login page.
      const page = pending?.link_user_id ? PROFILE : CONSOLE_LOGIN;
      if (!code || !pending) {
        return reply.redirect(to(page, { socialError: reason ?? "第三方登录已失效,请重新登录" }), 302);
      }
      const back = { social: request.params.source, code, state, tenantId: pending.tenant_id };
      return reply.redirect(to(page, back), 302);
    },
  );

  app.post(
    "/api/blade-user/register-guest",
    {
      // Reached with the guest token of a third-party sign-in, which no other route accepts.
      config: { public: true },
      schema: { tags, summary: "Apply for an account after a third-party sign-in, pending approval" },
    },
    async (request) => {
      const params = readParams(request);
      const token = tokenOf(request);
      await registrations.apply(
        {
          tenantId: requiredString(params, "tenantId"),
          name: requiredString(params, "name").trim(),
          account: requiredString(params, "account").trim(),
          password: requiredString(params, "password"),
          oauthId: requiredString(params, "oauthId"),
          address: request.ip,
        },
        token ? auth.guestClaims(token) : undefined,
      );
      return done(REGISTERED_MESSAGE);
    },
  );

  app.get(
    "/api/blade-user/registration/page",
    { schema: { tags, summary: "Registration applications of the caller's tenant" } },
    async (request) => {
      const caller = await requirePermission(db, request, [VIEW, APPROVE, REJECT], "admin");
      const params = readParams(request);
      const { current, size, offset } = paging(params);
      const statusText = optionalString(params, "status");
      if (statusText !== undefined && !/^[012]$/.test(statusText)) throw badRequest("status: 只能为 0、1、2");
      const status = statusText === undefined ? undefined : Number(statusText);
      const { rows, total } = await registrations.list(caller, status, size, offset);
      return ok(page(rows, total, current, size));
    },
  );

  app.post(
    "/api/blade-user/registration/approve",
    { schema: { tags, summary: "Approve an application: create the user with a role and dept" } },
    async (request) => {
      const caller = await requirePermission(db, request, [APPROVE], "admin");
      const params = readParams(request);
      await registrations.approve(
        caller,
        requiredString(params, "id"),
        requiredString(params, "roleId"),
        requiredString(params, "deptId"),
      );
      return done();
    },
  );

  app.post(
    "/api/blade-user/registration/reject",
    { schema: { tags, summary: "Reject an application with a reason" } },
    async (request) => {
      const caller = await requirePermission(db, request, [REJECT], "admin");
      const params = readParams(request);
      const reason = (optionalString(params, "reason") ?? "").trim();
      if (!reason) throw badRequest("reason: 拒绝理由不能为空");
      if (reason.length > 255) throw badRequest("reason: 不能超过255个字符");
      await registrations.reject(caller, requiredString(params, "id"), reason);
      return done();
    },
  );
}
