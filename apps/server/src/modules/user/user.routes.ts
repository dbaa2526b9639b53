import type { FastifyInstance } from "fastify";
import { done } from "../../contract/envelope.ts";
import { badRequest } from "../../contract/errors.ts";
import { optionalId, readParams, requiredString } from "../../contract/params.ts";
import type { Db } from "../../db/client.ts";
import { nextId } from "../../db/ids.ts";
import { asMd5, hashPassword } from "../auth/password.ts";
import { UserRepository } from "./user.repository.ts";

export const REGISTERED_MESSAGE = "注册申请已提交,请耐心等待管理员审核";

export async function userRoutes(app: FastifyInstance, opts: { db: Db }) {
  app.post(
    "/api/blade-user/register-guest",
    {
      // Reached by a third-party sign-in that has no local user yet; the unbound oauth id is the proof.
      config: { public: true },
      schema: { tags: ["user"], summary: "Register a guest from a third-party sign-in, pending approval" },
    },
    async (request) => {
      const params = readParams(request);
      const tenantId = requiredString(params, "tenantId");
      const name = requiredString(params, "name").trim();
      const account = requiredString(params, "account").trim();
      const password = requiredString(params, "password");
      const oauthId = optionalId(params, "oauthId");
      if (account.length > 45) throw badRequest("account: 账号长度不能超过45个字符");
      if (name.length > 20) throw badRequest("name: 姓名长度不能超过20个字符");
      const passwordHash = await hashPassword(asMd5(password));
      return opts.db.transaction(async (tx) => {
        const users = new UserRepository(tx);
        if (!(await users.tenantExists(tenantId))) throw badRequest("租户信息错误!");
        const oauth = oauthId ? await users.unboundOauth(oauthId) : undefined;
        if (!oauth) throw badRequest("第三方登陆信息错误!");
        if (await users.accountTaken(tenantId, account)) throw badRequest(`当前用户 [${account}] 已存在!`);
        await users.insertGuest({
          id: nextId(),
          tenantId,
          account,
          name,
          passwordHash,
          avatar: oauth.avatar,
          oauthId: oauth.id,
        });
        return done(REGISTERED_MESSAGE);
      });
    },
  );
}
