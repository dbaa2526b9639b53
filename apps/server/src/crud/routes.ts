import type { ResourceDef } from "@meterline/contracts";
import type { FastifyInstance } from "fastify";
import { type EngineOptions, resourceContext } from "./context.ts";
import { registerExportRoute } from "./export-routes.ts";
import { registerReadRoutes } from "./read-routes.ts";
import { registerRefusedWrites } from "./refused-writes.ts";
import { registerTreeRoutes } from "./tree-routes.ts";
import { registerWriteRoutes } from "./write-routes.ts";

export type { EngineOptions } from "./context.ts";

/** Registers the Blade-shaped routes of one plain resource from its definition (design §4). */
export async function registerResource(app: FastifyInstance, def: ResourceDef, options: EngineOptions) {
  const context = resourceContext(app, def, options);
  registerReadRoutes(context);
  registerTreeRoutes(context);
  registerExportRoute(context);
  if (!def.readOnly && !def.moduleWrites) registerWriteRoutes(context);
  else registerRefusedWrites(app, options.db, def, context);
}
