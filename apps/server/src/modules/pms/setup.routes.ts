import { readCodesOf, resources } from "@meterline/contracts";
import type { FastifyInstance } from "fastify";
import { ok } from "../../contract/envelope.ts";
import { readParams } from "../../contract/params.ts";
import { requirePermission } from "../../crud/permissions.ts";
import type { Db } from "../../db/client.ts";
import { registryTenant } from "./registry-access.ts";
import { setupProgress } from "./setup-progress.ts";

/** Who sets a site up: users of the registry's screens (a cashier's home has no checklist). */
const SETUP_CODES = [
  resources.area,
  resources.room,
  resources.meter,
  resources.owner,
  resources.collector,
].flatMap((def) => readCodesOf(def));

/** The new-site checklist of the home page: each step's count and the next step to take. */
export async function setupRoutes(app: FastifyInstance, opts: { db: Db }) {
  const { db } = opts;
  app.get(
    "/api/blade-pms/setup/progress",
    {
      schema: {
        tags: ["homepage"],
        summary:
          "A site's way from empty to its first recharge: each step's count (bounded) and the next step",
      },
    },
    async (request) => {
      const user = await requirePermission(db, request, SETUP_CODES);
      const params = readParams(request);
      return ok(await setupProgress(db, registryTenant(user, params)));
    },
  );
}
