import { type ResourceDef, resources } from "@meterline/contracts";
import type { FastifyInstance } from "fastify";
import type { ResourceHooks } from "../crud/hooks.ts";
import { registerResource } from "../crud/routes.ts";
import type { Db } from "../db/client.ts";
import { menuHooks, roleHooks } from "./access.hooks.ts";
import { dictionaryHooks } from "./dict.hooks.ts";
import { userHooks } from "./user.hooks.ts";

/** Server-side rules of the few plain resources that need more than their definition. */
const hooks: Partial<Record<string, ResourceHooks>> = {
  dict: dictionaryHooks,
  dictBiz: dictionaryHooks,
  role: roleHooks,
  menu: menuHooks,
  user: userHooks,
};

/** Every plain resource's routes, from its definition alone. */
export async function resourceRoutes(app: FastifyInstance, opts: { db: Db; timeZone: string }) {
  for (const def of Object.values(resources) as ResourceDef[]) {
    await registerResource(app, def, { ...opts, hooks: hooks[def.name] });
  }
}
