import type { FastifyInstance } from "fastify";
import { ok } from "../../contract/envelope.ts";
import { optionalId, readParams } from "../../contract/params.ts";
import type { Db } from "../../db/client.ts";
import { MenuRepository } from "./menu.repository.ts";
import { MenuService } from "./menu.service.ts";

export async function menuRoutes(app: FastifyInstance, opts: { db: Db }) {
  const menus = new MenuService(new MenuRepository(opts.db));
  const tags = ["menu"];

  app.get(
    "/api/blade-system/menu/routes",
    {
      config: { apiScope: false },
      schema: { tags, summary: "The caller's sidebar tree (optionally under one top menu)" },
    },
    async (request) => ok(await menus.routes(request.user!, optionalId(readParams(request), "topMenuId"))),
  );
  app.get(
    "/api/blade-system/menu/buttons",
    { config: { apiScope: false }, schema: { tags, summary: "The caller's button permissions as a tree" } },
    async (request) => ok(await menus.buttons(request.user!)),
  );
  app.get(
    "/api/blade-system/menu/top-menu",
    { config: { apiScope: false }, schema: { tags, summary: "The caller's tenant's top menus" } },
    async (request) => ok(await menus.topMenus(request.user!)),
  );
}
