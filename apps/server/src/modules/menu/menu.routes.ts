import type { ButtonCode, ButtonNode } from "@meterline/contracts";
import type { FastifyInstance } from "fastify";
import { ok } from "../../contract/envelope.ts";
import { badParam } from "../../contract/errors.ts";
import { optionalId, optionalString, readParams } from "../../contract/params.ts";
import type { Db } from "../../db/client.ts";
import { MenuRepository } from "./menu.repository.ts";
import { MenuService } from "./menu.service.ts";
import { withServerPagesAt } from "./menu-tree.ts";

/** The button tree with each node's code alone: a sixth of the full answer, all the console reads. */
function codesOnly(nodes: readonly ButtonNode[]): ButtonCode[] {
  return nodes.map((node) =>
    node.children?.length ? { code: node.code, children: codesOnly(node.children) } : { code: node.code },
  );
}

export async function menuRoutes(app: FastifyInstance, opts: { db: Db }) {
  const menus = new MenuService(new MenuRepository(opts.db));
  const tags = ["menu"];

  app.get(
    "/api/blade-system/menu/routes",
    {
      config: { apiScope: false },
      schema: { tags, summary: "The caller's sidebar tree (optionally under one top menu)" },
    },
    async (request) => {
      const routes = await menus.routes(request.user!, optionalId(readParams(request), "topMenuId"));
      return ok(withServerPagesAt(`${request.protocol}://${request.host}`, routes));
    },
  );
  app.get(
    "/api/blade-system/menu/buttons",
    {
      config: { apiScope: false },
      schema: {
        tags,
        summary:
          "The caller's button permissions as a tree; `fields=code` answers only the codes the console reads",
      },
    },
    async (request) => {
      const fields = optionalString(readParams(request), "fields");
      if (fields !== undefined && fields !== "code") throw badParam("fields");
      const tree = await menus.buttons(request.user!);
      return ok(fields === "code" ? codesOnly(tree) : tree);
    },
  );
  app.get(
    "/api/blade-system/menu/top-menu",
    { config: { apiScope: false }, schema: { tags, summary: "The caller's tenant's top menus" } },
    async (request) => ok(await menus.topMenus(request.user!)),
  );
}
