import type { FastifyInstance } from "fastify";
import { ok } from "../../contract/envelope.ts";
import { readParams } from "../../contract/params.ts";
import { requirePermission } from "../../crud/permissions.ts";
import type { Db } from "../../db/client.ts";
import type { CurrentUser } from "../auth/current-user.ts";
import { registryTenant } from "../pms/registry-access.ts";
import { takeAnyRecharge, takeMeterRecharge } from "./meter-recharge.service.ts";
import { rechargeRequestOf } from "./recharge-input.ts";

const pms = "/api/blade-pms";
const tags = ["money"];
const RECHARGE_BUTTON = ["ownerRecharge_recharge"];

const actorOf = (user: CurrentUser) => ({ userId: user.userId, name: user.realName || user.account });

/**
 * message/recharge writes a purchase to a local-prepaid meter (the recharge is done when the meter
 * confirms it); message/rechargeNew is the counter's one call for any account: booked at once on a
 * remote-control account, written to the meter on a local-prepaid one. Both idempotent by key.
 */
export async function meterRechargeRoutes(app: FastifyInstance, opts: { db: Db; timeZone: string }) {
  const { db, timeZone } = opts;
  for (const [verb, summary] of [
    ["recharge", "Write a recharge to a local-prepaid meter (state 0 until the meter confirms; idempotent)"],
    [
      "rechargeNew",
      "Recharge any account: booked at once (remote control) or written to the meter (local prepaid)",
    ],
  ] as const) {
    app.post(`${pms}/message/${verb}`, { schema: { tags, summary } }, async (request) => {
      const user = await requirePermission(db, request, RECHARGE_BUTTON);
      const params = readParams(request);
      const header = request.headers["idempotency-key"];
      if (typeof header === "string" && params.idempotencyKey === undefined) params.idempotencyKey = header;
      const input = rechargeRequestOf(params);
      const tenantId = registryTenant(user, params);
      const result =
        verb === "recharge"
          ? await takeMeterRecharge(db, tenantId, input, actorOf(user))
          : await takeAnyRecharge(db, tenantId, input, actorOf(user), timeZone);
      const message = result.replayed
        ? "该笔充值已受理,未重复下发"
        : result.state === 0
          ? "已下发写表,待表计确认后入账"
          : "入账成功";
      return ok(result, message);
    });
  }
}
