import type { LocalLogEntry, LoginOptions } from "@meterline/contracts";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { ok } from "../../contract/envelope.ts";
import { badRequest } from "../../contract/errors.ts";
import { optionalString, readParams } from "../../contract/params.ts";
import type { Db } from "../../db/client.ts";
import { nextId } from "../../db/ids.ts";
import { tokenOf } from "../../plugins/authentication.ts";
import { answerFilesFor } from "../../plugins/file-links.ts";
import { browserKeyOf, clearBrowserKey } from "../social/browser-cookie.ts";
import type { SocialSignIn } from "../social/social-sign-in.ts";
import { UserRepository } from "../user/user.repository.ts";
import type { AuthService } from "./auth.service.ts";

const PLAIN_SUCCESS = { success: "true", msg: "success" } as const;
const MAX_UPLOADED_LOGS = 100;

/** `Authorization: Basic base64(client:secret)`; the console sends it on every call. */
function basicClient(request: FastifyRequest): { clientId: string; clientSecret: string } {
  const header = request.headers.authorization ?? "";
  if (!/^basic /i.test(header)) return { clientId: "", clientSecret: "" };
  const decoded = Buffer.from(header.slice(6).trim(), "base64").toString("utf8");
  const at = decoded.indexOf(":");
  return at < 0
    ? { clientId: "", clientSecret: "" }
    : { clientId: decoded.slice(0, at), clientSecret: decoded.slice(at + 1) };
}

const header = (request: FastifyRequest, name: string) => {
  const value = request.headers[name];
  return (Array.isArray(value) ? value[0] : value) || undefined;
};

export async function authRoutes(
  app: FastifyInstance,
  opts: { auth: AuthService; db: Db; captchaEnabled: boolean; social: SocialSignIn },
) {
  const { auth, db } = opts;
  const users = new UserRepository(db);
  const tags = ["auth"];

  app.post(
    "/api/blade-auth/oauth/token",
    {
      config: { public: true },
      schema: { tags, summary: "Sign in or refresh (OAuth2 password, captcha, refresh_token, social)" },
    },
    async (request, reply) => {
      const params = readParams(request);
      const text = (name: string) => optionalString(params, name);
      const grantType = text("grant_type") ?? "";
      // A third-party sign-in's browser cookie is spent with its state, whatever the outcome.
      if (grantType === "social") clearBrowserKey(reply);
      const answer = await auth.token({
        ...basicClient(request),
        grantType,
        // The tenant travels in the Tenant-Id header at login; the query forms are fallbacks.
        tenantId: header(request, "tenant-id") ?? text("tenant_id") ?? text("tenantId"),
        username: text("username"),
        password: text("password"),
        refreshToken: text("refresh_token"),
        captchaKey: header(request, "captcha-key") ?? text("key"),
        captchaCode: header(request, "captcha-code") ?? text("code"),
        address: request.ip,
        source: text("source"),
        socialCode: text("code"),
        state: text("state"),
        browserKey: browserKeyOf(request),
      });
      // The answer is the signed-in person's: their avatar's link is signed as their own calls' are.
      answerFilesFor(request, answer.tenant_id);
      return answer;
    },
  );

  app.get(
    "/api/blade-auth/oauth/captcha",
    {
      config: { public: true },
      schema: { tags, summary: "A single-use captcha image and its key (5 minutes)" },
    },
    async () => auth.captcha(),
  );

  // The open-source Saber's login page (4.x) asks here and reads the image inside the envelope.
  app.get(
    "/api/blade-auth/captcha",
    {
      config: { public: true },
      schema: { tags, summary: "The captcha in the envelope, as the open-source Saber asks for it" },
    },
    async () => ok(await auth.captcha()),
  );

  app.get(
    "/api/blade-auth/oauth/login-options",
    {
      config: { public: true },
      schema: { tags, summary: "What the login page must show (providers of ?tenantId=, else 000000)" },
    },
    async (request) => {
      const tenantId = optionalString(readParams(request), "tenantId") ?? "000000";
      const providers = await opts.social.options(tenantId);
      return ok<LoginOptions>({
        captchaMode: opts.captchaEnabled,
        tenantMode: true,
        registrationEnabled: true,
        socialSources: providers.map((p) => p.source),
        socialProviders: providers,
      });
    },
  );

  app.get(
    "/api/blade-auth/oauth/logout",
    {
      config: { public: true },
      schema: { tags, summary: "Revoke the caller's session (access and refresh tokens)" },
    },
    async (request) => {
      // Logging out twice, or with a token that already died, is still a successful logout.
      const token = tokenOf(request);
      const user = token ? await auth.authenticate(token) : undefined;
      if (user) await auth.logout(user);
      return PLAIN_SUCCESS;
    },
  );

  // The open-source Saber (4.1 and later) logs out with a POST here and reads the envelope.
  app.post(
    "/api/blade-auth/logout",
    {
      config: { public: true },
      schema: { tags, summary: "Revoke the caller's session, as the open-source Saber logs out" },
    },
    async (request) => {
      const token = tokenOf(request);
      const user = token ? await auth.authenticate(token) : undefined;
      if (user) await auth.logout(user);
      return ok({ code: "200", msg: "操作成功" });
    },
  );

  app.post(
    "/api/blade-auth/oauth/logout",
    { schema: { tags, summary: "Upload the console's local error log (does not log out)" } },
    async (request) => {
      const entries = request.body;
      if (!Array.isArray(entries)) throw badRequest("body: 需要本地日志数组");
      const user = request.user!;
      for (const entry of entries.slice(0, MAX_UPLOADED_LOGS) as Partial<LocalLogEntry>[]) {
        const field = (value: unknown, max: number) => String(value ?? "").slice(0, max);
        await db.query(
          `insert into log_error (id, tenant_id, service_id, request_uri, user_agent, stack_trace, exception_name,
                                  message, remote_ip, params, create_by)
           values ($1, $2, 'meterline-console', $3, $4, $5, $6, $7, $8, $9, $10)`,
          [
            nextId(),
            user.tenantId,
            field(entry.url, 1000),
            field(request.headers["user-agent"], 1000),
            field(entry.stack, 20_000),
            field(entry.type, 255),
            field(entry.message, 5000),
            request.ip,
            field(JSON.stringify({ time: entry.time, info: entry.info }), 5000),
            user.account,
          ],
        );
      }
      return PLAIN_SUCCESS;
    },
  );

  app.get(
    "/api/blade-auth/oauth/user-info",
    { schema: { tags, summary: "The signed-in user" } },
    async (request) => ok(await users.info(request.user!)),
  );

  app.get(
    "/api/blade-auth/oauth/clear-cache",
    { schema: { tags, summary: "Flush server caches (none are kept across requests yet)" } },
    async () => PLAIN_SUCCESS,
  );
}
