import { pickerCodesOf, resources } from "@meterline/contracts";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { ok } from "../../contract/envelope.ts";
import { badRequest } from "../../contract/errors.ts";
import { idList, optionalId, readParams, requiredString } from "../../contract/params.ts";
import { scopePredicate, scopeRules } from "../../crud/data-scope.ts";
import { requirePermission } from "../../crud/permissions.ts";
import { type Row, selectList, serializeRow } from "../../crud/serialize.ts";
import type { SqlParams } from "../../crud/sql.ts";
import type { Db, Queryable } from "../../db/client.ts";
import { UserService } from "./user.service.ts";
import { parseUserExt, platformDetail, updatePlatform } from "./user-platform.ts";

const def = resources.user;
const base = "/api/blade-user";

/** User writes and the caller's own account calls (contract §10.1). */
export async function userAdminRoutes(
  app: FastifyInstance,
  opts: { db: Db; timeZone: string; production: boolean },
) {
  const { db, timeZone, production } = opts;
  const tags = ["user"];
  /** Runs one user operation in a transaction, narrowed to the users the caller's data scope shows. */
  const inTx = async <T>(request: FastifyRequest, fn: (users: UserService, tx: Queryable) => Promise<T>) => {
    // Rules are read before the transaction: the embedded database serves one connection.
    const rules = await scopeRules(db, request, def.name);
    const scope = (sql: SqlParams, alias: string) => scopePredicate(def, request, rules, sql, alias);
    return db.transaction((tx) => fn(new UserService(tx, timeZone, scope), tx));
  };
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
        await inTx(request, (users) => users.update(caller, id, input));
        return ok({ id });
      }
      return ok({ id: await inTx(request, (users) => users.create(caller, input)) });
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
      await inTx(request, (users) => users.update(caller, id, input));
      return ok({ id });
    },
  );

  app.post(`${base}/remove`, { schema: { tags, summary: "Remove users (not oneself)" } }, async (request) => {
    const caller = await requirePermission(db, request, ["user_delete"], "admin");
    await inTx(request, (users) => users.remove(caller, idList(readParams(request), "ids")));
    return ok({});
  });

  app.post(`${base}/grant`, { schema: { tags, summary: "Set the roles of users" } }, async (request) => {
    const caller = await requirePermission(db, request, ["user_role"], "admin");
    const params = readParams(request);
    await inTx(request, (users) => users.grant(caller, idList(params, "userIds"), idList(params, "roleIds")));
    return ok({});
  });

  app.post(
    `${base}/reset-password`,
    { schema: { tags, summary: "Reset users' passwords to the initial one" } },
    async (request) => {
      const caller = await requirePermission(db, request, ["user_reset"], "admin");
      await inTx(request, (users) =>
        users.resetPassword(caller, idList(readParams(request), "userIds"), production),
      );
      return ok({});
    },
  );

  app.post(
    `${base}/unlock`,
    { schema: { tags, summary: "Clear users' failed sign-in counters" } },
    async (request) => {
      const caller = await requirePermission(db, request, ["user_unlock"], "admin");
      await inTx(request, (users) => users.unlock(caller, idList(readParams(request), "userIds")));
      return ok({});
    },
  );

  app.post(
    `${base}/update-password`,
    { config: { apiScope: false }, schema: { tags, summary: "Change one's own password" } },
    async (request) => {
      const params = readParams(request);
      const [oldPassword, newPassword, confirm] = ["oldPassword", "newPassword", "newPassword1"].map((n) =>
        requiredString(params, n),
      ) as [string, string, string];
      await inTx(request, (users) => users.updatePassword(request.user!, oldPassword, newPassword, confirm));
      return ok({});
    },
  );

  app.post(
    `${base}/update-info`,
    { config: { apiScope: false }, schema: { tags, summary: "Change one's own profile" } },
    async (request) => {
      await inTx(request, (users) => users.updateInfo(request.user!, body(request.body)));
      return ok({});
    },
  );

  app.get(
    `${base}/platform-detail`,
    { schema: { tags, summary: "A user's platform type and its settings" } },
    async (request) => {
      const caller = await requirePermission(db, request, ["user_platform"], "admin");
      const id = optionalId(readParams(request), "id");
      if (!id) throw badRequest("缺少必要的请求参数: id");
      return ok(await inTx(request, (users, tx) => platformDetail(tx, users, caller, id)));
    },
  );

  app.post(
    `${base}/update-platform`,
    { schema: { tags, summary: "Set a user's platform type and its settings (userExt, a JSON object)" } },
    async (request) => {
      const caller = await requirePermission(db, request, ["user_platform"], "admin");
      const params = readParams(request);
      const userId = optionalId(params, "userId");
      if (!userId) throw badRequest("缺少必要的请求参数: userId");
      const change = {
        userId,
        userType: requiredString(params, "userType"),
        userExt: parseUserExt(params.userExt),
      };
      await inTx(request, (users, tx) => updatePlatform(tx, users, caller, change));
      return ok({});
    },
  );

  app.get(
    `${base}/info`,
    { config: { apiScope: false }, schema: { tags, summary: "One's own user record" } },
    async (request) => {
      const [row] = await db.query<Row>(
        `select ${selectList(def)} from sys_user t where t.id = $1 and t.is_deleted = 0`,
        [request.user!.userId],
      );
      return ok(row ? serializeRow(def, row, timeZone) : {});
    },
  );

  app.get(
    `${base}/user-list`,
    { schema: { tags, summary: "Users of the caller's tenant, for pickers" } },
    async (request) => {
      // Every account of the tenant: only for the screens that pick users.
      await requirePermission(db, request, pickerCodesOf(def.name), def.guard);
      const rows = await db.query<Row>(
        `select t.id as "id", t.account as "account", t.real_name as "realName" from sys_user t
        where t.tenant_id = $1 and t.is_deleted = 0 order by t.id limit 2000`,
        [request.user!.tenantId],
      );
      return ok(rows);
    },
  );
}
