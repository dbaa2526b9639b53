import { resources } from "@meterline/contracts";
import type { FastifyInstance } from "fastify";
import { ok } from "../../contract/envelope.ts";
import { badRequest } from "../../contract/errors.ts";
import { idList, optionalId, readParams, requiredString } from "../../contract/params.ts";
import { requirePermission } from "../../crud/permissions.ts";
import { type Row, selectList, serializeRow } from "../../crud/serialize.ts";
import type { Db } from "../../db/client.ts";
import { UserService } from "./user.service.ts";

const def = resources.user;
const base = "/api/blade-user";

/** User writes and the caller's own account calls (contract §10.1). */
export async function userAdminRoutes(app: FastifyInstance, opts: { db: Db; timeZone: string }) {
  const { db, timeZone } = opts;
  const tags = ["user"];
  const inTx = <T>(fn: (users: UserService) => Promise<T>) =>
    db.transaction((tx) => fn(new UserService(tx, timeZone)));
  const body = (raw: unknown) => {
    if (!raw || typeof raw !== "object" || Array.isArray(raw)) throw badRequest("body: 需要 JSON 对象");
    return raw as Record<string, unknown>;
  };

  app.post(
    `${base}/submit`,
    { schema: { tags, summary: "Create a user (or update one when id is given)" } },
    async (request) => {
      const input = body(request.body);
      const id = input.id ? optionalId(input, "id") : undefined;
      const caller = await requirePermission(db, request, [id ? "user_edit" : "user_add"], "admin");
      if (id) {
        await inTx((users) => users.update(caller, id, input));
        return ok({ id });
      }
      return ok({ id: await inTx((users) => users.create(caller, input)) });
    },
  );

  app.post(
    `${base}/update`,
    { schema: { tags, summary: "Update a user; never the password" } },
    async (request) => {
      const input = body(request.body);
      const caller = await requirePermission(db, request, ["user_edit"], "admin");
      const id = optionalId(input, "id");
      if (!id) throw badRequest("缺少必要的请求参数: id");
      await inTx((users) => users.update(caller, id, input));
      return ok({ id });
    },
  );

  app.post(`${base}/remove`, { schema: { tags, summary: "Remove users (not oneself)" } }, async (request) => {
    const caller = await requirePermission(db, request, ["user_delete"], "admin");
    await inTx((users) => users.remove(caller, idList(readParams(request), "ids")));
    return ok({});
  });

  app.post(`${base}/grant`, { schema: { tags, summary: "Set the roles of users" } }, async (request) => {
    const caller = await requirePermission(db, request, ["user_role"], "admin");
    const params = readParams(request);
    await inTx((users) => users.grant(caller, idList(params, "userIds"), idList(params, "roleIds")));
    return ok({});
  });

  app.post(
    `${base}/reset-password`,
    { schema: { tags, summary: "Reset users' passwords to the initial one" } },
    async (request) => {
      const caller = await requirePermission(db, request, ["user_reset"], "admin");
      await inTx((users) => users.resetPassword(caller, idList(readParams(request), "userIds")));
      return ok({});
    },
  );

  app.post(
    `${base}/unlock`,
    { schema: { tags, summary: "Clear users' failed sign-in counters" } },
    async (request) => {
      const caller = await requirePermission(db, request, ["user_unlock"], "admin");
      await inTx((users) => users.unlock(caller, idList(readParams(request), "userIds")));
      return ok({});
    },
  );

  app.post(
    `${base}/update-password`,
    { schema: { tags, summary: "Change one's own password" } },
    async (request) => {
      const params = readParams(request);
      const [oldPassword, newPassword, confirm] = ["oldPassword", "newPassword", "newPassword1"].map((n) =>
        requiredString(params, n),
      ) as [string, string, string];
      await inTx((users) => users.updatePassword(request.user!, oldPassword, newPassword, confirm));
      return ok({});
    },
  );

  app.post(
    `${base}/update-info`,
    { schema: { tags, summary: "Change one's own profile" } },
    async (request) => {
      await inTx((users) => users.updateInfo(request.user!, body(request.body)));
      return ok({});
    },
  );

  app.get(`${base}/info`, { schema: { tags, summary: "One's own user record" } }, async (request) => {
    const [row] = await db.query<Row>(
      `select ${selectList(def)} from sys_user t where t.id = $1 and t.is_deleted = 0`,
      [request.user!.userId],
    );
    return ok(row ? serializeRow(def, row, timeZone) : {});
  });

  app.get(
    `${base}/user-list`,
    { schema: { tags, summary: "Users of the caller's tenant, for pickers" } },
    async (request) => {
      const rows = await db.query<Row>(
        `select t.id as "id", t.account as "account", t.real_name as "realName" from sys_user t
        where t.tenant_id = $1 and t.is_deleted = 0 order by t.id limit 2000`,
        [request.user!.tenantId],
      );
      return ok(rows);
    },
  );
}
