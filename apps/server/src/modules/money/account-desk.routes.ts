import type { FastifyInstance } from "fastify";
import { ok } from "../../contract/envelope.ts";
import { badRequest } from "../../contract/errors.ts";
import { optionalId, optionalString, readParams } from "../../contract/params.ts";
import { requirePermission } from "../../crud/permissions.ts";
import type { Db } from "../../db/client.ts";
import { registryTenant } from "../pms/registry-access.ts";
import { closingPreview } from "./closing-preview.ts";

const pms = "/api/blade-pms";

/**
 * The front desk's look before closing an account: the settlement the closing would book (final
 * reading, usage priced since the last settled reading, balance, refund or debt), for the operator
 * to confirm. Asked with the closing's own button codes; nothing is written.
 */
export async function accountDeskRoutes(
  app: FastifyInstance,
  opts: { db: Db; timeZone: string; closeCodes: Record<1 | 2, string[]> },
) {
  const { db, timeZone, closeCodes } = opts;
  app.get(
    `${pms}/account/closePreview`,
    {
      schema: {
        tags: ["money"],
        summary: "The settlement closing a meter's account would book (meterId, energyType 1 or 2)",
      },
    },
    async (request) => {
      const params = readParams(request);
      const energyText = optionalString(params, "energyType") ?? "1";
      if (energyText !== "1" && energyText !== "2") throw badRequest("energyType: 只能是 1(电) 或 2(水)");
      const energyType = Number(energyText) as 1 | 2;
      const user = await requirePermission(db, request, closeCodes[energyType]);
      const meterId = optionalId(params, "meterId");
      if (!meterId) throw badRequest("meterId: 请选择表计");
      return ok(await closingPreview(db, registryTenant(user, params), energyType, meterId, timeZone));
    },
  );
}
