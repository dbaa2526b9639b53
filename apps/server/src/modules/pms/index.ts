import type { FastifyInstance } from "fastify";
import type { Db } from "../../db/client.ts";
import { detailOverviewRoutes } from "./detail-overview.routes.ts";
import { globalSearchRoutes } from "./global-search.routes.ts";
import { registryOperationRoutes } from "./registry-operations.routes.ts";
import { registryTreeRoutes } from "./registry-trees.routes.ts";

/** The registry's routes beyond the engine's plain CRUD of its resources. */
export async function registryRoutes(app: FastifyInstance, opts: { db: Db; timeZone: string }) {
  await app.register(registryTreeRoutes, { db: opts.db });
  await app.register(registryOperationRoutes, opts);
  await app.register(detailOverviewRoutes, opts);
  await app.register(globalSearchRoutes, { db: opts.db });
}
