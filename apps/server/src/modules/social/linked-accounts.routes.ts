import type { LinkedAccount } from "@meterline/contracts";
import type { FastifyInstance } from "fastify";
import { formatDateTime } from "../../contract/dates.ts";
import { done, ok } from "../../contract/envelope.ts";
import { badRequest } from "../../contract/errors.ts";
import { readParams, requiredString } from "../../contract/params.ts";
import type { Db } from "../../db/client.ts";
import { OAuthError } from "../auth/oauth-error.ts";
import { browserKeyOf, clearBrowserKey, setBrowserKey } from "./browser-cookie.ts";
import { SocialRepository } from "./social.repository.ts";
import type { SocialSignIn } from "./social-sign-in.ts";

/**
 * The caller's own sign-in accounts at providers (profile, third tab): list, link another (the
 * same provider round trip as a sign-in, its state marked for this user) and unlink, never the
 * last way in. Under /api/blade-auth/oauth so that the browser's sign-in cookie reaches them.
 */
export async function linkedAccountRoutes(
  app: FastifyInstance,
  opts: { db: Db; social: SocialSignIn; timeZone: string },
) {
  const { db, social } = opts;
  const tags = ["social"];

  app.get(
    "/api/blade-auth/oauth/linked",
    { schema: { tags, summary: "The caller's linked sign-in accounts" } },
    async (request) => {
      const user = request.user!;
      const rows = await new SocialRepository(db).identitiesOf(user.userId, user.tenantId);
      return ok<LinkedAccount[]>(
        rows.map((row) => ({
          id: String(row.id),
          source: row.source,
          username: row.username ?? "",
          nickname: row.nickname ?? "",
          email: row.email ?? "",
          createTime: formatDateTime(new Date(row.create_time), opts.timeZone),
        })),
      );
    },
  );

  app.post(
    "/api/blade-auth/oauth/link-start",
    { schema: { tags, summary: "Start linking another sign-in account: the provider's address" } },
    async (request, reply) => {
      const user = request.user!;
      const source = requiredString(readParams(request), "source");
      try {
        const { url, browserKey } = await social.start(user.tenantId, source, user.userId);
        setBrowserKey(request, reply, browserKey);
        return ok({ url });
      } catch (error) {
        if (error instanceof OAuthError) throw badRequest(error.message);
        throw error;
      }
    },
  );

  app.post(
    "/api/blade-auth/oauth/link",
    { schema: { tags, summary: "Finish linking: bind the account the provider proved to the caller" } },
    async (request, reply) => {
      const user = request.user!;
      const params = readParams(request);
      clearBrowserKey(reply);
      let identity: Awaited<ReturnType<SocialSignIn["finish"]>>;
      try {
        identity = await social.finish({
          tenantId: user.tenantId,
          source: requiredString(params, "source"),
          code: requiredString(params, "code"),
          state: requiredString(params, "state"),
          browserKey: browserKeyOf(request),
          linkUserId: user.userId,
        });
      } catch (error) {
        if (error instanceof OAuthError) throw badRequest(error.message);
        throw error;
      }
      if (identity.user_id === user.userId) return done();
      if (identity.user_id) throw badRequest("该第三方账号已绑定其他用户");
      if (!(await new SocialRepository(db).bindIdentity(identity.id, user.userId, user.tenantId))) {
        throw badRequest("该第三方账号已绑定其他用户");
      }
      return done();
    },
  );

  app.post(
    "/api/blade-auth/oauth/unlink",
    { schema: { tags, summary: "Unlink one of the caller's sign-in accounts (never the last way in)" } },
    async (request) => {
      const user = request.user!;
      const id = requiredString(readParams(request), "id");
      await db.transaction(async (tx) => {
        const repo = new SocialRepository(tx);
        const mine = await repo.identitiesOf(user.userId, user.tenantId);
        if (!mine.some((row) => String(row.id) === id)) throw badRequest("id: 不是当前用户的第三方账号");
        if (mine.length === 1 && !(await repo.hasPassword(user.userId))) {
          throw badRequest("这是最后一种登录方式,不能解绑");
        }
        await repo.unbindIdentity(id, user.userId, user.tenantId);
      });
      return done();
    },
  );
}
