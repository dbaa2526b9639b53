import type { FastifyInstance, FastifyRequest } from "fastify";
import { ok } from "../../contract/envelope.ts";
import { badParam } from "../../contract/errors.ts";
import { idList, readParams } from "../../contract/params.ts";
import { requirePermission } from "../../crud/permissions.ts";
import type { Db, Queryable } from "../../db/client.ts";
import { AccessRepository } from "./access.repository.ts";
import { AccessService } from "./access.service.ts";

/** A JSON array of ids in the body (role and top-menu grants send arrays, contract §8.3). */
function idArray(body: unknown, name: string): string[] {
  const value = (body as Record<string, unknown> | undefined)?.[name] ?? [];
  if (!Array.isArray(value)) throw badParam(name);
  return value.map((v) => {
    const id = String(v);
    if (!/^\d{1,19}$/.test(id)) throw badParam(name);
    return id;
  });
}

export async function accessRoutes(app: FastifyInstance, opts: { db: Db }) {
  const { db } = opts;
  const tags = ["access"];
  const service = (tx: Queryable = db) => new AccessService(new AccessRepository(tx));
  // The grant dialogs read what they offer with the permission their save needs.
  const requireRoleGrant = (request: FastifyRequest) =>
    requirePermission(db, request, ["role_grant"], "admin");
  const requireTopMenuGrant = (request: FastifyRequest) =>
    requirePermission(db, request, ["topmenu_setting"], "admin");

  app.get(
    "/api/blade-system/menu/grant-tree",
    { schema: { tags, summary: "Menus and scopes the caller can grant" } },
    async (request) => ok(await service().grantTree(await requireRoleGrant(request))),
  );
  app.get(
    "/api/blade-system/menu/role-tree-keys",
    { schema: { tags, summary: "What the given roles hold" } },
    async (request) =>
      ok(
        await service().roleTreeKeys(await requireRoleGrant(request), idList(readParams(request), "roleIds")),
      ),
  );
  app.get(
    "/api/blade-system/menu/grant-top-tree",
    { schema: { tags, summary: "Screens a top menu can hold" } },
    async (request) => ok(await service().grantTopTree(await requireTopMenuGrant(request))),
  );
  app.get(
    "/api/blade-system/menu/top-tree-keys",
    { schema: { tags, summary: "Screens of the given top menus" } },
    async (request) =>
      ok(
        await service().topTreeKeys(
          await requireTopMenuGrant(request),
          idList(readParams(request), "topMenuIds"),
        ),
      ),
  );

  app.post(
    "/api/blade-system/role/grant",
    { schema: { tags, summary: "Grant menus, data and API scopes to roles" } },
    async (request) => {
      const caller = await requireRoleGrant(request);
      const input = {
        roleIds: idArray(request.body, "roleIds"),
        menuIds: idArray(request.body, "menuIds"),
        dataScopeIds: idArray(request.body, "dataScopeIds"),
        apiScopeIds: idArray(request.body, "apiScopeIds"),
      };
      if (input.roleIds.length === 0) throw badParam("roleIds");
      await db.transaction((tx) => service(tx).grant(caller, input));
      return ok({});
    },
  );

  app.post(
    "/api/blade-system/topmenu/grant",
    { schema: { tags, summary: "Set the screens of top menus" } },
    async (request) => {
      const caller = await requireTopMenuGrant(request);
      const topMenuIds = idArray(request.body, "topMenuIds");
      if (topMenuIds.length === 0) throw badParam("topMenuIds");
      await db.transaction((tx) =>
        service(tx).grantTopMenus(caller, topMenuIds, idArray(request.body, "menuIds")),
      );
      return ok({});
    },
  );
}
